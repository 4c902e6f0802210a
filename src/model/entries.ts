// The model's entries: a public video, channel or playlist with the resource the API shows and
// what the model links it to. Declared apart from the modules that build them so those modules
// and the list indexes can name each other's entries without importing each other.
//
// A video entry holds one representation of its video: the public record (read-catalogue.ts made
// it, the model shares its repeated strings and objects). The API resource, its absolute URLs and
// its comment threads as resources are made from it when asked, never stored: at a million videos,
// keeping both the record and the resource cost 3.65 GB of heap (docs/architecture.md, "One
// representation per video").
import type { PublicChannel, PublicPlaylist, PublicVideo } from '../catalogue/public-catalogue.ts';
import type { StoredThread } from './stored-comments.ts';

export { NO_REPLIES, type StoredComment, type StoredThread } from './stored-comments.ts';
import { durationClass, type DurationClass } from './durations.ts';
import { toThread, toVideo, type ChannelProfile } from './resources.ts';
import type { JsonOut } from './json-out.ts';
import type { CommentThread, Creator, Playlist, Video } from './schemas.ts';
import type { Urls } from './urls.ts';

export const VIDEO_SORTS = ['latest', 'trending', 'views', 'likes'] as const;
export type VideoSort = (typeof VIDEO_SORTS)[number];

/** The related videos of each entry, as one pool of entry indexes and each entry's range in it. */
export type RelatedPool = Int32Array | readonly number[];

/** Inside `withStandIns`: the stand-ins made so far, by entry index (a StandIns), or true when none are kept. */
let standIns: (StandIn | undefined)[] | true | undefined;

/**
 * Stand-ins kept across calls of `withStandIns`, by entry index, so that a build makes each video's
 * stand-in (and its watch URL) once, not once on every list page that names it (the latest videos,
 * its channel's, its playlists', the sorts' first pages: docs/performance.md, "The pages phase's
 * list pages and pages taken in place"). Made for one model's entries; garbage once the pages are
 * done.
 */
export type StandIns = { readonly kept: (object | undefined)[] };

export const createStandIns = (videos: number): StandIns => ({ kept: new Array<object | undefined>(videos).fill(undefined) });

/**
 * Runs `answer` (synchronous: a handler) with every video entry's `resource` a stand-in that only
 * names the video (VideoEntry.resource). An incremental build keys a list page by its answer with
 * each video resource replaced by the video's input key (src/snapshot/page-inputs.ts), so it
 * answers the page this way first and makes the real resources only for a page whose key changed
 * (src/snapshot/render-pages.ts; docs/architecture.md, "Incremental builds"). With `kept`, a
 * video's stand-in is made once and the same object is given on every later call (a stand-in is
 * never changed: its fields are read-only).
 */
export function withStandIns<T>(answer: () => T, kept?: StandIns): T {
  standIns = kept === undefined ? true : (kept.kept as (StandIn | undefined)[]);
  try {
    return answer();
  } finally {
    standIns = undefined;
  }
}

/**
 * What a video entry's `resource` is inside `withStandIns`: only what names the video, its id and
 * watch URL (own fields, so it serialises and spreads as the object of those two fields it was
 * before), and, privately, the entry it stands for, so that the answer key finds the entry without
 * making the watch URL again to recognise it (src/snapshot/page-inputs.ts).
 */
class StandIn {
  readonly id: string;
  readonly watchUrl: string;
  readonly #entry: VideoEntry;
  constructor(entry: VideoEntry, watchUrl: string) {
    this.id = entry.video.id;
    this.watchUrl = watchUrl;
    this.#entry = entry;
  }
  /** The entry `value` stands for, when it is a stand-in (this object itself, not a copy of it). */
  static entryOf(value: object): VideoEntry | undefined {
    return #entry in value ? (value as StandIn).#entry : undefined;
  }
}

/** Whether `withStandIns` is running: a video entry's `resource` is then a stand-in, and an answer must be made of them. */
export const makingStandIns = (): boolean => standIns !== undefined;

/** The entry a stand-in made inside `withStandIns` stands for; undefined for any other value. */
export const standInEntry = (value: object): VideoEntry | undefined => StandIn.entryOf(value);

export class VideoEntry {
  /** position in Model.entries (catalogue order) */
  readonly index: number;
  readonly video: PublicVideo;
  readonly trending: number;
  readonly #creator: Creator;
  readonly #comments: number;
  readonly #threads: readonly StoredThread[];
  readonly #urls: Urls;
  readonly #pool: RelatedPool;
  readonly #from: number;
  readonly #to: number;

  constructor(index: number, video: PublicVideo, creator: Creator, threads: readonly StoredThread[], trending: number,
    related: { pool: RelatedPool; from: number; to: number }, urls: Urls) {
    this.index = index;
    this.video = video;
    this.trending = trending;
    this.#creator = creator;
    let comments = threads.length;
    for (const t of threads) comments += t.replies.length;
    this.#comments = comments;
    this.#threads = threads;
    this.#urls = urls;
    this.#pool = related.pool;
    this.#from = related.from;
    this.#to = related.to;
  }

  /**
   * The video as the API shows it, made anew at each call (docs/api-contract.md §2); inside
   * `withStandIns`, only what names the video (its id and watch URL: build-model.ts
   * entryOfResource recognises it), for a build that keys answers without serialising them.
   */
  get resource(): Video {
    if (standIns !== undefined) {
      if (standIns === true) return new StandIn(this, this.#urls.watch(this.video.id)) as unknown as Video;
      // kept by index, for this entry only (a stand-in of another model's entry at this index is made anew)
      const kept = standIns[this.index];
      if (kept !== undefined && StandIn.entryOf(kept) === this) return kept as unknown as Video;
      const made = new StandIn(this, this.#urls.watch(this.video.id));
      if (this.index < standIns.length) standIns[this.index] = made;
      return made as unknown as Video;
    }
    return toVideo(this.video, this.#creator, this.#comments, this.#urls);
  }

  /**
   * Writes the JSON of `resource` (outside `withStandIns`) into `out`: the resource is made and
   * stringified natively, and dropped at once. Written by hand from the record, member by member,
   * it took longer (docs/performance.md, "The first list answers, fifteenth round").
   */
  writeJson(out: JsonOut): void {
    out.text(JSON.stringify(this.resource));
  }

  /** the video's creator, as its resource shows it (one object a channel, shared) */
  get creator(): Creator {
    return this.#creator;
  }

  /** published comments and their replies */
  get commentCount(): number {
    return this.#comments;
  }

  /** related public videos, best first, as indexes into Model.entries */
  get related(): ArrayLike<number> {
    const pool = this.#pool;
    if (this.#from === 0 && this.#to === pool.length) return pool;
    return pool instanceof Int32Array ? pool.subarray(this.#from, this.#to) : pool.slice(this.#from, this.#to);
  }

  get durationClass(): DurationClass | undefined {
    return this.video.duration === undefined ? undefined : durationClass(this.video.duration);
  }

  /** the published top-level comments, newest first, as stored */
  get storedThreads(): readonly StoredThread[] {
    return this.#threads;
  }

  /** the published top-level comments, newest first, each with its replies oldest first, as the API shows them */
  get threads(): CommentThread[] {
    return this.#threads.map((t) => toThread(this.video.id, t, this.#urls));
  }
}

export const CHANNEL_SORTS = ['subscribers', 'views', 'videos'] as const;
export type ChannelSort = (typeof CHANNEL_SORTS)[number];

export interface ChannelEntry {
  readonly channel: PublicChannel;
  readonly resource: ChannelProfile;
  /** public videos, newest first */
  readonly videos: readonly VideoEntry[];
  /** public playlists, most recently updated first (ties by id) */
  readonly playlists: readonly PlaylistEntry[];
}

export interface PlaylistEntry {
  readonly playlist: PublicPlaylist;
  readonly resource: Playlist;
  /** visible videos in playlist order */
  readonly videos: readonly VideoEntry[];
}
