// A public video record as the model keeps it for as long as it serves (docs/architecture.md, "One
// representation per video"): the record's own fields, its repeated values shared (shared-values.ts),
// and its description, the longest text of a video, as UTF-8 in the model's text pool (off the JS heap).
// JSON.parse gives a description with a single character past U+00FF (a curly quote, a dash) two
// bytes per character: 28,014 of pyvideo-100k's 74,381 descriptions, 72 MB where UTF-8 takes 24 MB.
// The description is decoded when read (about a microsecond per kilobyte).
import type { PublicVideo } from '../catalogue/public-catalogue.ts';

/** Bytes of one block of a text pool (a text longer than this has a block of its own size). */
export const TEXT_BLOCK = 1 << 20;

/**
 * Texts as UTF-8 in blocks of TEXT_BLOCK bytes made once each, read back by range: no text straddles
 * two blocks, and no block is ever grown by copying. The pool takes its texts as they come (the
 * server builds its model while the model data streams in: docs/reliability.md, "Server memory"),
 * so their total need not be known first; a block's unused end is the only waste (under a text's
 * length, at most a block for the last one).
 */
export class TextPool {
  readonly #blockBytes: number;
  #block: Buffer | undefined;
  #used = 0;

  constructor(blockBytes = TEXT_BLOCK) {
    this.#blockBytes = blockBytes;
  }

  /** Appends a text; the block that holds it and its range there. */
  add(text: string): { bytes: Buffer; from: number; to: number } {
    // A UTF-16 code unit is at most 3 bytes of UTF-8: a text that fits by that bound is written in
    // one pass, without first counting its bytes (a second pass over every description).
    if (this.#block === undefined || this.#used + 3 * text.length > this.#block.length) {
      const length = Buffer.byteLength(text, 'utf8');
      if (this.#block === undefined || this.#used + length > this.#block.length) {
        // off the JS heap, and made once: never copied into a larger one
        this.#block = Buffer.allocUnsafeSlow(Math.max(this.#blockBytes, length));
        this.#used = 0;
      }
    }
    const from = this.#used;
    this.#used += this.#block.write(text, from, 'utf8');
    return { bytes: this.#block, from, to: this.#used };
  }
}

/** Every field of a video record, so that one added to PublicVideo fails to compile here until StoredVideo keeps it. */
const FIELDS = {
  id: 1, channel: 1, title: 1, description: 1, category: 1, tags: 1, duration: 1, views: 1, likes: 1, publishedAt: 1,
  updatedAt: 1, privacy: 1, features: 1, thumbnailUrl: 1, sources: 1, captions: 1, language: 1, chapters: 1,
} as const satisfies Record<keyof PublicVideo, 1>;
export const VIDEO_FIELDS = Object.keys(FIELDS) as (keyof PublicVideo)[];

export class StoredVideo implements PublicVideo {
  readonly id: string;
  readonly channel: string;
  readonly title: string;
  readonly category: string | undefined;
  readonly tags: readonly string[];
  readonly duration: number | undefined;
  readonly views: number;
  readonly likes: number;
  readonly publishedAt: string;
  readonly updatedAt: string | undefined;
  readonly privacy: 'public' | 'unlisted';
  readonly features: PublicVideo['features'];
  readonly thumbnailUrl: string | undefined;
  readonly sources: PublicVideo['sources'];
  readonly captions: PublicVideo['captions'];
  readonly language: string | undefined;
  readonly chapters: PublicVideo['chapters'];
  /** the text pool's block holding the description, and its range there */
  readonly #bytes: Buffer | undefined;
  readonly #from: number;
  readonly #to: number;

  /** `record`: the record with its shared values; its description goes to `pool` */
  constructor(record: PublicVideo, pool: TextPool) {
    this.id = record.id;
    this.channel = record.channel;
    this.title = record.title;
    this.category = record.category;
    this.tags = record.tags;
    this.duration = record.duration;
    this.views = record.views;
    this.likes = record.likes;
    this.publishedAt = record.publishedAt;
    this.updatedAt = record.updatedAt;
    this.privacy = record.privacy;
    this.features = record.features;
    this.thumbnailUrl = record.thumbnailUrl;
    this.sources = record.sources;
    this.captions = record.captions;
    this.language = record.language;
    this.chapters = record.chapters;
    if (record.description === undefined) {
      this.#bytes = undefined;
      this.#from = this.#to = 0;
    } else {
      const range = pool.add(record.description);
      this.#bytes = range.bytes;
      this.#from = range.from;
      this.#to = range.to;
    }
  }

  get description(): string | undefined {
    return this.#bytes?.toString('utf8', this.#from, this.#to);
  }

  /**
   * The description's UTF-8 as the text pool holds it (a view of the pool, not a copy; undefined
   * without a description): the build's search packing copies these bytes for its worker to decode
   * instead of decoding them here (search/documents.ts searchSources, descriptionBytes).
   */
  get descriptionBytes(): Uint8Array | undefined {
    return this.#bytes?.subarray(this.#from, this.#to);
  }

  /** The record as a plain object: its fields that have a value, the description included. */
  toJSON(): PublicVideo {
    const plain: Record<string, unknown> = {};
    for (const field of VIDEO_FIELDS) if (this[field] !== undefined) plain[field] = this[field];
    return plain as unknown as PublicVideo;
  }
}
