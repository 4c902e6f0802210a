// Our node:http pipeline, one request (docs/architecture.md, "The flow"): CORS → Host check →
// method check → the built app's files → rate-limit lane and caller (API paths) → static pages from
// the snapshot → API endpoints, straight from the route table → Astro in middleware mode for
// on-demand routes → 404 problem. Each step is a function named for what it answers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context, StatusReport } from '../api/endpoint.ts';
import { health } from '../api/handlers/health.ts';
import { status } from '../api/handlers/status.ts';
import { ProblemError } from '../api/problems.ts';
import { renderProblem, runEndpoint, type ReadRequest, type Rendered } from '../api/respond.ts';
import { matchRoute } from '../api/routes.ts';
import { buildModel, type Model } from '../model/build-model.ts';
import { createUrls, type Urls } from '../model/urls.ts';
import { cacheTagHeaders } from '../cdn/cache-tags.ts';
import { ALLOWED_METHODS, CORS_HEADERS, PREFLIGHT_HEADERS } from '../http/cors.ts';
import { answerErrorPage, FRAME_ANYWHERE, isEmbedPath } from '../site/negotiate-errors.ts';
import { admitRequest, factsOf } from './admit-request.ts';
import { answersOf } from './answer-cache.ts';
import { serveClientAsset, type ClientAssets } from './client-assets.ts';
import type { Admission, Gate } from './gate.ts';
import type { LiveSource } from './live-source.ts';
import type { Partners } from './partners.ts';
import { readRequestUrl } from './request-url.ts';
import { send, sendAnswer } from './send-answer.ts';
import type { HealthMonitor } from './service-health.ts';
import type { SnapshotHolder } from './snapshot-holder.ts';
import type { Snapshot } from './snapshot-store.ts';
import { findPage, servePage } from './static-pages.ts';

/** Astro's middleware-mode handler: calls `next` when no on-demand route matches. */
export type AstroHandler = (req: IncomingMessage, res: ServerResponse, next: () => void, locals: object) => Promise<void>;

export interface ServerOptions {
  readonly baseUrl: string;
  readonly snapshots: SnapshotHolder;
  readonly astro: AstroHandler;
  /** the built app's static files: SDK, player script, sample media */
  readonly assets?: ClientAssets;
  /** live state at request time; without one, the snapshot's copy is served */
  readonly live?: LiveSource;
  /** rate-limit lanes and callers of API paths; without one, nothing is limited */
  readonly gate?: Gate;
  readonly partners?: Partners;
  /** counts every answer by status, for /v1/status */
  readonly monitor?: HealthMonitor;
  /** the service's self-checks for /v1/status */
  readonly status?: () => StatusReport;
  readonly log?: (message: string) => void;
  /** deadlines for a request's head and for the whole request, in ms (docs/reliability.md) */
  readonly timeouts?: { readonly headMs: number; readonly requestMs: number };
}

/**
 * What the method and Host alone decide; whether it answered. RFC 9112 §3.2: an HTTP/1.1 request
 * without Host is refused (node:http's own check, turned off so that this answer is a problem like
 * every other); a preflight gets the CORS rules; a method other than GET and HEAD is refused.
 */
function answerMethodAndHost(req: IncomingMessage, res: ServerResponse, instance: string, urls: Urls): boolean {
  if (req.headers.host === undefined && req.httpVersion === '1.1') {
    send(req, res, renderProblem(new ProblemError('bad-request', 'An HTTP/1.1 request must have a Host header.'), instance, urls), { connection: 'close' });
    return true;
  }
  if (req.method === 'OPTIONS') {
    res.writeHead(204, PREFLIGHT_HEADERS).end();
    return true;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    send(req, res, renderProblem(new ProblemError('method-not-allowed', `${req.method} is not allowed: this API is read-only (${ALLOWED_METHODS}).`), instance, urls), { allow: ALLOWED_METHODS });
    return true;
  }
  return false;
}

const isServiceCheck = (path: string) => path === '/v1/health' || path === '/v1/status';

/** Before any snapshot is loaded: health and status answer in their own shape, everything else is a 503 problem. */
function answerWithoutSnapshot(req: IncomingMessage, res: ServerResponse, url: URL, instance: string, options: ServerOptions, emptyModel: Model, urls: Urls): void {
  const context: Context = { model: emptyModel, snapshot: undefined, liveStreams: () => [], ...(options.status && { status: options.status }) };
  send(req, res, isServiceCheck(url.pathname)
    ? runEndpoint(url.pathname === '/v1/health' ? health : status, {}, url, context)
    : renderProblem(new ProblemError('service-unavailable', 'No catalogue snapshot is loaded yet: build one with npm run build.'), instance, urls),
  { 'retry-after': '5' });
}

/** The handlers' context for one request: the snapshot's model, live state now, the caller and its quota. */
function contextFor(snapshot: Snapshot, admission: Admission | undefined, options: ServerOptions): Context {
  const { model } = snapshot;
  const liveStreams = options.live ? () => options.live!.streams(model.live) : () => model.live;
  const request = admission && {
    caller: admission.caller,
    quota: admission.decision,
    usage: (appId: string) => options.partners?.usage(appId) ?? [],
  };
  return { model, snapshot: snapshot.info, liveStreams, request, search: snapshot.search, ...(options.status && { status: options.status }) };
}

export type Route = NonNullable<ReturnType<typeof matchRoute>>;

/**
 * The answer of an API endpoint, straight from the route table: the same handler and serialiser
 * the build uses, without the cost of going through Astro (a third of the time of a search
 * answer), from the snapshot's kept answers when asked before (answer-cache.ts). A kept answer is
 * remembered at the target as sent, where the fast path sends it from then on (fast-path.ts).
 * node:http and the fast path both answer with it.
 */
export type QueryAnswerer = (route: Route, url: URL, target: string, snapshot: Snapshot, admission: Admission | undefined, read?: ReadRequest) => Rendered;

export function createQueryAnswerer(options: ServerOptions): QueryAnswerer {
  return (route, url, target, snapshot, admission, read) => {
    const answers = answersOf(snapshot);
    const rendered = runEndpoint(route.endpoint, route.params, url, contextFor(snapshot, admission, options), answers, read);
    if (answers.holds(rendered) && target.startsWith('/')) answers.alias(target, rendered);
    return rendered;
  };
}

/** Astro's on-demand pages; a 404 when none matches (the site's HTML error page for a browser, src/site/negotiate-errors.ts). */
async function answerSitePage(req: IncomingMessage, res: ServerResponse, url: URL, instance: string, snapshot: Snapshot, context: Context, options: ServerOptions): Promise<void> {
  // HEAD is answered as GET by the pages; Node leaves the body out of the response itself.
  if (req.method === 'HEAD') req.method = 'GET';
  // the site's pages hand the browser a site pass (gate.ts; src/middleware.ts sets it on HTML)
  const locals: App.Locals = { context, ...(options.gate && { sitePass: () => options.gate!.passCookie(factsOf(req)) }) };
  let passed = false;
  await options.astro(req, res, () => { passed = true; }, locals);
  if (passed && !res.headersSent) {
    const problem = new ProblemError('not-found', `Nothing is at ${url.pathname}.`);
    if (await answerErrorPage(req, res, problem, instance, options.astro, locals)) return;
    // a player path's answers, errors included, may be framed anywhere (docs/embeds.md)
    send(req, res, renderProblem(problem, instance, snapshot.model.urls), isEmbedPath(url.pathname) ? { 'content-security-policy': FRAME_ANYWHERE } : {});
  }
}

/** The API endpoint a URL names (its route), if any. */
export const apiRouteOf = (url: URL): Route | undefined =>
  url.pathname.startsWith('/v1/') || url.pathname === '/oembed' ? matchRoute(url.pathname) : undefined;

/** The pipeline's answer to one request. */
export function createRequestHandler(options: ServerOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const emptyModel = buildModel({ categories: [], channels: [], videos: [], playlists: [], comments: [], live: [] }, { trending: [], related: [] }, options.baseUrl);
  const urls = createUrls(options.baseUrl);
  const answerQuery = createQueryAnswerer(options);

  return async function handle(req, res) {
    const rawUrl = req.url ?? '/';
    for (const [name, value] of Object.entries(CORS_HEADERS)) res.setHeader(name, value);
    const instance = rawUrl.slice(0, 2000);
    if (answerMethodAndHost(req, res, instance, urls)) return;
    const url = readRequestUrl(req);
    if (!url) {
      send(req, res, renderProblem(new ProblemError('not-found', 'The request target is not a valid path.'), instance, urls));
      return;
    }

    const asset = options.assets?.get(url.pathname);
    if (asset) {
      serveClientAsset(req, res, asset, (problem) => renderProblem(problem, instance, urls));
      return;
    }

    const admitting = admitRequest(req, res, url, options.gate, options.partners);
    const admission = admitting instanceof Promise ? await admitting : admitting;
    if (admission && !admission.decision.allowed) {
      send(req, res, options.gate!.refusal(admission, instance, urls));
      return;
    }

    const snapshot = options.snapshots.current;
    if (!snapshot) {
      answerWithoutSnapshot(req, res, url, instance, options, emptyModel, urls);
      return;
    }

    const page = findPage(snapshot, req.url ?? '', url);
    if (page) {
      // what it holds, for a CDN's purge by tag (src/cdn/cache-tags.ts)
      for (const [name, value] of cacheTagHeaders(req.url ?? '/')) res.setHeader(name, value);
      servePage(req, res, snapshot, page);
      return;
    }

    if (!snapshot.complete && !isServiceCheck(url.pathname)) {
      // start-up: the snapshot's pages are served before its model is loaded (snapshot-holder.ts)
      send(req, res, renderProblem(new ProblemError('service-unavailable', 'The catalogue is still loading: prerendered pages are served already, other queries in a few seconds.'), instance, urls), { 'retry-after': '2' });
      return;
    }
    const route = apiRouteOf(url);
    if (route) sendAnswer(req, res, answerQuery(route, url, rawUrl, snapshot, admission), answersOf(snapshot));
    else await answerSitePage(req, res, url, instance, snapshot, contextFor(snapshot, admission, options), options);
  };
}
