// Which canonical queries the build prerenders (docs/api-contract.md §8): every cursor page of the default
// video list, the first pages of the other sorts and of each single filter, every video with its
// playback and first page of comments, the categories, every playlist, and every page of each
// channel's and playlist's lists. Everything else (other queries, and answers that carry live
// state: channels, discovery, live) is answered on demand by the same handlers. Each plan item is
// a URL; following `next` links yields the cursor chain.
import { DEFAULT_LIMIT, DurationFilter, FeatureFilter } from '../api/params.ts';
import { canonicalUrl } from '../api/query.ts';
import { VIDEO_SORTS, type Model } from '../model/build-model.ts';
import { videoGroup } from './page-inputs.ts';

export interface PlannedQuery {
  readonly url: string;
  /** how many pages of its cursor chain to prerender, following `next` links */
  readonly pages: number;
  /** the group of pages it belongs to, when they are rendered from declared inputs only (page-inputs.ts) */
  readonly group?: string;
  /** the video's entry's place in the model (model.entries), for a video's pages: its key is looked up by it (render-pages.ts) */
  readonly video?: number;
  /** a list of videos, channels or playlists: each of its pages holds a page of them (the build's time left weighs it so) */
  readonly list?: true;
}

/** How many pages of the non-default sorts are prerendered; the rest is on demand. */
export const PRERENDERED_SORT_PAGES = 10;

export function* planPages(model: Model): Generator<PlannedQuery> {
  const limit = DEFAULT_LIMIT;
  yield { url: '/v1/categories', pages: 1 };
  yield { url: canonicalUrl('/v1/videos', { limit, sort: 'latest' }), pages: Number.POSITIVE_INFINITY, list: true };
  for (const sort of VIDEO_SORTS) {
    if (sort !== 'latest') yield { url: canonicalUrl('/v1/videos', { limit, sort }), pages: PRERENDERED_SORT_PAGES, list: true };
    for (const category of model.categories) yield { url: canonicalUrl('/v1/videos', { category: category.id, limit, sort }), pages: 1, list: true };
    for (const duration of DurationFilter.options) yield { url: canonicalUrl('/v1/videos', { duration, limit, sort }), pages: 1, list: true };
    for (const feature of FeatureFilter.options) yield { url: canonicalUrl('/v1/videos', { feature, limit, sort }), pages: 1, list: true };
  }
  for (const username of [...model.channels.keys()].sort()) {
    const path = `/v1/channels/${encodeURIComponent(username)}`;
    yield { url: canonicalUrl(`${path}/videos`, { limit }), pages: Number.POSITIVE_INFINITY, list: true };
    yield { url: canonicalUrl(`${path}/playlists`, { limit }), pages: Number.POSITIVE_INFINITY, list: true };
  }
  for (const id of [...model.playlists.keys()].sort()) {
    const path = `/v1/playlists/${encodeURIComponent(id)}`;
    yield { url: path, pages: 1 };
    yield { url: canonicalUrl(`${path}/videos`, { limit }), pages: Number.POSITIVE_INFINITY, list: true };
  }
  // the comments' query is the same for every video: made once (canonicalUrl appends it to the path)
  const commentsQuery = canonicalUrl('', { limit });
  for (const id of [...model.videos.keys()].sort()) {
    const path = videoPath(id);
    const group = videoGroup(id);
    const video = model.videos.get(id)!.index;
    yield { url: path, pages: 1, group, video };
    yield { url: `${path}/playback`, pages: 1, group, video };
    yield { url: `${path}/comments${commentsQuery}`, pages: 1, group, video };
  }
}

/** The path of a video's own page (its shard is that of its `/playback` and `/comments` too: page-shards.ts). */
export const videoPath = (id: string): string => `/v1/videos/${encodeURIComponent(id)}`;

/**
 * About how many pages the plan renders, for the progress of a build with no snapshot to compare
 * with: each cursor chain by its list's length, every other item by its count.
 */
export function estimatePages(model: Model): number {
  const chain = (length: number) => Math.max(1, Math.ceil(length / DEFAULT_LIMIT));
  let pages = chain(model.videos.size);
  for (const planned of planPages(model)) if (Number.isFinite(planned.pages)) pages += Math.min(planned.pages, chain(model.videos.size));
  for (const channel of model.channels.values()) pages += chain(channel.videos.length) + chain(channel.playlists.length);
  for (const playlist of model.playlists.values()) pages += chain(playlist.videos.length);
  return pages;
}

/**
 * How many of `pages` (the served snapshot's count, or estimatePages) are pages of a list: all but
 * the plan's single pages that are not, the categories, each playlist's own page and each video's
 * three (planPages above; counted without walking the plan, which makes a URL a video).
 */
export const estimateListPages = (model: Model, pages: number): number =>
  Math.max(0, pages - 1 - model.playlists.size - 3 * model.videos.size);
