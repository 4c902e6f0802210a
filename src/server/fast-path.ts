// The static fast path, in front of node:http on the same port. Most requests are GET or HEAD
// of a prerendered page by its canonical URL; for those we read the request head ourselves and
// write a response prepared once per page and encoding, which here answers about twice as many
// requests a second as node:http can (docs/performance.md). Anything else — another method, a
// body, an unusual or oversized head, HTTP/1.0, Connection: close, a URL that is not a prerendered page — hands the
// connection, with the bytes already read, to the node:http pipeline for good. API pages count
// against the caller's rate-limit lane here too (gate.ts); requests with a developer key go to
// node:http, which checks the key.
import type { Server as HttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import type { Encoding } from '../api/encoding.ts';
import { acceptedEncodings } from '../api/encoding.ts';
import type { Rendered } from '../api/respond.ts';
import type { PageEntry } from '../snapshot/manifest.ts';
import { etagFor, matchesIfNoneMatch } from './negotiate.ts';
import type { SnapshotHolder } from './snapshot-holder.ts';
import type { Snapshot } from './snapshot-store.ts';
import { CORS_HEADERS } from './cors.ts';
import type { Gate, RequestFacts } from './gate.ts';
import { pageHeaders, unreadablePage } from './static-pages.ts';
import { PageReadError } from '../snapshot/page-files.ts';

const MAX_HEAD = 16 * 1024;
const KEEP_ALIVE_MS = 65_000;
const CRLF2 = Buffer.from('\r\n\r\n');

/** The parts of a request head the fast path needs; undefined when it must not answer. */
interface SimpleRequest {
  readonly head: boolean;
  readonly target: string;
  readonly acceptEncoding: string | undefined;
  readonly ifNoneMatch: string | undefined;
  readonly close: boolean;
  readonly origin: string | undefined;
  readonly referer: string | undefined;
  readonly forwardedFor: string | undefined;
  readonly authorization: boolean;
  /** carries the site pass (gate.ts) */
  readonly cookie: string | undefined;
}

/** Reads a request head (without its final blank line); undefined when the fast path must not answer. */
export function parseSimpleRequest(head: string): SimpleRequest | undefined {
  const isHead = head.startsWith('HEAD /');
  if (!isHead && !head.startsWith('GET /')) return undefined;
  let lineEnd = head.indexOf('\r\n');
  if (lineEnd === -1) lineEnd = head.length;
  if (!head.startsWith(' HTTP/1.1', lineEnd - 9)) return undefined;
  const target = head.slice(isHead ? 5 : 4, lineEnd - 9);
  if (target.includes(' ')) return undefined;
  let acceptEncoding: string | undefined;
  let ifNoneMatch: string | undefined;
  let connection: string | undefined;
  let origin: string | undefined;
  let referer: string | undefined;
  let forwardedFor: string | undefined;
  let cookie: string | undefined;
  let authorization = false;
  let seenAccept = false;
  let seenMatch = false;
  let seenConnection = false;
  for (let start = lineEnd + 2; start < head.length;) {
    let end = head.indexOf('\r\n', start);
    if (end === -1) end = head.length;
    const colon = head.indexOf(':', start);
    const first = head.charCodeAt(start);
    if (colon <= start || colon > end || first === 32 || first === 9) return undefined;
    const name = head.slice(start, colon).toLowerCase();
    const value = () => head.slice(colon + 1, end).trim();
    switch (name) {
      case 'accept-encoding':
        if (seenAccept) return undefined;
        seenAccept = true;
        acceptEncoding = value();
        break;
      case 'if-none-match':
        if (seenMatch) return undefined;
        seenMatch = true;
        ifNoneMatch = value();
        break;
      case 'connection':
        if (seenConnection) return undefined;
        seenConnection = true;
        connection = value().toLowerCase();
        break;
      case 'origin':
        if (origin !== undefined) return undefined;
        origin = value();
        break;
      case 'referer':
        if (referer !== undefined) return undefined;
        referer = value();
        break;
      case 'x-forwarded-for':
        if (forwardedFor !== undefined) return undefined;
        forwardedFor = value();
        break;
      case 'authorization':
        authorization = true;
        break;
      case 'cookie':
        if (cookie !== undefined) return undefined;
        cookie = value();
        break;
      case 'content-length':
        if (value() !== '0') return undefined;
        break;
      case 'transfer-encoding':
      case 'expect':
      case 'upgrade':
        return undefined;
      default:
        break;
    }
    start = end + 2;
  }
  return {
    head: isHead,
    target,
    acceptEncoding,
    ifNoneMatch,
    close: connection !== undefined && /(^|,)\s*close\s*(,|$)/.test(connection),
    origin,
    referer,
    forwardedFor,
    authorization,
    cookie,
  };
}

type Variant = Encoding | 'identity';
interface Prepared {
  headers: Partial<Record<Variant, Buffer>>;
  notModified: Partial<Record<Variant, Buffer>>;
}
const prepared = new WeakMap<PageEntry, Prepared>();

/** The header lines after the status line and Date, for one page and representation. */
function headerBlock(page: PageEntry, encoding: Encoding | undefined, length: number | undefined): Buffer {
  const flat = pageHeaders(page, encoding, length);
  let block = '';
  for (let i = 0; i < flat.length; i += 2) block += `${flat[i]}: ${flat[i + 1]}\r\n`;
  return Buffer.from(`${block}keep-alive: timeout=65\r\n\r\n`, 'latin1');
}

let dateSecond = 0;
let dateLines: Record<'200' | '304', Buffer> = { '200': Buffer.alloc(0), '304': Buffer.alloc(0) };
function statusAndDate(status: '200' | '304'): Buffer {
  const now = Date.now();
  if (now - dateSecond >= 1000 || now < dateSecond) {
    dateSecond = now - (now % 1000);
    const date = new Date(dateSecond).toUTCString();
    dateLines = {
      '200': Buffer.from(`HTTP/1.1 200 OK\r\ndate: ${date}\r\n`, 'latin1'),
      '304': Buffer.from(`HTTP/1.1 304 Not Modified\r\ndate: ${date}\r\n`, 'latin1'),
    };
  }
  return dateLines[status];
}

const STATUS_TEXT: Readonly<Record<number, string>> = { 429: 'Too Many Requests', 503: 'Service Unavailable' };

/** Writes a rendered (problem) answer whose headers vary per request. */
function answerRendered(socket: Socket, rendered: Rendered, request: SimpleRequest): void {
  const headers = { ...CORS_HEADERS, ...rendered.headers, 'content-length': String(rendered.body.length) };
  let head = `HTTP/1.1 ${rendered.status} ${STATUS_TEXT[rendered.status] ?? 'Error'}\r\ndate: ${new Date().toUTCString()}\r\n`;
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
  socket.cork();
  socket.write(`${head}keep-alive: timeout=65\r\n\r\n`, 'latin1');
  if (!request.head) socket.write(rendered.body);
  socket.uncork();
}

/**
 * Writes the answer for a prerendered page, with the per-request header lines in `extra`; its
 * status. The body is read before anything is written: a page that cannot be read intact is a 503
 * problem (static-pages.ts unreadablePage), never a 200 with other bytes.
 */
function answer(socket: Socket, snapshot: Snapshot, page: PageEntry, request: SimpleRequest, extra: string): number {
  let entry = prepared.get(page);
  if (!entry) prepared.set(page, (entry = { headers: {}, notModified: {} }));
  const accepted = page.br || page.gzip ? acceptedEncodings(request.acceptEncoding) : [];
  const encoding = accepted.find((e) => page[e] !== undefined);
  const variant: Variant = encoding ?? 'identity';
  if (request.ifNoneMatch !== undefined && matchesIfNoneMatch(request.ifNoneMatch, encoding ? etagFor(page.etag, page[encoding]![1]) : page.etag)) {
    socket.cork();
    socket.write(statusAndDate('304'));
    if (extra) socket.write(extra, 'latin1');
    socket.write(entry.notModified[variant] ??= headerBlock(page, encoding, undefined));
    socket.uncork();
    return 304;
  }
  const range = encoding ? page[encoding]! : page.body;
  let body: Buffer | undefined;
  if (!request.head) {
    try {
      body = snapshot.sources[encoding ?? 'body'].read(range);
    } catch (error) {
      if (!(error instanceof PageReadError)) throw error;
      answerRendered(socket, unreadablePage(request.target, snapshot), request);
      return 503;
    }
  }
  socket.cork();
  socket.write(statusAndDate('200'));
  if (extra) socket.write(extra, 'latin1');
  socket.write(entry.headers[variant] ??= headerBlock(page, encoding, range[1]));
  if (body) socket.write(body);
  socket.uncork();
  return 200;
}

export interface FrontServer {
  readonly server: Server;
  /** Destroys the idle connections the fast path holds. */
  closeIdle(): void;
  /** Destroys every connection, including those handed to node:http. */
  closeAll(): void;
}

export function createFrontServer(snapshots: SnapshotHolder, http: HttpServer, gate?: Gate, record?: (status: number) => void): FrontServer {
  const idle = new Set<Socket>();
  const all = new Set<Socket>();

  const server = createServer({ noDelay: true }, (socket) => {
    let pending: Buffer | undefined;
    idle.add(socket);
    all.add(socket);
    socket.setTimeout(KEEP_ALIVE_MS, () => socket.destroy());
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      idle.delete(socket);
      all.delete(socket);
    });

    const handOff = (rest: Buffer | undefined) => {
      socket.pause();
      socket.removeListener('data', onData);
      socket.setTimeout(0);
      idle.delete(socket);
      // node:http takes the socket over (possibly reading it natively from now on); the bytes we
      // already read are given to it as the first 'data' event.
      http.emit('connection', socket);
      if (rest && rest.length > 0) socket.emit('data', rest);
      socket.resume();
    };

    function onData(chunk: Buffer): void {
      let buffer = pending ? Buffer.concat([pending, chunk]) : chunk;
      pending = undefined;
      let start = 0;
      for (;;) {
        const end = buffer.indexOf(CRLF2, start);
        if (end === -1) break;
        const request = parseSimpleRequest(buffer.toString("latin1", start, end));
        const snapshot = snapshots.current;
        const page = request && snapshot?.pages.get(request.target);
        // Connection: close is rare; node:http answers it with the right headers and closes.
        const limited = request !== undefined && gate !== undefined && gate.limits(request.target);
        if (!request || request.close || !snapshot || !page || (limited && request.authorization)) {
          handOff(buffer.subarray(start));
          return;
        }
        let extra = '';
        if (limited) {
          const facts: RequestFacts = { remoteAddress: socket.remoteAddress, forwardedFor: request.forwardedFor, origin: request.origin, referer: request.referer, authorization: undefined, cookie: request.cookie };
          const admission = gate.admit(facts);
          if (!admission.decision.allowed) {
            answerRendered(socket, gate.refusal(admission, request.target, snapshot.model.urls), request);
            record?.(429);
            start = end + 4;
            continue;
          }
          for (const [name, value] of Object.entries(admission.headers)) extra += `${name}: ${value}\r\n`;
        }
        record?.(answer(socket, snapshot, page, request, extra));
        start = end + 4;
      }
      if (start < buffer.length) {
        buffer = buffer.subarray(start);
        if (buffer.length > MAX_HEAD) {
          handOff(buffer);
          return;
        }
        pending = buffer;
      }
    }
    socket.on('data', onData);
  });

  return {
    server,
    closeIdle() {
      for (const socket of idle) socket.destroy();
    },
    closeAll() {
      for (const socket of all) socket.destroy();
    },
  };
}
