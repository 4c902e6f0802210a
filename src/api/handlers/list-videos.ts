// GET /v1/videos: public videos, every sort and filter (AND), cursor or offset paging. `q` matches
// through the search index (typo-tolerant, prefix-aware, src/search); with `q` and no `sort` the
// matches come best first, with a `sort` in that order.
import type { VideoEntry, VideoSort } from '../../model/build-model.ts';
import { searchIndexFor } from '../../search/index-for.ts';
import { searchKind } from '../../search/run-search.ts';
import { defineEndpoint, type Context } from '../endpoint.ts';
import { canonicalPage, paginate, readPageSpec, type PageSpec } from '../paging.ts';
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

export function selectVideos(context: Pick<Context, 'model' | 'search'>, f: Filters): readonly VideoEntry[] {
  const { model } = context;
  const keep = (e: VideoEntry) =>
    (f.category === undefined || e.video.category === f.category) &&
    (f.creator === undefined || e.video.channel === f.creator) &&
    (f.duration === undefined || e.durationClass === f.duration) &&
    (f.feature === undefined || e.video.features[f.feature]);
  const filtering = f.category !== undefined || f.creator !== undefined || f.duration !== undefined || f.feature !== undefined;
  if (f.q === undefined) {
    const base = model.orders[f.sort ?? 'latest'];
    return filtering ? base.filter(keep) : base;
  }
  const index = searchIndexFor(context);
  const ranking = searchKind(index, 'videos', f.q);
  let matches = matched.get(ranking);
  if (!matches) {
    const { keys } = index.videos;
    matched.set(ranking, (matches = Array.from(ranking.ids, (id) => model.videos.get(keys[id]!)!)));
  }
  if (f.sort === undefined) return filtering ? matches.filter(keep) : matches;
  const members = new Set(matches);
  return model.orders[f.sort].filter((e) => members.has(e) && keep(e));
}

/** The video entries of a ranking (rankings are cached per query, so this is too). */
const matched = new WeakMap<object, VideoEntry[]>();

export const listVideos = defineEndpoint<{ filters: Filters; page: PageSpec }>({
  name: 'list-videos',
  path: PATH,
  response: VideoPage,
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
    return paginate(selectVideos(context, filters), page, (e) => e.resource);
  },
});
