// GET /v1/live: channels live now (`state=live`, the default) or every channel with a live-stream
// record (`state=all`), read at request time, so a change of live state needs no rebuild.
import { liveChannels } from '../../model/live.ts';
import { defineEndpoint } from '../endpoint.ts';
import { canonicalPage, paginate, readPageSpec, type PageSpec } from '../paging.ts';
import { ListLiveQuery } from '../params.ts';
import { parseQuery } from '../query.ts';
import { LivePage } from '../../model/schemas.ts';

const PATH = '/v1/live';

export const listLive = defineEndpoint<{ state: 'live' | 'all'; page: PageSpec }>({
  name: 'list-live',
  path: PATH,
  query: ListLiveQuery,
  response: LivePage,
  docs: {
    summary: 'Live channels',
    description: 'Channels live now, most viewers first (`state=live`, the default), or every channel with a live stream record, live first (`state=all`). Read at request time.',
    tag: 'Live',
  },
  cache: 'live',
  parse(_path, search) {
    const q = parseQuery(ListLiveQuery, search);
    const state = q.state ?? 'live';
    return { state, page: readPageSpec(PATH, { state }, q) };
  },
  canonical: ({ page }) => canonicalPage(page),
  handle: ({ state, page }, { model, liveStreams }) => paginate(liveChannels(liveStreams(), state, model), page, (c) => c),
});
