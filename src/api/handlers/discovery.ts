// GET /v1/discovery: the five shelves of the home page, in order (docs/api-contract.md §2). The video shelves
// and categories come from the snapshot; the live shelf is read at request time, like /v1/live.
import type { VideoEntry } from '../../model/build-model.ts';
import { liveChannels } from '../../model/live.ts';
import { defineEndpoint } from '../endpoint.ts';
import { NoQuery } from '../params.ts';
import { parseQuery } from '../query.ts';
import { DiscoveryResponse, type Discovery, type Video } from '../../model/schemas.ts';

export const SHELF_SIZE = 12;

function firstOf(entries: readonly VideoEntry[], keep: (e: VideoEntry) => boolean = () => true): Video[] {
  const shelf: Video[] = [];
  for (const entry of entries) {
    if (shelf.length === SHELF_SIZE) break;
    if (keep(entry)) shelf.push(entry.resource);
  }
  return shelf;
}

const hasFeature = (e: VideoEntry) => Object.values(e.video.features).some(Boolean);

export const discovery = defineEndpoint<Record<string, never>>({
  name: 'discovery',
  path: '/v1/discovery',
  query: NoQuery,
  response: DiscoveryResponse,
  docs: {
    summary: 'Discovery shelves',
    description: "The home page's shelves, in order: latest, trending, feature-ready (videos with at least one feature), categories, and live (as of the request).",
    tag: 'Discovery',
  },
  cache: 'live',
  parse(_path, search) {
    parseQuery(NoQuery, search);
    return {};
  },
  canonical: () => '/v1/discovery',
  handle(_params, { model, liveStreams }) {
    const data: Discovery = {
      shelves: [
        { id: 'latest', title: 'Latest videos', items: firstOf(model.orders.latest) },
        { id: 'trending', title: 'Trending', items: firstOf(model.orders.trending) },
        { id: 'feature-ready', title: 'Feature-ready: 3D, calm audio, restricted mode or captions', items: firstOf(model.orders.trending, hasFeature) },
        { id: 'categories', title: 'Categories', items: [...model.categories] },
        { id: 'live', title: 'Live now', items: liveChannels(liveStreams(), 'live', model).slice(0, SHELF_SIZE) },
      ],
    };
    return { body: { data } };
  },
});
