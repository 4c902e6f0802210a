// The in-memory model every handler answers from: public resources built once, public videos in
// each sort order, comment threads per video. Built by the snapshot build from the catalogue, and
// by the server from the snapshot's stored copy of the same data, so both answer alike.
import type { Category, Creator } from './schemas.ts';
import { memoiseJson } from '../lib/serialise.ts';
import { buildChannelsInSteps } from './build-channels.ts';
import { buildPlaylistsInSteps } from './build-playlists.ts';
import { NO_REPLIES, VIDEO_SORTS, VideoEntry, type ChannelEntry, type ChannelSort, type PlaylistEntry, type RelatedPool, type StoredComment, type StoredThread, type VideoSort } from './entries.ts';
import { buildChannelListIndex, buildVideoListIndexInSteps, type ChannelListIndex, type VideoListIndex } from './list-index.ts';
import type { PublicCatalogue, PublicComment } from '../catalogue/public-catalogue.ts';

export { VIDEO_SORTS, type VideoEntry, type VideoSort };
import { computeRelated } from './related.ts';
import { sharedFeatures, toCategory, toCreator, toStoredComment } from './resources.ts';
import { createSharer } from './shared-values.ts';
import { StoredVideo, TextPool } from './stored-video.ts';
import { trendingScores } from './trending.ts';
import { runSteps, sortInSteps, STEP_ITEMS, type Steps } from './steps.ts';
import { createUrls, type Urls } from './urls.ts';


/** What the build computes once and the snapshot stores: aligned with `catalogue.videos`. */
export interface Derived {
  readonly trending: readonly number[];
  /** indexes into catalogue.videos */
  readonly related: readonly ArrayLike<number>[];
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

/**
 * Each video's related list as a range of one pool: the snapshot's loader reads them all into one
 * buffer (src/snapshot/model-data.ts), so the entries keep offsets into it rather than a typed-array
 * view each (an object per video for the garbage collector to mark); lists made apart (the build)
 * are kept as they are.
 */
function relatedPoolOf(lists: Derived['related']): (i: number) => { pool: RelatedPool; from: number; to: number } {
  // Lists that are views of shared blocks (model data: collectModelLines) are kept as ranges of
  // their block, one Int32Array a block; other lists (the build's) are their own pool.
  const blocks = new Map<ArrayBufferLike, Int32Array>();
  const none: readonly number[] = [];
  return (i) => {
    const list = lists[i];
    if (list === undefined) return { pool: none, from: 0, to: 0 };
    if (!(list instanceof Int32Array)) return { pool: Array.from(list), from: 0, to: list.length };
    if (list.byteOffset === 0 && list.length * 4 === list.buffer.byteLength) return { pool: list, from: 0, to: list.length };
    let pool = blocks.get(list.buffer);
    if (pool === undefined) blocks.set(list.buffer, (pool = new Int32Array(list.buffer)));
    const from = list.byteOffset / 4;
    return { pool, from, to: from + list.length };
  };
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
  const urls = createUrls(baseUrl);
  const creators = new Map<string, Creator>();
  for (const c of catalogue.channels) {
    creators.set(c.username, toCreator(c, urls));
    if (creators.size % STEP_ITEMS === 0) yield;
  }

  // One author object per distinct author, shared by their comments: 136,796 comments of pyvideo-100k
  // have 7,998 authors. Their avatar URLs are derived when a comment is shown (resources.ts, toAuthor).
  const share = createSharer();
  const authors = new Map<string, PublicComment['author']>();
  const authorOf = (c: PublicComment): PublicComment['author'] => {
    const { displayName, username, avatarUrl } = c.author;
    const key = JSON.stringify([displayName, username ?? null, avatarUrl ?? null]);
    let author = authors.get(key);
    if (!author) {
      author = { displayName, ...(username !== undefined && { username }), ...(avatarUrl !== undefined && { avatarUrl }) };
      authors.set(key, author);
    }
    return author;
  };
  const storedOf = (c: PublicComment) =>
    toStoredComment({ ...c, text: share.text(c.text), publishedAt: share.text(c.publishedAt) }, authorOf(c));
  const repliesOf = new Map<string, StoredComment[]>();
  const topLevel = new Map<string, PublicComment[]>();
  let n = 0;
  for (const c of catalogue.comments) {
    if (c.parentId === null) {
      const list = topLevel.get(c.videoId);
      if (list) list.push(c);
      else topLevel.set(c.videoId, [c]);
    } else {
      const list = repliesOf.get(c.parentId);
      const reply = storedOf(c);
      if (list) list.push(reply);
      else repliesOf.set(c.parentId, [reply]);
    }
    if (++n % STEP_ITEMS === 0) yield;
  }
  const newestFirst = (a: { publishedAt: string; id: string }, b: { publishedAt: string; id: string }) =>
    (a.publishedAt < b.publishedAt ? 1 : a.publishedAt > b.publishedAt ? -1 : byId(a, b));
  const oldestFirst = (a: { publishedAt: string; id: string }, b: { publishedAt: string; id: string }) =>
    (a.publishedAt < b.publishedAt ? -1 : a.publishedAt > b.publishedAt ? 1 : byId(a, b));

  const related = relatedPoolOf(derived.related);
  let descriptionBytes = 0;
  for (let i = 0; i < catalogue.videos.length; i++) {
    const description = catalogue.videos[i]!.description;
    if (description !== undefined) descriptionBytes += Buffer.byteLength(description, 'utf8');
    if ((i + 1) % (8 * STEP_ITEMS) === 0) yield;
  }
  const texts = new TextPool(descriptionBytes);
  const entries: VideoEntry[] = new Array<VideoEntry>(catalogue.videos.length);
  for (let i = 0; i < catalogue.videos.length; i++) {
    const record = catalogue.videos[i]!;
    const creator = creators.get(record.channel);
    check(creator !== undefined, `video "${record.id}" names channel "${record.channel}", which does not exist`);
    const top = topLevel.get(record.id);
    const threads: StoredThread[] = top === undefined ? [] : top.sort(newestFirst).map((c) => {
      const replies = repliesOf.get(c.id);
      return { ...storedOf(c), replies: replies === undefined ? NO_REPLIES : replies.sort(oldestFirst) };
    });
    // One representation per video: the record, its repeated values shared and its description in
    // the text pool (stored-video.ts); the resource is made from it when asked (entries.ts).
    const video = new StoredVideo({
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
    entries[i] = new VideoEntry(i, video, creator, threads.length === 0 ? NO_THREADS : threads, derived.trending[i] ?? 0, related(i), urls);
    if ((i + 1) % STEP_ITEMS === 0) yield;
  }
  const videos = new Map<string, VideoEntry>();
  for (const e of entries) {
    videos.set(e.video.id, e);
    if (videos.size % (8 * STEP_ITEMS) === 0) yield;
  }

  const visible = entries.filter((e) => e.video.privacy === 'public');
  yield;
  const tie = (a: VideoEntry, b: VideoEntry) => byId(a.video, b.video);
  const orders: Record<VideoSort, VideoEntry[]> = {
    latest: yield* sortInSteps(visible, (a, b) => (a.video.publishedAt < b.video.publishedAt ? 1 : a.video.publishedAt > b.video.publishedAt ? -1 : tie(a, b))),
    trending: yield* sortInSteps(visible, (a, b) => b.trending - a.trending || tie(a, b)),
    views: yield* sortInSteps(visible, (a, b) => b.video.views - a.video.views || tie(a, b)),
    likes: yield* sortInSteps(visible, (a, b) => b.video.likes - a.video.likes || tie(a, b)),
  };

  const counts = new Map<string, number>();
  for (const e of visible) if (e.video.category !== undefined) counts.set(e.video.category, (counts.get(e.video.category) ?? 0) + 1);
  yield;
  const categories = [...catalogue.categories]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : byId(a, b)))
    .map((c) => memoiseJson(toCategory(c.id, c.name, counts.get(c.id) ?? 0)));
  yield;

  const playlists = yield* buildPlaylistsInSteps(catalogue.playlists, videos, creators, urls);
  const channels = yield* buildChannelsInSteps(catalogue.channels, orders.latest, playlists, urls);

  const lists = { videos: yield* buildVideoListIndexInSteps(orders), channels: buildChannelListIndex(channels.orders) };
  return { urls, live: catalogue.live, entries, videos, orders, categories, channels: channels.channels, channelOrders: channels.orders, playlists, lists };
}
