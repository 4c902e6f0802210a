// GET /v1/channels: every channel, by subscribers (default), views or videos, highest first.
// `q` keeps the channels the search index matches on username, display name or description
// (typo-tolerant, prefix-aware); the order stays the sort's, whose default applies with `q` too.
// Channels carry `isLive` as of the request, so the answer is not prerendered.
import type { ChannelEntry, ChannelSort } from '../../model/build-channels.ts';
import { rankChannels } from '../../model/list-index.ts';
import { channelAsOf, liveNow } from '../../model/live.ts';
import { searchIndexFor } from '../search-index-for.ts';
import { searchKind } from '../../search/run-search.ts';
import { defineEndpoint, type Context } from '../endpoint.ts';
import { canonicalPage, paginate, readPageSpec, type PageSpec } from '../paging.ts';
import { ListChannelsQuery } from '../params.ts';
import { parseQuery } from '../query.ts';
import { ChannelPage } from '../../model/schemas.ts';

const PATH = '/v1/channels';

interface Filters {
  readonly sort: ChannelSort;
  readonly q: string | undefined;
}

/** The channels to list, in the sort's order; with `q`, the matches put in that order by rank (model/list-index.ts). */
export function selectChannels(context: Pick<Context, 'model' | 'search'>, f: Filters): readonly ChannelEntry[] {
  const ordered = context.model.channelOrders[f.sort];
  if (f.q === undefined) return ordered;
  const index = searchIndexFor(context);
  const usernames = Array.from(searchKind(index, 'channels', f.q, Number.POSITIVE_INFINITY).ids, (id) => index.channels.keys[id]!);
  return Array.from(rankChannels(context.model.lists.channels, f.sort, new Set(usernames)), (position) => ordered[position]!);
}

export const listChannels = defineEndpoint<{ filters: Filters; page: PageSpec }>({
  name: 'list-channels',
  path: PATH,
  query: ListChannelsQuery,
  response: ChannelPage,
  docs: {
    summary: 'List channels',
    description: 'Public channels, most subscribed first unless `sort` says otherwise; `q` filters by search.',
    tag: 'Channels',
  },
  cache: 'live',
  parse(_path, search) {
    const q = parseQuery(ListChannelsQuery, search);
    const filters: Filters = { sort: q.sort ?? 'subscribers', q: q.q };
    return { filters, page: readPageSpec(PATH, { ...filters }, q) };
  },
  canonical: ({ page }) => canonicalPage(page),
  handle({ filters, page }, context) {
    const live = liveNow(context.liveStreams());
    return paginate(selectChannels(context, filters), page, (e) => channelAsOf(e, live));
  },
});
