// GET /v1/videos: public videos, every sort and filter (AND), cursor or offset paging. `q` matches
// through the search index (typo-tolerant, prefix-aware, src/search); with `q` and no `sort` the
// matches come best first, with a `sort` in that order.
import type { VideoEntry, VideoSort } from '../../model/build-model.ts';
import { searchIndexFor } from '../../search/index-for.ts';
import { searchKind } from '../../search/run-search.ts';
import { defineEndpoint, type Context } from '../endpoint.ts';
import { canonicalPage, paginatePositions, readPageSpec, type PageSpec } from '../paging.ts';
import { ListVideosQuery } from '../params.ts';
import { parseQuery } from '../query.ts';
import { VideoPage } from '../schemas.ts';

const PATH = '/v1/videos';

interface Filters {
  readonly sort: VideoSort | undefined;
  readonly category: string | undefined;
  readonly creator: string | undefined;
  readonly duration: 'short' | 'medium' | 'long' | undefined;
  readonly feature: '3d' | 'calm' | 'restricted' | 'captions' | undefined;
  readonly q: string | undefined;
}

/** A list to page over: an array, or a view of a search ranking that allocates nothing per match. */
export interface EntryList {
  readonly length: number;
  at(position: number): VideoEntry;
}

const ofArray = (entries: readonly VideoEntry[]): EntryList => ({ length: entries.length, at: (i) => entries[i]! });

/** Video entries by search document id, and document ids by video id, for one index and model. */
const aligned = new WeakMap<object, { entries: VideoEntry[]; docOf: Map<string, number> }>();

export function selectVideos(context: Pick<Context, 'model' | 'search'>, f: Filters): EntryList {
  const { model } = context;
  const keep = (e: VideoEntry) =>
    (f.category === undefined || e.video.category === f.category) &&
    (f.creator === undefined || e.video.channel === f.creator) &&
    (f.duration === undefined || e.durationClass === f.duration) &&
    (f.feature === undefined || e.video.features[f.feature]);
  const filtering = f.category !== undefined || f.creator !== undefined || f.duration !== undefined || f.feature !== undefined;
  if (f.q === undefined) {
    const base = model.orders[f.sort ?? 'latest'];
    return ofArray(filtering ? base.filter(keep) : base);
  }
  const index = searchIndexFor(context);
  let docs = aligned.get(index.videos);
  if (!docs) {
    const keys = index.videos.keys;
    aligned.set(index.videos, (docs = { entries: keys.map((k) => model.videos.get(k)!), docOf: new Map(keys.map((k, i) => [k, i])) }));
  }
  const { entries, docOf } = docs;
  const q = f.q;
  if (f.sort === undefined && !filtering) {
    // the best matches are cached; a page past them ranks every match, once per request
    let ranking = searchKind(index, 'videos', q);
    return {
      length: ranking.total,
      at(i) {
        if (i >= ranking.ids.length) ranking = searchKind(index, 'videos', q, Number.POSITIVE_INFINITY);
        return entries[ranking.ids[i]!]!;
      },
    };
  }
  const ranking = searchKind(index, 'videos', q, Number.POSITIVE_INFINITY);
  if (f.sort === undefined) return ofArray(Array.from(ranking.ids, (id) => entries[id]!).filter(keep));
  const member = new Uint8Array(entries.length);
  for (const id of ranking.ids) member[id] = 1;
  return ofArray(model.orders[f.sort].filter((e) => member[docOf.get(e.video.id)!] === 1 && keep(e)));
}

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
    return paginatePositions(list.length, page, (i) => list.at(i).resource);
  },
});
