// Examples for the API description, taken from the demo catalogue: the catalogue `npm start` seeds
// (the same generator and options, DEFAULT_SEED_OPTIONS) built in memory into a model, and each
// endpoint's own handler run on a sample request. So every example is a real answer that the demo
// serves too, and fits its schema by construction; problems are real refusals of the same code.
import { DEFAULT_SEED_OPTIONS, generateSeedRecords } from '../catalogue/seed-catalogue.ts';
import { openCatalogue } from '../catalogue/open-catalogue.ts';
import { readCatalogue } from '../catalogue/read-catalogue.ts';
import { createRecordWriter } from '../catalogue/write-records.ts';
import type { Context, Endpoint } from '../api/endpoint.ts';
import type { ProblemSlug } from '../api/problems.ts';
import { runEndpoint } from '../api/respond.ts';
import { loadConfig } from '../config.ts';
import { buildModel, deriveCatalogue, type Model } from '../model/build-model.ts';
import { createGate } from '../server/gate.ts';
import { RateLimiter, rateLimitHeaders } from '../server/rate-limit.ts';

/** The origin the examples' URLs are written for (the default PUBLIC_BASE_URL). */
export const EXAMPLE_BASE_URL = loadConfig({}).publicBaseUrl;
const enc = encodeURIComponent;

let demo: Model | undefined;

/** The model of the demo catalogue (built once per process: about 2 s). */
export function demoModel(): Model {
  if (demo) return demo;
  const db = openCatalogue(':memory:');
  try {
    const write = createRecordWriter(db);
    db.transaction(() => {
      for (const record of generateSeedRecords(DEFAULT_SEED_OPTIONS)) write(record);
    })();
    const catalogue = readCatalogue(db);
    return (demo = buildModel(catalogue, deriveCatalogue(catalogue), EXAMPLE_BASE_URL));
  } finally {
    db.close();
  }
}

/**
 * A sample request of an endpoint on a model: path and query, as a client would send it. The /docs
 * page runs it on the catalogue it serves, so its examples answer there whatever the catalogue.
 */
export function sampleRequest(endpoint: Endpoint<any>, model: Model): string {
  const video = model.orders.latest.find((e) => e.video.sources.length > 1 && e.video.captions.length > 0 && e.storedThreads.length > 0) ?? model.orders.latest[0]!;
  const channel = [...model.channels.values()].sort((a, b) => b.videos.length - a.videos.length)[0]!;
  const playlist = [...model.playlists.values()].find((p) => p.videos.length > 2) ?? [...model.playlists.values()][0]!;
  const path = endpoint.path
    .replace(':username', enc(channel.resource.username))
    .replace(/^\/v1\/playlists\/:id/, `/v1/playlists/${enc(playlist.resource.id)}`)
    .replace(':id', enc(video.resource.id));
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

export interface DemoAnswer {
  readonly request: string;
  readonly status: number;
  readonly body: unknown;
}

/** A context like the server's, on the demo model, at a fixed moment so the document is stable. */
function demoContext(model: Model): Context {
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
  return context;
}

/** The answer of `endpoint` to `request` (path and query) in `context`. */
export function answerOf(endpoint: Endpoint<any>, request: string, context: Context): DemoAnswer {
  const url = new URL(request, context.model.urls.base);
  const actual = url.pathname.split('/');
  const path = Object.fromEntries(endpoint.path.split('/').flatMap((segment, i) => (segment.startsWith(':') ? [[segment.slice(1), decodeURIComponent(actual[i]!)]] : [])));
  const rendered = runEndpoint(endpoint, path, url, context);
  return { request, status: rendered.status, body: JSON.parse(rendered.body.toString('utf8')) };
}

/** The demo answer of each endpoint (by name), with the request that produced it. */
export function demoAnswers(endpoints: readonly Endpoint<any>[], model: Model): Map<string, DemoAnswer> {
  const context = demoContext(model);
  return new Map(endpoints.map((endpoint) => [endpoint.name, answerOf(endpoint, sampleRequest(endpoint, model), context)]));
}

/**
 * A real problem document of each type the description shows an example of: the refusal the code
 * itself gives to a request that earns it (a bad limit, an unknown id, no key, format=xml, one
 * request over the default public budget).
 */
export function demoProblems(endpoints: readonly Endpoint<any>[], model: Model): Map<ProblemSlug, DemoAnswer> {
  const byName = new Map(endpoints.map((e) => [e.name, e]));
  const anonymous: Context = { ...demoContext(model), request: { caller: { kind: 'anonymous' }, quota: undefined, usage: () => [] } };
  const video = model.orders.latest[0]!.resource.id;
  const refusals: [ProblemSlug, string, string][] = [
    ['invalid-parameter', 'list-videos', `/v1/videos?limit=${500}`],
    ['not-found', 'get-video', '/v1/videos/no-such-video'],
    ['api-key-required', 'partner', '/v1/partner'],
    ['not-implemented', 'oembed', `/oembed?id=${enc(video)}&format=xml`],
  ];
  const out = new Map<ProblemSlug, DemoAnswer>();
  for (const [slug, name, request] of refusals) {
    const endpoint = byName.get(name);
    if (endpoint) out.set(slug, answerOf(endpoint, request, anonymous));
  }
  const limiter = new RateLimiter(loadConfig({}).rateLimits, { now: () => 0 });
  let decision = limiter.take('public', '192.0.2.1');
  while (decision.allowed) decision = limiter.take('public', '192.0.2.1');
  const refused = createGate({ limiter, siteOrigin: undefined, trustProxy: false })
    .refusal({ decision, headers: rateLimitHeaders(decision) } as Parameters<ReturnType<typeof createGate>['refusal']>[0], '/v1/videos', model.urls);
  out.set('rate-limited', { request: '/v1/videos', status: refused.status, body: JSON.parse(refused.body.toString('utf8')) });
  return out;
}
