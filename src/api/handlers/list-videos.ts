// GET /v1/videos: public videos, every sort and filter (AND), cursor or offset paging. `q` matches
// through the search index (typo-tolerant, prefix-aware, src/search); with `q` and no `sort` the
// matches come best first, with a `sort` in that order.
import type { Model, VideoEntry, VideoSort } from '../../model/build-model.ts';
import { matchesFilters, rankPositions, selectPositions, type PositionList } from '../../model/list-index.ts';
import { runSteps, STEP_ITEMS, type Steps } from '../../model/steps.ts';
import { searchIndexFor } from '../search-index-for.ts';
import type { SearchIndex } from '../../search/search-index.ts';
import { searchKind } from '../../search/run-search.ts';
import { defineEndpoint, type Context } from '../endpoint.ts';
import { canonicalPage, paginatePositions, readPageSpec, type PageSpec } from '../paging.ts';
import { ListVideosQuery } from '../params.ts';
import { parseQuery } from '../query.ts';
import { VideoPage } from '../../model/schemas.ts';

const PATH = '/v1/videos';

interface Filters {
  readonly sort: VideoSort | undefined;
  readonly category: string | undefined;
  readonly creator: string | undefined;
  readonly duration: ListVideosQuery['duration'];
  readonly feature: ListVideosQuery['feature'];
  readonly q: string | undefined;
}

/** A list to page over: an array, or a view of an index or a search ranking that allocates nothing per match. */
export interface EntryList {
  readonly length: number;
  at(position: number): VideoEntry;
}

const ofArray = (entries: readonly VideoEntry[]): EntryList => ({ length: entries.length, at: (i) => entries[i]! });
const inOrder = (entries: readonly VideoEntry[], positions: PositionList): EntryList =>
  ({ length: positions.length, at: (i) => entries[positions.at(i)]! });

/** For one search index and model: each video document's position in `latest` (-1: not a public video). */
const aligned = new WeakMap<object, { model: Model; latestOf: Int32Array }>();

/**
 * Aligns a search index's video documents with a model (each one's position in `latest`), in steps
 * (a look-up a document: seconds at a million videos). The server does it as it loads a snapshot
 * (snapshot-store.ts), so that the first query with `q` does not stall every request behind it.
 */
export function* alignSearchInSteps(index: SearchIndex, model: Model): Steps<Int32Array> {
  const known = aligned.get(index.videos);
  if (known?.model === model) return known.latestOf;
  const ofEntry = model.lists.videos.latestOf;
  const keys = index.videos.keys;
  const latestOf = new Int32Array(keys.length);
  for (let d = 0; d < keys.length; d++) {
    const entry = model.videos.get(keys[d]!);
    latestOf[d] = entry === undefined ? -1 : ofEntry[entry.index]!;
    if (d % STEP_ITEMS === STEP_ITEMS - 1) yield;
  }
  aligned.set(index.videos, { model, latestOf });
  return latestOf;
}

/** Whether `alignSearchInSteps` has run for this index and model. */
export const isSearchAligned = (index: SearchIndex, model: Model): boolean => aligned.get(index.videos)?.model === model;

const latestPositions = (index: SearchIndex, model: Model): Int32Array => runSteps(alignSearchInSteps(index, model));

/**
 * The public videos passing `f`, in its order. Without `q` the list indexes answer (the page and
 * the rarest filter's count, never a walk of the videos); with `q`, the search's matches are
 * filtered and put in the sort's order by rank (model/list-index.ts).
 */
export function selectVideos(context: Pick<Context, 'model' | 'search'>, f: Filters): EntryList {
  const { model } = context;
  const lists = model.lists.videos;
  const filtering = f.category !== undefined || f.creator !== undefined || f.duration !== undefined || f.feature !== undefined;
  if (f.q === undefined) {
    const sort = f.sort ?? 'latest';
    return inOrder(model.orders[sort], selectPositions(lists, sort, f));
  }
  const index = searchIndexFor(context);
  const q = f.q;
  const latest = model.orders.latest;
  const latestOf = latestPositions(index, model);
  if (f.sort === undefined && !filtering) {
    // the best matches are cached; a page past them ranks every match, once per request
    let ranking = searchKind(index, 'videos', q);
    return {
      length: ranking.total,
      at(i) {
        if (i >= ranking.ids.length) ranking = searchKind(index, 'videos', q, Number.POSITIVE_INFINITY);
        const id = ranking.ids[i]!;
        return latest[latestOf[id]!] ?? model.videos.get(index.videos.keys[id]!)!;
      },
    };
  }
  const ranking = searchKind(index, 'videos', q, Number.POSITIVE_INFINITY);
  const keep = matchesFilters(lists, f);
  if (!keep) return ofArray([]);
  const matches = new Int32Array(ranking.ids.length);
  let n = 0;
  for (const id of ranking.ids) {
    const p = latestOf[id]!;
    if (p >= 0 && keep(p)) matches[n++] = p;
  }
  if (f.sort === undefined) return inOrder(latest, ofPositions(matches.subarray(0, n)));
  return inOrder(model.orders[f.sort], ofPositions(rankPositions(lists, f.sort, matches.subarray(0, n))));
}

const ofPositions = (positions: Int32Array): PositionList => ({ length: positions.length, at: (i) => positions[i]! });

export const listVideos = defineEndpoint<{ filters: Filters; page: PageSpec }>({
  name: 'list-videos',
  path: PATH,
  query: ListVideosQuery,
  response: VideoPage,
  docs: {
    summary: 'List videos',
    description: 'Public videos, newest first unless `sort` says otherwise, filtered by category, creator, duration class (short under 4 min, medium 4–20 min, long over 20 min), feature, or search text `q`. Page with `cursor` (from `paging.nextCursor` and the `Link` header) or `offset`.',
    tag: 'Videos',
  },
  cache: 'snapshot',
  parse(_path, search) {
    const q = parseQuery(ListVideosQuery, search);
    // Without q the default order is latest; with q and no sort, relevance.
    const filters: Filters = {
      sort: q.sort ?? (q.q === undefined ? 'latest' : undefined),
      category: q.category, creator: q.creator, duration: q.duration, feature: q.feature, q: q.q,
    };
    return { filters, page: readPageSpec(PATH, { ...filters }, q) };
  },
  canonical: ({ page }) => canonicalPage(page),
  handle({ filters, page }, context) {
    const list = selectVideos(context, filters);
    return paginatePositions(list.length, page, (i) => list.at(i).resource, (i, out) => list.at(i).writeJson(out));
  },
});
