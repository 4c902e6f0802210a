// A public video record as the model keeps it for as long as it serves (docs/architecture.md, "One
// representation per video"): the record's own fields, its repeated values shared (shared-values.ts),
// and its description, the longest text of a video, as UTF-8 in one buffer for the whole model.
// JSON.parse gives a description with a single character past U+00FF (a curly quote, a dash) two
// bytes per character: 28,014 of pyvideo-100k's 74,381 descriptions, 72 MB where UTF-8 takes 24 MB.
// The description is decoded when read (about a microsecond per kilobyte).
import type { PublicVideo } from '../catalogue/public-catalogue.ts';

/** Texts as UTF-8 in one buffer of their exact total size, read back by range. */
export class TextPool {
  readonly #bytes: Buffer;
  #used = 0;

  constructor(byteLength: number) {
    this.#bytes = Buffer.alloc(byteLength);
  }

  /** Appends a text; its range in the pool. */
  add(text: string): { from: number; to: number } {
    const from = this.#used;
    const written = this.#bytes.write(text, from, 'utf8');
    if (Buffer.byteLength(text, 'utf8') !== written) throw new RangeError('text pool: the pool is smaller than its texts');
    this.#used += written;
    return { from, to: this.#used };
  }

  read(from: number, to: number): string {
    return this.#bytes.toString('utf8', from, to);
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
  readonly #pool: TextPool | undefined;
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
      this.#pool = undefined;
      this.#from = this.#to = 0;
    } else {
      const range = pool.add(record.description);
      this.#pool = pool;
      this.#from = range.from;
      this.#to = range.to;
    }
  }

  get description(): string | undefined {
    return this.#pool?.read(this.#from, this.#to);
  }

  /** The record as a plain object: its fields that have a value, the description included. */
  toJSON(): PublicVideo {
    const plain: Record<string, unknown> = {};
    for (const field of VIDEO_FIELDS) if (this[field] !== undefined) plain[field] = this[field];
    return plain as unknown as PublicVideo;
  }
}
