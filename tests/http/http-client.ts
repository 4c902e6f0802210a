// A small raw HTTP client for the contract suite: node:http, so bodies arrive as the bytes the
// server sent (no automatic decompression), any method and any request target can be sent.
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createDocumentChecker, type DocumentChecker } from './openapi-check.ts';

export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** the body as sent (possibly br- or gzip-encoded) */
  readonly body: Buffer;
  /** the request target, for messages */
  readonly target: string;
}

export interface SendOptions {
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * a request body, sent with its Content-Length on a connection of its own closed after the
   * answer (a front may answer before it has read a body, and close the connection). The length is
   * set here: node:http sends a body given to a GET, DELETE or OPTIONS with no length at all, so
   * a server would rightly read it as the connection's next request.
   */
  readonly body?: Buffer;
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

export interface Client {
  readonly base: string;
  /** Sends one request; `target` is a path and query, sent exactly as given. */
  send(target: string, options?: SendOptions): Promise<RawResponse>;
  /** GET that must answer 200 with JSON; returns the parsed body and the raw response. */
  json<T>(target: string, headers?: Readonly<Record<string, string>>): Promise<{ body: T; res: RawResponse }>;
}

/** The description each server publishes, fetched once per server. */
const checkers = new Map<string, Promise<DocumentChecker>>();

function rawRequest(base: string, target: string, options: SendOptions = {}): Promise<RawResponse> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const alone = options.body !== undefined;
    const headers = alone ? { ...options.headers, connection: 'close', 'content-length': String(options.body!.length) } : options.headers ?? {};
    const req = request({ host: hostname, port, path: target, method: options.method ?? 'GET', headers, agent: alone ? false : agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), target }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Headers a front (nginx, a CDN) must keep as the origin sends them. */
const KEPT_HEADERS = ['content-type', 'etag', 'cache-control', 'link', 'x-robots-tag', 'content-encoding', 'vary', 'access-control-allow-origin', 'allow', 'content-range'];

/**
 * How a front's answer differs from the origin's for the same request: status, body bytes, kept
 * headers. Answers that may change between two requests are not compared: live state (cached 5 s
 * at most), private or uncached ones, and 429s (each counts against a lane). A target nginx cannot
 * parse gets nginx's own not-found problem: its status, type and title must be the origin's.
 */
export function frontDifferences(front: RawResponse, origin: RawResponse, what: string): string[] {
  const volatile = (res: RawResponse) => /max-age=5\b|private|no-store|no-cache/.test(header(res, 'cache-control') ?? '') || res.status === 429;
  if (volatile(front) || volatile(origin)) return [];
  const out: string[] = [];
  if (header(front, 'x-front-problem') === 'unparseable') {
    // a target nginx cannot parse never reaches its configuration: it answers the origin's problem
    // type itself, without the origin's detail (docs/cdn.md)
    const kind = (res: RawResponse) => { const p = JSON.parse(decoded(res).toString('utf8')) as Record<string, unknown>; return [res.status, p['type'], p['title']].join(' '); };
    return kind(front) === kind(origin) ? [] : [`${what}: nginx's own problem ${kind(front)}, the origin's ${kind(origin)}`];
  }
  if (front.status !== origin.status) out.push(`${what}: status ${front.status} through the front, ${origin.status} from the origin`);
  if (!front.body.equals(origin.body)) out.push(`${what}: bodies differ (${front.body.length} and ${origin.body.length} bytes)`);
  for (const name of KEPT_HEADERS) {
    if (header(front, name) !== header(origin, name)) out.push(`${what}: ${name} ${JSON.stringify(header(front, name))} through the front, ${JSON.stringify(header(origin, name))} from the origin`);
  }
  return out;
}

/**
 * A client for one server. Every response is checked against the server's own /openapi.json
 * (openapi-check.ts): one that breaks it rejects with the reasons, failing the test that sent it.
 * With `origin`, `base` is a front (nginx) before it: each request also goes to the origin, and
 * the two answers must agree (frontDifferences). With `describedBy`, the description is that
 * server's (a front whose origins are down cannot serve it).
 */
export function createClient(base: string, origin?: string, describedBy = base): Client {
  const raw = (target: string, options: SendOptions = {}) => rawRequest(base, target, options);
  const checker = () => {
    let found = checkers.get(describedBy);
    if (!found) {
      found = rawRequest(describedBy, '/openapi.json').then((res) => {
        if (res.status !== 200) throw new Error(`${describedBy}/openapi.json answered ${res.status}: build the app first (npm run build:app)`);
        return createDocumentChecker(JSON.parse(res.body.toString('utf8')) as Record<string, unknown>);
      });
      checkers.set(describedBy, found);
    }
    return found;
  };
  const send = async (target: string, options: SendOptions = {}): Promise<RawResponse> => {
    const [res, documented, direct] = await Promise.all([raw(target, options), checker(), origin === undefined ? undefined : rawRequest(origin, target, options)]);
    const violations = documented.check({ method: options.method ?? 'GET', target, status: res.status, headers: res.headers, body: res.body });
    if (violations.length > 0) throw new Error(`The response breaks the API description:\n${violations.join('\n')}`);
    const differences = direct === undefined ? [] : frontDifferences(res, direct, `${options.method ?? 'GET'} ${target}`);
    if (differences.length > 0) throw new Error(`The front's answer differs from the origin's:\n${differences.join('\n')}`);
    return res;
  };
  return {
    base,
    send,
    async json<T>(target: string, headers: Readonly<Record<string, string>> = {}) {
      const res = await send(target, { headers });
      if (res.status !== 200) {
        throw new Error(`GET ${target} answered ${res.status}: ${res.body.toString('utf8').slice(0, 500)}`);
      }
      return { body: JSON.parse(decoded(res).toString('utf8')) as T, res };
    },
  };
}

/** The identity bytes of a response, decoding br or gzip. */
export function decoded(res: RawResponse): Buffer {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(res.body);
  if (encoding === 'gzip') return gunzipSync(res.body);
  return res.body;
}

export function header(res: RawResponse, name: string): string | undefined {
  const value = res.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Runs `work` over `items` with at most `width` in flight, keeping the order of results. */
export async function mapConcurrent<T, R>(items: readonly T[], width: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T, index);
    }
  });
  await Promise.all(lanes);
  return results;
}

/** mulberry32: a seeded generator, so a failing random case can be replayed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
