// The static fast path, in front of node:http on the same port. Most requests are GET or HEAD
// of a prerendered page by its canonical URL, or of a dynamic query already answered and kept at
// the same target (answer-cache.ts); for those we read the request head ourselves and write a
// response prepared once per page (or kept answer) and encoding, which here answers about twice
// as many requests a second as node:http can (docs/performance.md). Anything else — another method, a
// body, a head outside the strict subset simple-request.ts reads, HTTP/1.0, Connection: close, a
// URL that is none of those nor an API query whose answer is the same for every caller (see
// sharedQueryOf) — hands the connection, with the bytes already read, to the
// node:http pipeline for good. API pages count against the caller's rate-limit lane here too
// (gate.ts); requests with a developer key go to node:http, which checks the key (and, with
// RATE_LIMIT_STORE, every limited request: the fast path never waits for Redis). Every
// connection counts against its address's limit and every head has a deadline
// (connection-guard.ts, docs/reliability.md "HTTP front").
import { STATUS_CODES, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { ProblemError } from '../api/problems.ts';
import { readRequest, renderProblem, type Rendered } from '../api/respond.ts';
import type { Urls } from '../model/urls.ts';
import type { PageEntry } from '../snapshot/manifest.ts';
import { guardConnections } from './connection-guard.ts';
import { createTurnWrites } from './turn-writes.ts';

import type { SnapshotHolder } from './snapshot-holder.ts';
import type { Snapshot } from './snapshot-store.ts';
import type { Admission, Gate, RequestFacts } from './gate.ts';
import { apiRouteOf, type QueryAnswerer, type Route } from './handle-request.ts';
import { negotiateRendered, type Outgoing } from '../http/negotiate.ts';
import { CORS_HEADERS } from '../http/cors.ts';
import { createHeadReader, UNREADABLE } from './head-reader.ts';
import { parseSimpleRequest, type SimpleRequest } from './simple-request.ts';
import { answerAndClose, isClosing, responseBytes } from './socket-problems.ts';
import { chooseVariant, pageHeaders, unreadablePage } from './static-pages.ts';
import { answersOf, chooseKeptVariant, type AnswerCache, type CachedAnswer } from './answer-cache.ts';
import { PageReadError } from '../snapshot/page-files.ts';
import { matchesIfNoneMatch } from '../http/etag.ts';
import { headerText, type PreparedHeaders } from '../http/representation.ts';
import { createPageBodies, type PageBodies } from './page-bodies.ts';
import { cacheTagHeaders } from '../cdn/cache-tags.ts';

const KEEP_ALIVE_MS = 65_000;
/** Retry-After of the too-many-connections problem, in seconds. */
const CONNECTIONS_RETRY_AFTER = '5';

/** The lines after a page's or kept answer's own: the fast path keeps connections open 65 s. */
const KEEP_ALIVE_LINE = 'keep-alive: timeout=65\r\n';
/** A prepared header set as raw head lines, made once; a page's carry its cache tags (at `target`, its key). */
const linesOf = (headers: PreparedHeaders, target: string | undefined): string =>
  headers.lines ??= headerText(headers.flat, target === undefined ? [] : cacheTagHeaders(target), KEEP_ALIVE_LINE);

let dateSecond = 0;
let status200 = '';
let status304 = '';
/** The status line and Date of a 200 or 304, made again once a second. */
function statusAndDate(status: 200 | 304): string {
  const now = Date.now();
  if (now - dateSecond >= 1000 || now < dateSecond) {
    dateSecond = now - (now % 1000);
    const date = new Date(dateSecond).toUTCString();
    status200 = `HTTP/1.1 200 OK\r\ndate: ${date}\r\n`;
    status304 = `HTTP/1.1 304 Not Modified\r\ndate: ${date}\r\n`;
  }
  return status === 200 ? status200 : status304;
}

/** Writes a rendered (problem) answer whose headers vary per request. */
function answerRendered(socket: Socket, rendered: Rendered, request: SimpleRequest): void {
  socket.write(responseBytes(rendered, { head: request.head }));
}

/**
 * Writes a 200 or 304 whole: its head (status line and Date, the per-request lines in `extra`, the
 * prepared lines) as one chunk, then the body; they leave together, with the turn's other answers
 * (turn-writes.ts). Two chunks, not four: each costs the stream's bookkeeping and a slot in the
 * writev. (Head and a small body copied into one new buffer was 3-9% cheaper still, and 64 MB more
 * RSS: docs/performance.md, "The fast path's CPU per request".)
 */
function writeAnswer(socket: Socket, status: 200 | 304, extra: string, lines: string, body: Buffer | undefined): void {
  socket.write(statusAndDate(status) + extra + lines, 'latin1');
  if (body) socket.write(body);
}

/**
 * Writes the answer for a prerendered page, with the per-request header lines in `extra`; its
 * status. The body is read before anything is written: a page that cannot be read intact is a 503
 * problem (static-pages.ts unreadablePage), never a 200 with other bytes.
 */
function answerPage(socket: Socket, snapshot: Snapshot, bodies: PageBodies, page: PageEntry, request: SimpleRequest, extra: string): number {
  const { encoding, range, etag } = chooseVariant(page, request.acceptEncoding);
  if (request.ifNoneMatch !== undefined && matchesIfNoneMatch(request.ifNoneMatch, etag)) {
    writeAnswer(socket, 304, extra, linesOf(pageHeaders(page, encoding, true), request.target), undefined);
    return 304;
  }
  let body: Buffer | undefined;
  if (!request.head) {
    try {
      const source = snapshot.sources[encoding ?? 'body'];
      // page files held in memory are read as views already; from disk, hot bodies are kept (page-bodies.ts)
      body = snapshot.held === 'disk' ? bodies.read(source, range) : source.read(range);
    } catch (error) {
      if (!(error instanceof PageReadError)) throw error;
      answerRendered(socket, unreadablePage(request.target, snapshot), request);
      return 503;
    }
  }
  writeAnswer(socket, 200, extra, linesOf(pageHeaders(page, encoding, false), request.target), body);
  return 200;
}

/** Writes a kept answer of a dynamic query (answer-cache.ts) as node:http would send it; its status. */
function answerKept(socket: Socket, answers: AnswerCache, kept: CachedAnswer, request: SimpleRequest, extra: string): number {
  const { encoding, body, etag } = chooseKeptVariant(answers, kept, request.acceptEncoding);
  if (request.ifNoneMatch !== undefined && matchesIfNoneMatch(request.ifNoneMatch, etag)) {
    writeAnswer(socket, 304, extra, linesOf(answers.headers(kept, encoding, true), undefined), undefined);
    return 304;
  }
  writeAnswer(socket, 200, extra, linesOf(answers.headers(kept, encoding, false), undefined), request.head ? undefined : body);
  return 200;
}

/**
 * An API query the fast path may answer itself: a GET or HEAD of an endpoint whose answer does
 * not depend on who asks (every cache policy but `private`; a request with a key goes to node:http).
 */
interface SharedQuery {
  readonly route: Route;
  readonly url: URL;
}

/**
 * The shared query at `target`, if it is one: lists, batches and oEmbed (`snapshot`), search,
 * channels, live and status (`live`), health (`none`). Not only the kept ones: a connection that
 * asked once for a query the fast path does not answer is node:http's for good, so in a mix of
 * URLs every connection ended there within a few hundred requests (docs/performance.md, "Long
 * tail: every query on the fast path").
 */
function sharedQueryOf(target: string): SharedQuery | undefined {
  let url: URL;
  try {
    url = new URL(`http://origin.invalid${target}`);
  } catch {
    return undefined;
  }
  const route = apiRouteOf(url);
  return route && route.endpoint.cache !== 'private' ? { route, url } : undefined;
}

/** Writes an answer computed for this request as node:http would send it (send-answer.ts); its status. */
function answerOutgoing(socket: Socket, out: Outgoing, request: SimpleRequest, extra: string): number {
  let text = `HTTP/1.1 ${out.status} ${STATUS_CODES[out.status] ?? 'Error'}\r\ndate: ${new Date().toUTCString()}\r\n${extra}`;
  for (const [name, value] of Object.entries({ ...CORS_HEADERS, ...out.headers })) text += `${name}: ${value}\r\n`;
  socket.write(`${text}${KEEP_ALIVE_LINE}\r\n`, 'latin1');
  if (out.body && !request.head) socket.write(out.body);
  return out.status;
}

/**
 * Answers a shared query as node:http would (handle-request.ts): a prerendered page when its
 * canonical form is one (the target as sent is not: the caller looked), else the endpoint's
 * answer (kept, and found at this target from then on). The request is parsed once for both.
 */
function answerShared(socket: Socket, snapshot: Snapshot, bodies: PageBodies, query: SharedQuery, answerQuery: QueryAnswerer, admission: Admission | undefined, request: SimpleRequest, extra: string): number {
  const { route, url } = query;
  const read = route.endpoint.cache === 'snapshot' ? readRequest(route.endpoint, route.params, url) : undefined;
  const page = read && snapshot.pages.get(read.canonical);
  if (page) return answerPage(socket, snapshot, bodies, page, request, extra);
  const rendered = answerQuery(route, url, request.target, snapshot, admission, read);
  const answers = answersOf(snapshot);
  if (answers.holds(rendered)) return answerKept(socket, answers, rendered, request, extra);
  return answerOutgoing(socket, negotiateRendered(rendered, request.acceptEncoding, request.ifNoneMatch), request, extra);
}

export interface FrontServer {
  readonly server: Server;
  /**
   * Retires every connection, the fast path's and node:http's: from now on each answer says
   * `Connection: close` and its connection ends after it, so no client sends another request on a
   * connection being closed; a connection that has answered what it was sent and holds no part of
   * a next request is ended once it has been quiet `quietMs` (0: at once); a new connection that
   * has sent nothing yet is ended once it has been answered. Called again, it ends those that have
   * become quiet enough since. For a server handing its port over to another process
   * (supervise-servers.ts: an origin behind a proxy must not end a kept-alive connection the proxy
   * may be sending on, docs/reliability.md, "Swaps between processes"), or closing.
   */
  retire(options?: { readonly quietMs?: number }): void;
  /** Destroys every connection, including those handed to node:http. */
  closeAll(): void;
}

export interface FrontOptions {
  readonly snapshots: SnapshotHolder;
  /** node:http, given every connection the fast path does not answer */
  readonly http: HttpServer;
  /** for the problems the front writes itself (timeouts, too many connections) */
  readonly urls: Urls;
  readonly gate?: Gate | undefined;
  /**
   * node:http's answerer of API queries (handle-request.ts): given, the fast path answers the
   * queries whose answers do not depend on the caller itself, so the connection stays with it
   */
  readonly answerQuery?: QueryAnswerer | undefined;
  /** counts every answer by status, for /v1/status */
  readonly record?: ((status: number) => void) | undefined;
  /** open connections allowed per client address; 0 for no limit */
  readonly connectionsPerClient: number;
  /** how long a request head may take to arrive, in ms (docs/reliability.md) */
  readonly headTimeoutMs: number;
  /** the most bytes of page bodies kept in memory (page-bodies.ts; PAGE_BODY_BYTES by default) */
  readonly pageBodyBytes?: number | undefined;
}

export function createFrontServer(options: FrontOptions): FrontServer {
  const { snapshots, http, gate, record, urls, answerQuery } = options;
  const bodies = createPageBodies(options.pageBodyBytes);
  const idle = new Set<Socket>();
  const all = new Set<Socket>();
  /** fast-path connections holding part of a request head */
  const partway = new Set<Socket>();
  /**
   * connections that have sent nothing yet: a client sends its first request on a new connection
   * without waiting, and does not send it again if that connection is ended first (unlike one
   * that had answered a request before), so a retiring server answers it before ending it
   */
  const fresh = new Set<Socket>();
  /** connections handed to node:http, and those of them with a request being answered */
  const handed = new Set<Socket>();
  const answering = new Map<Socket, ServerResponse>();
  /**
   * when each connection last finished an answer (or opened, or was handed over), and how many
   * bytes it had read then: one that has read more since holds part of a next request
   */
  const quietSince = new WeakMap<Socket, { at: number; read: number }>();
  // one record per connection, written again at each answer (not an object per answer)
  const markQuiet = (socket: Socket) => {
    const since = quietSince.get(socket);
    if (since === undefined) quietSince.set(socket, { at: Date.now(), read: socket.bytesRead });
    else {
      since.at = Date.now();
      since.read = socket.bytesRead;
    }
  };
  /** once retiring: how long a connection must have been quiet before it is ended */
  let retiring: { quietMs: number } | undefined;
  // every answer below is written while its socket is held, and leaves when the turn ends (turn-writes.ts)
  const writes = createTurnWrites();
  const guard = guardConnections({
    perClient: options.connectionsPerClient,
    headTimeoutMs: options.headTimeoutMs,
    onHeadTimeout: (socket) => {
      // No answer is in flight on this socket: the fast path writes its answers whole, and node:http
      // has not read the head yet (it stops this clock when it has).
      answerAndClose(socket, renderProblem(new ProblemError('request-timeout', `The request head did not arrive in full within ${options.headTimeoutMs / 1000} s.`), '/', urls));
      record?.(408);
    },
  });
  // node:http has read a head on a socket handed to it: its own deadlines apply from now on.
  // (Not 'checkContinue': a listener there would stop node:http answering 100-continue itself.)
  for (const event of ['request', 'connect', 'checkExpectation'] as const) {
    http.prependListener(event, (req: IncomingMessage) => guard.endHead(req.socket));
  }
  http.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    answering.set(socket, res);
    // a retiring server's answers end their connections, and say so (Connection: close)
    if (retiring) res.shouldKeepAlive = false;
    res.once('close', () => {
      if (answering.get(socket) === res) answering.delete(socket);
      markQuiet(socket);
    });
  });

  const server = createServer({ noDelay: true }, (socket) => {
    socket.on('error', () => socket.destroy());
    if (!guard.admit(socket)) {
      answerAndClose(socket, renderProblem(new ProblemError('too-many-connections',
        `This address already holds ${options.connectionsPerClient} open connections, the most the service allows one address.`,
        { headers: { 'retry-after': CONNECTIONS_RETRY_AFTER } }), '/', urls));
      record?.(429);
      return;
    }
    const reader = createHeadReader();
    idle.add(socket);
    all.add(socket);
    fresh.add(socket);
    markQuiet(socket);
    guard.startHead(socket, Date.now());
    socket.setTimeout(KEEP_ALIVE_MS, () => socket.destroy());
    socket.on('close', () => {
      idle.delete(socket);
      all.delete(socket);
      partway.delete(socket);
      fresh.delete(socket);
      handed.delete(socket);
      answering.delete(socket);
    });

    const handOff = () => {
      writes.release(socket);
      const rest = reader.rest();
      socket.pause();
      socket.removeListener('data', onData);
      socket.setTimeout(0);
      idle.delete(socket);
      partway.delete(socket);
      handed.add(socket);
      markQuiet(socket);
      // the head's deadline keeps running until node:http has read it (the 'request' listener above)
      guard.startHead(socket, Date.now());
      // node:http takes the socket over (possibly reading it natively from now on); the bytes we
      // already read are given to it as the first 'data' event.
      http.emit('connection', socket);
      if (rest && rest.length > 0) socket.emit('data', rest);
      socket.resume();
    };

    function onData(chunk: Buffer): void {
      fresh.delete(socket);
      if (isClosing(socket)) return;
      const arrived = Date.now();
      writes.hold(socket);
      reader.push(chunk);
      // A retiring server's answers must say Connection: close; node:http writes them so.
      if (retiring) {
        handOff();
        return;
      }
      let answered = false;
      for (;;) {
        const head = reader.next();
        if (head === undefined) break;
        const request = head === UNREADABLE ? undefined : parseSimpleRequest(head);
        const snapshot = snapshots.current;
        // a dynamic query answered and kept at this very target (answer-cache.ts), looked up first:
        // a target is kept only after it was found not to be a page of this snapshot, and a page
        // lookup that misses is a binary search of the manifest (a tenth of a kept answer's time)
        const answers = request && snapshot ? answersOf(snapshot) : undefined;
        const kept = answers?.byTarget(request!.target);
        const page = request && !kept ? snapshot?.pages.get(request.target) : undefined;
        // a query whose answer does not depend on the caller, answered here once the model is loaded; a key goes to node:http
        const query = answerQuery && request && snapshot?.complete && !page && !kept && !request.authorization ? sharedQueryOf(request.target) : undefined;
        // Connection: close is rare; node:http answers it with the right headers and closes.
        const limited = request !== undefined && gate !== undefined && gate.limits(request.target);
        if (!request || request.close || !snapshot || !(page || kept || query) || (limited && (request.authorization || gate.waits))) {
          // node:http reads this head again from its first byte
          if (head !== UNREADABLE) reader.giveBack();
          handOff();
          return;
        }
        let extra = '';
        let admission: Admission | undefined;
        if (limited) {
          const facts: RequestFacts = { remoteAddress: socket.remoteAddress, forwardedFor: request.forwardedFor, origin: request.origin, referer: request.referer, authorization: undefined, cookie: request.cookie };
          admission = gate.admit(facts);
          if (!admission.decision.allowed) {
            answerRendered(socket, gate.refusal(admission, request.target, snapshot.model.urls), request);
            record?.(429);
            answered = true;
            continue;
          }
          const headers = admission.headers;
          for (const name in headers) extra += `${name}: ${headers[name]}\r\n`;
        }
        record?.(page ? answerPage(socket, snapshot, bodies, page, request, extra)
          : kept ? answerKept(socket, answers!, kept, request, extra)
            : answerShared(socket, snapshot, bodies, query!, answerQuery!, admission, request, extra));
        answered = true;
      }
      // the next head's clock starts with this chunk if a head was answered in it, or runs on
      if (answered) guard.endHead(socket);
      if (reader.settle()) {
        guard.startHead(socket, arrived);
        partway.add(socket);
      } else {
        guard.endHead(socket);
        partway.delete(socket);
        markQuiet(socket);
      }
    }
    socket.on('data', onData);
  });

  return {
    server,
    retire({ quietMs = 0 } = {}) {
      if (!retiring) {
        retiring = { quietMs };
        // answers under way whose head is not written yet end their connections too
        for (const res of answering.values()) if (!res.headersSent) res.shouldKeepAlive = false;
      }
      const now = Date.now();
      const quiet = (socket: Socket) => {
        const since = quietSince.get(socket);
        return since === undefined || (now - since.at >= retiring!.quietMs && socket.bytesRead === since.read);
      };
      for (const socket of idle) if (!partway.has(socket) && !fresh.has(socket) && quiet(socket)) socket.end();
      for (const socket of handed) if (!answering.has(socket) && quiet(socket)) socket.end();
    },
    closeAll() {
      guard.close();
      for (const socket of all) socket.destroy();
    },
  };
}
