// The in-memory model every handler answers from: public resources built once, public videos in
// each sort order, comment threads per video. Built by the snapshot build from the catalogue, and
// by the server from the snapshot's stored copy of the same data, so both answer alike.
import type { Category, Creator } from './schemas.ts';
import { memoiseJson } from '../lib/serialise.ts';
import { buildChannelsInSteps } from './build-channels.ts';
import { buildPlaylistsInSteps } from './build-playlists.ts';
import { NO_REPLIES, VIDEO_SORTS, VideoEntry, type ChannelEntry, type ChannelSort, type PlaylistEntry, type RelatedPool, type StoredComment, type StoredThread, type VideoSort } from './entries.ts';
import { buildChannelListIndex, buildVideoListIndexInSteps, type ChannelListIndex, type VideoListIndex } from './list-index.ts';
import type { PublicCatalogue, PublicCategory, PublicChannel, PublicComment, PublicLiveStream, PublicPlaylist, PublicVideo } from '../catalogue/public-catalogue.ts';

export { VIDEO_SORTS, type VideoEntry, type VideoSort };
import { computeRelated } from './related.ts';
import { sharedFeatures, toCategory, toCreator, toStoredComment } from './resources.ts';
import { createSharer, type Sharer } from './shared-values.ts';
import { StoredVideo, TextPool } from './stored-video.ts';
import { trendingScores } from './trending.ts';
import { runSteps, STEP_ITEMS, type Steps } from './steps.ts';
import { createUrls, type Urls } from './urls.ts';
import { sortVideoOrdersInSteps, type VideoOrders } from './video-orders.ts';


/** What the build computes once and the snapshot stores: aligned with `catalogue.videos`. */
export interface Derived {
  readonly trending: readonly number[];
  /** indexes into catalogue.videos */
  readonly related: readonly ArrayLike<number>[];
  /**
   * The public videos in each order, as indexes into catalogue.videos (video-orders.ts), when
   * computed beside trending and related (the build's worker thread), for startModel's `finish`
   * (ModelBuilder.derive); else, and in buildModel, the model sorts them itself.
   */
  readonly orders?: VideoOrders | undefined;
}


export interface Model {
  readonly urls: Urls;
  /** live-stream records as of the build (the server reads fresh ones at request time). The
   * catalogue itself is not kept: once the resources are built, its records would only cost memory
   * and garbage-collection time. */
  readonly live: PublicCatalogue['live'];
  /** aligned with catalogue.videos */
  readonly entries: readonly VideoEntry[];
  readonly videos: ReadonlyMap<string, VideoEntry>;
  /** public videos only, in each sort order (ties by id) */
  readonly orders: Readonly<Record<VideoSort, readonly VideoEntry[]>>;
  /** ordered by name, then id */
  readonly categories: readonly Category[];
  /** every channel by username */
  readonly channels: ReadonlyMap<string, ChannelEntry>;
  /** every channel in each sort order */
  readonly channelOrders: Readonly<Record<ChannelSort, readonly ChannelEntry[]>>;
  /** public and unlisted playlists by id */
  readonly playlists: ReadonlyMap<string, PlaylistEntry>;
  /** what answers list queries without walking the model (model/list-index.ts) */
  readonly lists: { readonly videos: VideoListIndex; readonly channels: ChannelListIndex };
}

export function deriveCatalogue(catalogue: PublicCatalogue): Derived {
  const trending = trendingScores(catalogue.videos);
  return { trending, related: computeRelated(catalogue.videos, trending) };
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const NO_THREADS: readonly StoredThread[] = Object.freeze([]);

/** Related numbers in one block of the related lists' memory (4 MB): see RelatedBlocks. */
export const RELATED_BLOCK = 1 << 20;

/**
 * Each video's related list as a range of a pool the entries keep (its pool, from, to) rather than
 * an array each (an object per video for the garbage collector to mark). Lists parsed from model
 * data are copied into blocks of `blockInts` numbers made once each (off the JS heap, never grown
 * by copying: a doubling of a 32 MB buffer held the server's event loop for 200–300 ms at 100,000
 * videos, docs/reliability.md, "Loading without a stall"); a list never straddles two blocks.
 */
class RelatedBlocks {
  readonly #blockInts: number;
  #block: Int32Array | undefined;
  #used = 0;
  /** one Int32Array over all of each buffer that lists given as views come from */
  readonly #views = new Map<ArrayBufferLike, Int32Array>();

  constructor(blockInts: number) {
    this.#blockInts = blockInts;
  }

  /**
   * The list's place in a pool: a list given as an Int32Array (the build's, computeRelated) is kept
   * where it is, as itself or a range of its buffer (no copy beside it); any other (a parsed line's
   * array) is copied into a block.
   */
  add(list: ArrayLike<number>): { pool: RelatedPool; from: number; to: number } {
    if (list instanceof Int32Array) {
      if (list.byteOffset === 0 && list.byteLength === list.buffer.byteLength) return { pool: list, from: 0, to: list.length };
      let pool = this.#views.get(list.buffer);
      if (pool === undefined) this.#views.set(list.buffer, (pool = new Int32Array(list.buffer)));
      const from = list.byteOffset / 4;
      return { pool, from, to: from + list.length };
    }
    if (this.#block === undefined || this.#used + list.length > this.#block.length) {
      this.#block = new Int32Array(Math.max(this.#blockInts, list.length));
      this.#used = 0;
    }
    const from = this.#used;
    this.#block.set(list, from);
    this.#used += list.length;
    return { pool: this.#block, from, to: this.#used };
  }
}

/** Fails with a message naming the record when the catalogue breaks a reference. */
function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(`catalogue: ${message}`);
}

/**
 * The entry a video resource in an answer was made from, if `value` is one: the resources are made
 * when asked (entries.ts), so they are recognised by what only a video resource holds, its id and
 * its watch URL, not by identity.
 */
export function entryOfResource(model: Model, value: object): VideoEntry | undefined {
  const { id, watchUrl } = value as { id?: unknown; watchUrl?: unknown };
  if (typeof id !== 'string' || typeof watchUrl !== 'string') return undefined;
  const entry = model.videos.get(id);
  return entry !== undefined && watchUrl === model.urls.watch(id) ? entry : undefined;
}

/** Builds the model at once (the build, tools, tests). */
export function buildModel(catalogue: PublicCatalogue, derived: Derived, baseUrl: string): Model {
  return runSteps(buildModelInSteps(catalogue, derived, baseUrl));
}

/**
 * Builds the model in steps (steps.ts): every loop over videos, comments, playlists and channels
 * and every sort yields a pause at least every few hundred items, so the server builds a snapshot's
 * model between requests instead of holding them for seconds (docs/reliability.md, "Snapshots").
 */
export function* buildModelInSteps(catalogue: PublicCatalogue, derived: Derived, baseUrl: string): Steps<Model> {
  const builder = createModelBuilder();
  let n = 0;
  const step = () => ++n % STEP_ITEMS === 0;
  for (const c of catalogue.categories) builder.category(c);
  for (const c of catalogue.channels) {
    builder.channel(c);
    if (step()) yield;
  }
  for (let i = 0; i < catalogue.videos.length; i++) {
    builder.video(catalogue.videos[i]!, derived.trending[i] ?? 0, derived.related[i] ?? []);
    if (step()) yield;
  }
  for (const p of catalogue.playlists) builder.playlist(p);
  for (const c of catalogue.comments) {
    builder.comment(c);
    if (step()) yield;
  }
  for (const l of catalogue.live) builder.live(l);
  return yield* builder.finishInSteps(baseUrl);
}

/** No related list yet (startModel: the lists come with `finish`). */
const NOT_YET = new Int32Array(0);

/**
 * A model whose records are taken now and whose derived data comes later: the build takes the
 * catalogue's records (each video stored, each comment made a thread or a reply) while trending
 * and related are computed on a worker thread (src/snapshot/derive-on-worker.ts), then finishes
 * the model with them. The model is buildModel's of the same catalogue and derived data.
 */
export function startModel(catalogue: PublicCatalogue): { finish(derived: Derived, baseUrl: string): Model } {
  const builder = createModelBuilder({ shareValues: false });
  for (const c of catalogue.categories) builder.category(c);
  for (const c of catalogue.channels) builder.channel(c);
  for (const v of catalogue.videos) builder.video(v, 0, NOT_YET);
  for (const p of catalogue.playlists) builder.playlist(p);
  for (const c of catalogue.comments) builder.comment(c);
  for (const l of catalogue.live) builder.live(l);
  let finished = false;
  return {
    finish(derived, baseUrl) {
      if (finished) throw new Error('the model was already finished');
      finished = true;
      builder.derive(derived);
      return runSteps(builder.finishInSteps(baseUrl));
    },
  };
}

/** The records of a model, taken one at a time (ModelBuilder). */
export interface ModelRecords {
  category(record: PublicCategory): void;
  channel(record: PublicChannel): void;
  /** a video, its trending score and its related videos (indexes into the videos, in the order they are given) */
  video(record: PublicVideo, trending: number, related: ArrayLike<number>): void;
  playlist(record: PublicPlaylist): void;
  comment(record: PublicComment): void;
  live(record: PublicLiveStream): void;
}

export interface ModelBuilder extends ModelRecords {
  /**
   * Sets every video's trending score and related list at once (aligned with the videos in the
   * order they were given), in place of those given with each video (startModel).
   */
  derive(derived: Derived): void;
  /** The model of every record given, in steps; the builder is spent once it is called. */
  finishInSteps(baseUrl: string): Steps<Model>;
}

/** Values kept as given (createModelBuilder's shareValues: false). */
const AS_GIVEN: Sharer = { text: (value) => value, list: (items) => items };

/**
 * One representation per video: the record, its repeated values shared by `share` (the features
 * and privacy values always) and its description in `texts` (stored-video.ts); the resource is made
 * from it when asked (entries.ts).
 */
const storeVideo = (record: PublicVideo, share: Sharer, texts: TextPool): StoredVideo => new StoredVideo({
  ...record,
  channel: share.text(record.channel),
  category: share.text(record.category),
  tags: share.list(record.tags),
  privacy: record.privacy === 'public' ? 'public' : 'unlisted',
  features: sharedFeatures(record.features),
  sources: share.list(record.sources),
  captions: share.list(record.captions),
  language: share.text(record.language),
  chapters: record.chapters === undefined ? undefined : share.list(record.chapters),
}, texts);

/**
 * How the build's catalogue read keeps each video (read-catalogue.ts keepVideo, snapshot/read-build-input.ts):
 * stored as startModel's model stores it (nothing shared but the features and privacy values), its
 * description in `texts` from the read on, so the model keeps it as it is.
 */
export const keepAsStored = (texts: TextPool) => (record: PublicVideo): StoredVideo => storeVideo(record, AS_GIVEN, texts);

/** A thread while the model is built: its replies are set once every comment is in. */
type OpenThread = { -readonly [K in keyof StoredThread]: StoredThread[K] };

/**
 * Builds a model from its records as they come, each turned at once into what the model keeps
 * (stored-video.ts: a video's repeated values shared and its description in the text pool; a
 * comment as a StoredComment; a parsed related list copied into a block), so the records need never be
 * held all at once beside the model: the server builds a snapshot's model while its model data
 * streams in, and each parsed record is garbage as soon as its line is read
 * (docs/reliability.md, "Server memory"). What needs every record (the entries with their comment
 * threads, the sort orders, playlists, channels, list indexes) is made by `finishInSteps`.
 * Records may come in any order; a video's related list names videos by the order they are given.
 */
export function createModelBuilder(options: {
  relatedBlockInts?: number;
  textBlockBytes?: number;
  /**
   * false: a record's strings, lists and comment authors are kept as the record holds them, not
   * shared (startModel: the build holds its catalogue to its end, so a shared copy would only add to
   * it, and at a million videos looking every list and text up took most of the records' time), and
   * a video given already stored is kept as it is (keepAsStored: the build's catalogue read stores
   * its videos in its own text pool, so `textBlockBytes` does not apply to them)
   */
  shareValues?: boolean;
} = {}): ModelBuilder {
  const categories: PublicCategory[] = [];
  const channels: PublicChannel[] = [];
  const playlists: PublicPlaylist[] = [];
  const live: PublicLiveStream[] = [];
  const stored: StoredVideo[] = [];
  let trending: number[] = [];
  let related: { pool: RelatedPool; from: number; to: number }[] = [];
  let orders: VideoOrders | undefined;
  const texts = new TextPool(options.textBlockBytes);
  const blocks = new RelatedBlocks(options.relatedBlockInts ?? RELATED_BLOCK);

  // One author object per distinct author, shared by their comments: 136,796 comments of pyvideo-100k
  // have 7,998 authors. Their avatar URLs are derived when a comment is shown (resources.ts, toAuthor).
  const sharing = options.shareValues ?? true;
  const share = sharing ? createSharer() : AS_GIVEN;
  const authors = new Map<string, PublicComment['author']>();
  const authorOf = (c: PublicComment): PublicComment['author'] => {
    if (!sharing) return c.author;
    const { displayName, username, avatarUrl } = c.author;
    // each part with its length before it (absent: no length), so that no two authors have one key
    const key = `${displayName.length}:${displayName}${username === undefined ? '|' : `${username.length}:${username}`}${avatarUrl === undefined ? '|' : `${avatarUrl.length}:${avatarUrl}`}`;
    let author = authors.get(key);
    if (!author) {
      author = { displayName, ...(username !== undefined && { username }), ...(avatarUrl !== undefined && { avatarUrl }) };
      authors.set(key, author);
    }
    return author;
  };
  const storedOf = (c: PublicComment) =>
    toStoredComment({ ...c, text: share.text(c.text), publishedAt: share.text(c.publishedAt) }, authorOf(c));
  /** top-level comments by video id, and replies by their thread's id */
  const topLevel = new Map<string, OpenThread[]>();
  const repliesOf = new Map<string, StoredComment[]>();

  return {
    category: (record) => void categories.push(record),
    channel: (record) => void channels.push(record),
    video(given, score, list) {
      // A video already stored (the build's catalogue read: keepAsStored) is kept as it is when
      // values are not shared; else its plain record is stored (a spread of a StoredVideo would miss
      // its description, read through its prototype).
      stored.push(!sharing && given instanceof StoredVideo ? given : storeVideo(given instanceof StoredVideo ? given.toJSON() : given, share, texts));
      trending.push(score);
      related.push(blocks.add(list));
    },
    playlist: (record) => void playlists.push(record),
    comment(c) {
      if (c.parentId === null) {
        const thread: OpenThread = { ...storedOf(c), replies: NO_REPLIES };
        const list = topLevel.get(c.videoId);
        if (list) list.push(thread);
        else topLevel.set(c.videoId, [thread]);
      } else {
        const list = repliesOf.get(c.parentId);
        const reply = storedOf(c);
        if (list) list.push(reply);
        else repliesOf.set(c.parentId, [reply]);
      }
    },
    live: (record) => void live.push(record),
    derive(derived) {
      check(derived.trending.length === stored.length && derived.related.length === stored.length,
        `derived data for ${derived.trending.length} trending scores and ${derived.related.length} related lists, not the ${stored.length} videos given`);
      trending = Array.from(derived.trending);
      related = derived.related.map((list) => blocks.add(list));
      orders = derived.orders;
    },
    finishInSteps: (baseUrl) => finishModel(baseUrl, { categories, channels, playlists, live, stored, trending, related, orders, topLevel, repliesOf }),
  };
}

/** Everything createModelBuilder took, made into the model in steps. */
function* finishModel(baseUrl: string, taken: {
  categories: readonly PublicCategory[];
  channels: readonly PublicChannel[];
  playlists: readonly PublicPlaylist[];
  live: readonly PublicLiveStream[];
  stored: readonly StoredVideo[];
  trending: readonly number[];
  related: readonly { pool: RelatedPool; from: number; to: number }[];
  orders: VideoOrders | undefined;
  topLevel: ReadonlyMap<string, OpenThread[]>;
  repliesOf: ReadonlyMap<string, StoredComment[]>;
}): Steps<Model> {
  const { stored, topLevel, repliesOf } = taken;
  const urls = createUrls(baseUrl);
  const creators = new Map<string, Creator>();
  for (const c of taken.channels) {
    creators.set(c.username, toCreator(c, urls));
    if (creators.size % STEP_ITEMS === 0) yield;
  }
  const newestFirst = (a: { publishedAt: string; id: string }, b: { publishedAt: string; id: string }) =>
    (a.publishedAt < b.publishedAt ? 1 : a.publishedAt > b.publishedAt ? -1 : byId(a, b));
  const oldestFirst = (a: { publishedAt: string; id: string }, b: { publishedAt: string; id: string }) =>
    (a.publishedAt < b.publishedAt ? -1 : a.publishedAt > b.publishedAt ? 1 : byId(a, b));

  const entries: VideoEntry[] = new Array<VideoEntry>(stored.length);
  for (let i = 0; i < stored.length; i++) {
    const video = stored[i]!;
    const creator = creators.get(video.channel);
    check(creator !== undefined, `video "${video.id}" names channel "${video.channel}", which does not exist`);
    const threads = topLevel.get(video.id);
    if (threads !== undefined) {
      threads.sort(newestFirst);
      for (const t of threads) {
        const replies = repliesOf.get(t.id);
        if (replies !== undefined) t.replies = replies.sort(oldestFirst);
      }
    }
    entries[i] = new VideoEntry(i, video, creator, threads === undefined || threads.length === 0 ? NO_THREADS : threads, taken.trending[i]!, taken.related[i]!, urls);
    if ((i + 1) % STEP_ITEMS === 0) yield;
  }
  const videos = new Map<string, VideoEntry>();
  for (const e of entries) {
    videos.set(e.video.id, e);
    if (videos.size % (8 * STEP_ITEMS) === 0) yield;
  }

  const visible = entries.filter((e) => e.video.privacy === 'public');
  yield;
  const order = taken.orders ?? (yield* sortVideoOrdersInSteps(stored, taken.trending));
  const entriesOf = (indexes: Int32Array): VideoEntry[] => {
    check(indexes.length === visible.length, `an order of ${indexes.length} videos, not the ${visible.length} public ones`);
    return Array.from(indexes, (i) => entries[i]!);
  };
  const orders: Record<VideoSort, VideoEntry[]> = { latest: entriesOf(order.latest), trending: entriesOf(order.trending), views: entriesOf(order.views), likes: entriesOf(order.likes) };
  yield;

  const counts = new Map<string, number>();
  for (const e of visible) if (e.video.category !== undefined) counts.set(e.video.category, (counts.get(e.video.category) ?? 0) + 1);
  yield;
  const categories = [...taken.categories]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : byId(a, b)))
    .map((c) => memoiseJson(toCategory(c.id, c.name, counts.get(c.id) ?? 0)));
  yield;

  const playlists = yield* buildPlaylistsInSteps(taken.playlists, videos, creators, urls);
  const channels = yield* buildChannelsInSteps(taken.channels, orders.latest, playlists, urls);

  const lists = { videos: yield* buildVideoListIndexInSteps(orders), channels: buildChannelListIndex(channels.orders) };
  return { urls, live: taken.live, entries, videos, orders, categories, channels: channels.channels, channelOrders: channels.orders, playlists, lists };
}
