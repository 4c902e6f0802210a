// GET /v1/search: videos (default), channels, playlists or all of them matching `q`, best first,
// as `{ type, score, item }` (docs/api-contract.md §2). Public records only: the index holds nothing else.
// Channels carry isLive as of the request; scores are rounded to 4 decimals.
import { channelAsOf, liveNow } from '../../model/live.ts';
import { SEARCH_KINDS, type SearchKind } from '../../search/documents.ts';
import { searchIndexFor } from '../search-index-for.ts';
import { searchAll, searchKind } from '../../search/run-search.ts';
import type { SearchIndex } from '../../search/search-index.ts';
import type { KindIndex } from '../../search/kind-index.ts';
import type { Model, VideoEntry } from '../../model/build-model.ts';
import { defineEndpoint, type Context } from '../endpoint.ts';
import { canonicalPage, paginatePositions, readPageSpec, type PageSpec } from '../paging.ts';
import { SearchQuery } from '../params.ts';
import { parseQuery } from '../query.ts';
import { SearchPage, type SearchResult } from '../../model/schemas.ts';

const PATH = '/v1/search';
type SearchType = SearchKind | 'all';

const round = (score: number) => Math.round(score * 1e4) / 1e4;

/**
 * For one search index and model: each video document's position in the model's `latest` order
 * plus one (0: not looked up yet), filled as documents are found. A lookup by key in a million
 * videos' Map costs a microsecond or more of cache misses, and the best matches of common words
 * come back query after query; filled at once, the array would stall the first search for
 * seconds at a million videos.
 */
const positions = new WeakMap<KindIndex, { readonly model: Model; readonly latest: Int32Array }>();

function videoOf(index: KindIndex, id: number, model: Model): VideoEntry {
  let known = positions.get(index);
  if (known?.model !== model) positions.set(index, (known = { model, latest: new Int32Array(index.keys.length) }));
  const at = known.latest[id]!;
  if (at > 0) return model.orders.latest[at - 1]!;
  const entry = model.videos.get(index.keys[id]!)!;
  const position = model.lists.videos.latestOf[entry.index]!;
  if (model.orders.latest[position] === entry) known.latest[id] = position + 1;
  return entry;
}

function resultOf(index: SearchIndex, kind: SearchKind, id: number, score: number, context: Context, live: ReadonlySet<string>): SearchResult {
  const key = index[kind].keys[id]!;
  const { model } = context;
  if (kind === 'videos') return { type: 'video', score: round(score), item: videoOf(index.videos, id, model).resource };
  if (kind === 'channels') return { type: 'channel', score: round(score), item: channelAsOf(model.channels.get(key)!, live) };
  return { type: 'playlist', score: round(score), item: model.playlists.get(key)!.resource };
}

export const search = defineEndpoint<{ q: string; type: SearchType; page: PageSpec }>({
  name: 'search',
  path: PATH,
  query: SearchQuery,
  response: SearchPage,
  docs: {
    summary: 'Search',
    description: 'Videos (default), channels, playlists or all of them matching `q`: typo-tolerant and prefix-aware, title over tags over creator over description, best first, as `{type, score, item}`. Public records only.',
    tag: 'Search',
  },
  cache: 'live',
  parse(_path, params) {
    const query = parseQuery(SearchQuery, params);
    const type = query.type ?? 'videos';
    return { q: query.q, type, page: readPageSpec(PATH, { q: query.q, type }, query) };
  },
  canonical: ({ page }) => canonicalPage(page),
  handle({ q, type, page }, context) {
    const index = searchIndexFor(context);
    const live = liveNow(context.liveStreams());
    const depth = page.offset + page.limit;
    if (type === 'all') {
      let ranking = searchAll(index, q);
      if (depth > ranking.ids.length && ranking.ids.length < ranking.total) ranking = searchAll(index, q, depth);
      const r = ranking;
      return paginatePositions(r.total, page, (i) => resultOf(index, SEARCH_KINDS[r.kinds[i]!]!, r.ids[i]!, r.scores[i]!, context, live));
    }
    let ranking = searchKind(index, type, q);
    if (depth > ranking.ids.length && ranking.ids.length < ranking.total) ranking = searchKind(index, type, q, depth);
    const r = ranking;
    return paginatePositions(r.total, page, (i) => resultOf(index, type, r.ids[i]!, r.scores[i]!, context, live));
  },
});
