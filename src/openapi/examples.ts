// Examples for the API description, taken from the demo catalogue: a small seeded catalogue (the
// same generator as `npm run seed`) built in memory into a model, and each endpoint's own handler
// run on a sample request. So every example is a real answer, and fits its schema by construction.
import { generateSeedRecords } from '../catalogue/seed-catalogue.ts';
import { openCatalogue } from '../catalogue/open-catalogue.ts';
import { readCatalogue } from '../catalogue/read-catalogue.ts';
import { createRecordWriter } from '../catalogue/write-records.ts';
import type { Context, Endpoint } from '../api/endpoint.ts';
import { runEndpoint } from '../api/respond.ts';
import { buildModel, deriveCatalogue, type Model } from '../model/build-model.ts';

/** The origin the examples' URLs are written for (the default PUBLIC_BASE_URL). */
export const EXAMPLE_BASE_URL = 'http://localhost:4321';
const DEMO = { videos: 120, seed: 42 } as const;
const enc = encodeURIComponent;

export function demoModel(): Model {
  const db = openCatalogue(':memory:');
  try {
    const write = createRecordWriter(db);
    db.transaction(() => {
      for (const record of generateSeedRecords(DEMO)) write(record);
    })();
    const catalogue = readCatalogue(db);
    return buildModel(catalogue, deriveCatalogue(catalogue), EXAMPLE_BASE_URL);
  } finally {
    db.close();
  }
}

/** A sample request of each endpoint on the demo model: path and query, as a client would send it. */
function sampleRequest(endpoint: Endpoint<any>, model: Model): string {
  const video = model.orders.latest.find((e) => e.video.sources.length > 1 && e.video.captions.length > 0 && e.threads.length > 0) ?? model.orders.latest[0]!;
  const channel = [...model.channels.values()].sort((a, b) => b.videos.length - a.videos.length)[0]!;
  const playlist = [...model.playlists.values()].find((p) => p.videos.length > 2) ?? [...model.playlists.values()][0]!;
  const path = endpoint.path
    .replace(':username', enc(channel.resource.username))
    .replace(':id', enc(endpoint.path.startsWith('/v1/playlists') ? playlist.resource.id : video.resource.id));
  const word = video.resource.title.split(/\s+/).find((w: string) => w.length > 4)?.toLowerCase() ?? 'video';
  const special: Record<string, string> = {
    'batch-videos': `ids=${enc(video.resource.id)},${enc(model.orders.latest[1]!.resource.id)},no-such-video`,
    search: `q=${enc(word)}&type=all&limit=2`,
    oembed: `url=${enc(video.resource.watchUrl)}&maxwidth=480`,
    'list-live': 'state=all&limit=2',
  };
  const query = special[endpoint.name] ?? ('limit' in endpoint.query.shape ? 'limit=2' : '');
  return query === '' ? path : `${path}?${query}`;
}

/** The demo answer of each endpoint (by name), with the request that produced it. */
export function demoAnswers(endpoints: readonly Endpoint<any>[], model: Model): Map<string, { request: string; status: number; body: unknown }> {
  const snapshot = { id: 'demo', videos: model.entries.length, pages: 0, loadedAt: '2026-11-01T00:00:00Z' };
  const at = snapshot.loadedAt;
  const context: Context = {
    model,
    snapshot,
    liveStreams: () => model.live,
    // a status as the server's own checks report it, at a fixed moment so the document is stable
    status: () => ({
      checkedAt: at,
      components: [
        { id: 'snapshot', name: 'Snapshot', status: 'operational', detail: 'Snapshot demo is loaded (built 4 minutes ago, from the current catalogue).' },
        { id: 'catalogue', name: 'Catalogue database', status: 'operational', detail: 'The catalogue database is readable.' },
        { id: 'search', name: 'Search index', status: 'operational', detail: 'The search index of the loaded snapshot is in memory.' },
        { id: 'errors', name: 'Server errors', status: 'operational', detail: 'No 5xx answers in the last 5 minutes.' },
        { id: 'event-loop', name: 'Event loop', status: 'degraded', detail: 'The event loop was delayed 180 ms at the 99th percentile in the last minute.' },
      ],
      since: { 'event-loop': at },
      alerts: [{ id: 'maintenance-2026-11', severity: 'info', title: 'Catalogue rebuild tonight', message: 'The catalogue is rebuilt at 02:00 UTC; answers stay available.', startsAt: at, components: ['snapshot'] }],
    }),
    request: {
      caller: { kind: 'app', appId: 'app_3kTqvY8w', appName: 'Demo app' },
      quota: { lane: 'key', limit: 1200, remaining: 1187, reset: 42, window: 60 },
      usage: () => [
        { appId: 'app_3kTqvY8w', day: '2026-10-31', endpoint: '/v1/videos', requests: 812 },
        { appId: 'app_3kTqvY8w', day: '2026-10-31', endpoint: '/v1/videos/{id}', requests: 240 },
        { appId: 'app_3kTqvY8w', day: '2026-11-01', endpoint: '/v1/search', requests: 95 },
      ],
    },
  };
  const answers = new Map<string, { request: string; status: number; body: unknown }>();
  for (const endpoint of endpoints) {
    const request = sampleRequest(endpoint, model);
    const url = new URL(request, EXAMPLE_BASE_URL);
    const actual = url.pathname.split('/');
    const path = Object.fromEntries(endpoint.path.split('/').flatMap((segment, i) => (segment.startsWith(':') ? [[segment.slice(1), decodeURIComponent(actual[i]!)]] : [])));
    const rendered = runEndpoint(endpoint, path, url, context);
    answers.set(endpoint.name, { request, status: rendered.status, body: JSON.parse(rendered.body.toString('utf8')) });
  }
  return answers;
}
