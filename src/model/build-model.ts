// The in-memory model every handler answers from: public resources built once, public videos in
// each sort order, comment threads per video. Built by the snapshot build from the catalogue, and
// by the server from the snapshot's stored copy of the same data, so both answer alike.
import type { Category, CommentThread, Creator, Reply } from './schemas.ts';
import { memoiseJson } from '../lib/serialise.ts';
import { buildChannelsInSteps } from './build-channels.ts';
import { buildPlaylistsInSteps } from './build-playlists.ts';
import { VIDEO_SORTS, type ChannelEntry, type ChannelSort, type PlaylistEntry, type VideoEntry, type VideoSort } from './entries.ts';
import { durationClass } from './durations.ts';
import { buildChannelListIndex, buildVideoListIndexInSteps, type ChannelListIndex, type VideoListIndex } from './list-index.ts';
import type { PublicCatalogue } from '../catalogue/public-catalogue.ts';

export { VIDEO_SORTS, type VideoEntry, type VideoSort };
import { computeRelated } from './related.ts';
import { toAuthor, toCategory, toCreator, toReply, toThread, toVideo } from './resources.ts';
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

/** Fails with a message naming the record when the catalogue breaks a reference. */
function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(`catalogue: ${message}`);
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
    creators.set(c.username, memoiseJson(toCreator(c, urls)));
    if (creators.size % STEP_ITEMS === 0) yield;
  }

  // One author object per distinct author, shared by their comments: 136,796 comments of pyvideo-100k
  // have 7,998 authors, and an object and an avatar URL each cost ~15 MB of heap.
  const authors = new Map<string, CommentThread['author']>();
  const authorOf = (c: typeof catalogue.comments[number]) => {
    const key = JSON.stringify([c.author.displayName, c.author.username ?? null, c.author.avatarUrl ?? null]);
    let author = authors.get(key);
    if (!author) authors.set(key, (author = toAuthor(c, urls)));
    return author;
  };
  const repliesOf = new Map<string, Reply[]>();
  const topLevel = new Map<string, typeof catalogue.comments[number][]>();
  let n = 0;
  for (const c of catalogue.comments) {
    if (c.parentId === null) {
      const list = topLevel.get(c.videoId);
      if (list) list.push(c);
      else topLevel.set(c.videoId, [c]);
    } else {
      const list = repliesOf.get(c.parentId);
      const reply = toReply(c, urls, authorOf(c));
      if (list) list.push(reply);
      else repliesOf.set(c.parentId, [reply]);
    }
    if (++n % STEP_ITEMS === 0) yield;
  }
  const newestFirst = (a: { publishedAt: string; id: string }, b: { publishedAt: string; id: string }) =>
    (a.publishedAt < b.publishedAt ? 1 : a.publishedAt > b.publishedAt ? -1 : byId(a, b));
  const oldestFirst = (a: { publishedAt: string; id: string }, b: { publishedAt: string; id: string }) =>
    (a.publishedAt < b.publishedAt ? -1 : a.publishedAt > b.publishedAt ? 1 : byId(a, b));

  const entries: VideoEntry[] = new Array<VideoEntry>(catalogue.videos.length);
  for (let i = 0; i < catalogue.videos.length; i++) {
    const video = catalogue.videos[i]!;
    const creator = creators.get(video.channel);
    check(creator !== undefined, `video "${video.id}" names channel "${video.channel}", which does not exist`);
    const threads = (topLevel.get(video.id) ?? []).sort(newestFirst).map((c) =>
      toThread(c, (repliesOf.get(c.id) ?? []).sort(oldestFirst), urls, authorOf(c)));
    const commentCount = threads.reduce((sum, t) => sum + 1 + t.replyCount, 0);
    entries[i] = {
      index: i,
      video,
      // Not memoised as JSON: the build serialises most videos about twice, and holding a JSON copy
      // of every video and thread cost ~150 MB at 100,000 videos.
      resource: toVideo(video, creator, commentCount, urls),
      trending: derived.trending[i] ?? 0,
      related: derived.related[i] ?? [],
      durationClass: video.duration === undefined ? undefined : durationClass(video.duration),
      threads,
    };
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
