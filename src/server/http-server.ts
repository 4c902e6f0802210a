// Our node:http pipeline (docs/architecture.md, "The flow"): CORS → Host check → method check → rate-limit
// lane and caller (API paths) → static pages from the snapshot → Astro in middleware mode for
// on-demand routes → 404 problem. What node:http would answer bare or not at all — a head it cannot
// read, a head or body past its deadline, CONNECT, an unknown Expect — is a problem too
// (socket-problems.ts, docs/reliability.md "HTTP front").
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Context, StatusReport } from '../api/endpoint.ts';
import { health } from '../api/handlers/health.ts';
import { status } from '../api/handlers/status.ts';
import { ProblemError } from '../api/problems.ts';
import { renderProblem, runEndpoint, type Rendered } from '../api/respond.ts';
import { buildModel } from '../model/build-model.ts';
import { createUrls } from '../model/urls.ts';
import { matchRoute } from '../api/routes.ts';
import { answersOf, chooseKeptVariant, type AnswerCache } from './answer-cache.ts';
import { matchesIfNoneMatch } from '../http/etag.ts';
import { serveClientAsset, type ClientAssets } from './client-assets.ts';
import { ALLOWED_METHODS, CORS_HEADERS, PREFLIGHT_HEADERS } from '../http/cors.ts';
import { answerAndClose, asksForHead, clientErrorProblem, instanceOf, isClosing } from './socket-problems.ts';
import type { Admission, Gate, RequestFacts } from './gate.ts';
import type { LiveSource } from './live-source.ts';
import type { Partners } from './partners.ts';
import type { HealthMonitor } from './service-health.ts';
import { sweepPeriodOf } from './connection-guard.ts';
import type { SnapshotHolder } from './snapshot-holder.ts';
import { negotiateRendered } from '../http/negotiate.ts';
import { findPage, servePage } from './static-pages.ts';
import { answerErrorPage } from '../site/negotiate-errors.ts';
import { cacheTagHeaders } from '../cdn/cache-tags.ts';

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

/** node:http's own: a socket's `_httpMessage` is the response in flight on it. */
type HttpSocket = Socket & { _httpMessage?: { headersSent?: boolean } | null };

function send(req: IncomingMessage, res: ServerResponse, rendered: Rendered, extra: Record<string, string> = {}): void {
  res.writeHead(rendered.status, { ...rendered.headers, ...extra, 'content-length': rendered.body.length });
  res.end(req.method === 'HEAD' ? undefined : rendered.body);
}

/**
 * An endpoint's answer with conditional GET and on-demand compression (as toResponse does for
 * Astro); a kept answer with the variants and header sets it keeps (answer-cache.ts), the same bytes.
 */
function sendAnswer(req: IncomingMessage, res: ServerResponse, rendered: Rendered, answers: AnswerCache): void {
  const header = (name: string) => { const v = req.headers[name]; return Array.isArray(v) ? v.join(', ') : v; };
  if (answers.holds(rendered)) {
    const { encoding, body, etag } = chooseKeptVariant(answers, rendered, header('accept-encoding'));
    const notModified = matchesIfNoneMatch(header('if-none-match'), etag);
    res.writeHead(notModified ? 304 : 200, answers.headers(rendered, encoding, notModified).flat as string[]);
    res.end(req.method === 'HEAD' || notModified ? undefined : body);
    return;
  }
  const out = negotiateRendered(rendered, header('accept-encoding'), header('if-none-match'));
  res.writeHead(out.status, out.headers);
  res.end(req.method === 'HEAD' ? undefined : out.body);
}

export function createApiServer(options: ServerOptions): Server {
  const log = options.log ?? ((m: string) => console.log(m));
  const emptyModel = buildModel({ categories: [], channels: [], videos: [], playlists: [], comments: [], live: [] }, { trending: [], related: [] }, options.baseUrl);
  const urls = createUrls(options.baseUrl);

  const factsOf = (req: IncomingMessage): RequestFacts => {
    const header = (name: string) => { const v = req.headers[name]; return Array.isArray(v) ? v.join(', ') : v; };
    return {
      remoteAddress: req.socket.remoteAddress, forwardedFor: header('x-forwarded-for'),
      origin: header('origin'), referer: header('referer'), authorization: header('authorization'), cookie: header('cookie'),
    };
  };

  /**
   * Counts an API request against its lane (and its app's usage); sets the rate-limit headers. In
   * the same turn unless a key must be looked up (a request is never held up without need).
   */
  function admit(req: IncomingMessage, res: ServerResponse, url: URL): Admission | undefined | Promise<Admission> {
    const gate = options.gate;
    if (!gate || !gate.limits(url.pathname)) return undefined;
    const admitted = gate.admitFresh(factsOf(req));
    return admitted instanceof Promise ? admitted.then((a) => settle(res, url, a)) : settle(res, url, admitted);
  }

  function settle(res: ServerResponse, url: URL, admission: Admission): Admission {
    for (const [name, value] of Object.entries(admission.headers)) res.setHeader(name, value);
    if (admission.caller.kind === 'app') {
      const route = matchRoute(url.pathname);
      options.partners?.count(admission.caller.appId, route ? route.endpoint.path.replace(/:(\w+)/g, '{$1}') : 'other');
    }
    return admission;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawUrl = req.url ?? '/';
    for (const [name, value] of Object.entries(CORS_HEADERS)) res.setHeader(name, value);
    const instance = rawUrl.slice(0, 2000);

    // RFC 9112 §3.2: an HTTP/1.1 request without Host is refused (node:http's own check, turned
    // off so that this answer is a problem like every other).
    if (req.headers.host === undefined && req.httpVersion === '1.1') {
      send(req, res, renderProblem(new ProblemError('bad-request', 'An HTTP/1.1 request must have a Host header.'), instance, urls), { connection: 'close' });
      return;
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(204, PREFLIGHT_HEADERS).end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(req, res, renderProblem(new ProblemError('method-not-allowed', `${req.method} is not allowed: this API is read-only (${ALLOWED_METHODS}).`), instance, urls), { allow: ALLOWED_METHODS });
      return;
    }
    let url: URL;
    try {
      if (!rawUrl.startsWith('/')) {
        // Absolute form (RFC 9112 §3.2.2), as some proxies send it: serve its path and query.
        const absolute = new URL(rawUrl);
        if (!/^https?:$/.test(absolute.protocol)) throw new TypeError('not an http(s) target');
        req.url = absolute.pathname + absolute.search;
      }
      // Joined, not resolved: a target like `//v1/x` is a path here, not a host.
      url = new URL(`http://origin.invalid${req.url ?? '/'}`);
    } catch {
      send(req, res, renderProblem(new ProblemError('not-found', 'The request target is not a valid path.'), instance, urls));
      return;
    }

    const asset = options.assets?.get(url.pathname);
    if (asset) {
      serveClientAsset(req, res, asset, (problem) => renderProblem(problem, instance, urls));
      return;
    }

    const admitting = admit(req, res, url);
    const admission = admitting instanceof Promise ? await admitting : admitting;
    if (admission && !admission.decision.allowed) {
      send(req, res, options.gate!.refusal(admission, instance, urls));
      return;
    }

    const snapshot = options.snapshots.current;
    if (!snapshot) {
      const context: Context = { model: emptyModel, snapshot: undefined, liveStreams: () => [], ...(options.status && { status: options.status }) };
      send(req, res, url.pathname === '/v1/health' || url.pathname === '/v1/status'
        ? runEndpoint(url.pathname === '/v1/health' ? health : status, {}, url, context)
        : renderProblem(new ProblemError('service-unavailable', 'No catalogue snapshot is loaded yet: build one with npm run build.'), instance, urls),
      { 'retry-after': '5' });
      return;
    }

    const page = findPage(snapshot, req.url ?? '', url);
    if (page) {
      // what it holds, for a CDN's purge by tag (src/cdn/cache-tags.ts)
      for (const [name, value] of cacheTagHeaders(req.url ?? '/')) res.setHeader(name, value);
      servePage(req, res, snapshot, page);
      return;
    }

    if (!snapshot.complete && url.pathname !== '/v1/health' && url.pathname !== '/v1/status') {
      // start-up: the snapshot's pages are served before its model is loaded (snapshot-holder.ts)
      send(req, res, renderProblem(new ProblemError('service-unavailable', 'The catalogue is still loading: prerendered pages are served already, other queries in a few seconds.'), instance, urls), { 'retry-after': '2' });
      return;
    }
    const { model } = snapshot;
    const liveStreams = options.live ? () => options.live!.streams(model.live) : () => model.live;
    const request = admission && {
      caller: admission.caller,
      quota: admission.decision,
      usage: (appId: string) => options.partners?.usage(appId) ?? [],
    };
    const context: Context = { model, snapshot: snapshot.info, liveStreams, request, search: snapshot.search, ...(options.status && { status: options.status }) };

    // API endpoints run here, straight from the route table: the same handler and serialiser the
    // build uses, without the cost of going through Astro (a third of the time of a search answer).
    const route = url.pathname.startsWith('/v1/') || url.pathname === '/oembed' ? matchRoute(url.pathname) : undefined;
    if (route) {
      const answers = answersOf(snapshot);
      const rendered = runEndpoint(route.endpoint, route.params, url, context, answers);
      // the fast path sends it at this target from now on (fast-path.ts), rate limits included
      if (answers.holds(rendered) && rawUrl.startsWith('/')) answers.alias(rawUrl, rendered);
      sendAnswer(req, res, rendered, answers);
      return;
    }

    // HEAD is answered as GET by the pages; Node leaves the body out of the response itself.
    if (req.method === 'HEAD') req.method = 'GET';
    // the site's pages hand the browser a site pass (gate.ts; src/middleware.ts sets it on HTML)
    const locals: App.Locals = { context, ...(options.gate && { sitePass: () => options.gate!.passCookie(factsOf(req)) }) };
    let passed = false;
    await options.astro(req, res, () => { passed = true; }, locals);
    if (passed && !res.headersSent) {
      const problem = new ProblemError('not-found', `Nothing is at ${url.pathname}.`);
      // a browser asking for a page gets the site's HTML error page (src/site/negotiate-errors.ts)
      if (await answerErrorPage(req, res, problem, instance, options.astro, locals)) return;
      send(req, res, renderProblem(problem, instance, snapshot.model.urls));
    }
  }

  const timeouts = options.timeouts ?? { headMs: 10_000, requestMs: 20_000 };
  /** sockets whose request was answered before its body arrived: a late error there gets no second answer */
  const answeredEarly = new WeakSet<Socket>();
  const server = createServer({
    // node:http checks these only on a server it sees listening: see the 'listening' event below
    headersTimeout: timeouts.headMs,
    requestTimeout: timeouts.requestMs,
    connectionsCheckingInterval: sweepPeriodOf(timeouts.headMs),
    keepAliveTimeout: 65_000,
    requireHostHeader: false,
  }, (req, res) => {
    if (options.monitor) res.once('finish', () => options.monitor!.record(res.statusCode));
    res.once('finish', () => {
      if (req.complete) return;
      answeredEarly.add(req.socket);
      req.once('end', () => answeredEarly.delete(req.socket));
    });
    handle(req, res).catch((error: unknown) => {
      log(`[server] failed on ${req.method} ${req.url}: ${(error as Error).stack ?? String(error)}`);
      if (!res.headersSent) send(req, res, renderProblem(new ProblemError('internal-error', 'The service failed to answer this request.'), (req.url ?? '/').slice(0, 2000), urls));
      else res.destroy();
    });
  });
  // A head node:http cannot read, or a request past its deadline: a problem instead of node's bare
  // answer, when no answer is under way on the connection; the connection is closed either way.
  server.on('clientError', (error: Error & { code?: string; rawPacket?: Buffer }, socket: Socket) => {
    if (isClosing(socket)) return;
    if (error.code === 'ECONNRESET' || error.code === 'EPIPE' || (socket as HttpSocket)._httpMessage?.headersSent || answeredEarly.has(socket)) {
      socket.destroy();
      return;
    }
    const problem = clientErrorProblem(error);
    answerAndClose(socket, renderProblem(problem, instanceOf(error.rawPacket), urls), { head: asksForHead(error.rawPacket) });
    options.monitor?.record(problem.status);
  });
  // CONNECT asks for a tunnel, which this service does not make: a 405 problem, not a dropped connection.
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    answerAndClose(socket, renderProblem(new ProblemError('method-not-allowed', `CONNECT is not allowed: this API is read-only (${ALLOWED_METHODS}).`), '/', urls), { extra: { allow: ALLOWED_METHODS } });
    options.monitor?.record(405);
  });
  // An Expect other than 100-continue (node:http answers 100-continue itself).
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    for (const [name, value] of Object.entries(CORS_HEADERS)) res.setHeader(name, value);
    if (options.monitor) res.once('finish', () => options.monitor!.record(res.statusCode));
    send(req, res, renderProblem(new ProblemError('expectation-failed', 'The only expectation this service meets is Expect: 100-continue.'), (req.url ?? '/').slice(0, 2000), urls));
  });
  // The front server listens and hands connections over, so node:http never sees 'listening',
  // which is when it starts checking headersTimeout and requestTimeout: start them here.
  server.emit('listening');
  return server;
}
