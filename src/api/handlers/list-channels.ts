// GET /v1/channels: every channel, by subscribers (default), views or videos, highest first.
// `q` keeps the channels whose username, display name or description contains every word
// (case-insensitive); the order stays the sort's, whose default applies with `q` too. Channels
// carry `isLive` as of the request, so the answer is not prerendered.
import type { ChannelEntry, ChannelSort } from '../../model/build-channels.ts';
import type { Model } from '../../model/build-model.ts';
import { channelAsOf, liveNow } from '../../model/live.ts';
import { defineEndpoint } from '../endpoint.ts';
import { canonicalPage, paginate, readPageSpec, type PageSpec } from '../paging.ts';
import { ListChannelsQuery } from '../params.ts';
import { parseQuery } from '../query.ts';
import { ChannelPage } from '../schemas.ts';

const PATH = '/v1/channels';

interface Filters {
  readonly sort: ChannelSort;
  readonly q: string | undefined;
}

const texts = new WeakMap<ChannelEntry, string>();

function textOf(entry: ChannelEntry): string {
  let text = texts.get(entry);
  if (text === undefined) {
    const { username, displayName, description } = entry.channel;
    text = `${username}\n${displayName}\n${description}`.toLowerCase();
    texts.set(entry, text);
  }
  return text;
}

export function selectChannels(model: Model, f: Filters): readonly ChannelEntry[] {
  const ordered = model.channelOrders[f.sort];
  if (f.q === undefined) return ordered;
  const words = [...new Set(f.q.toLowerCase().split(/\s+/).filter(Boolean))];
  return ordered.filter((entry) => words.every((w) => textOf(entry).includes(w)));
}

export const listChannels = defineEndpoint<{ filters: Filters; page: PageSpec }>({
  name: 'list-channels',
  path: PATH,
  response: ChannelPage,
  cache: 'live',
  parse(_path, search) {
    const q = parseQuery(ListChannelsQuery, search);
    const filters: Filters = { sort: q.sort ?? 'subscribers', q: q.q };
    return { filters, page: readPageSpec(PATH, { ...filters }, q) };
  },
  canonical: ({ page }) => canonicalPage(page),
  handle({ filters, page }, { model, liveStreams }) {
    const live = liveNow(liveStreams());
    return paginate(selectChannels(model, filters), page, (e) => channelAsOf(e, live));
  },
});
