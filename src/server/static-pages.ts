// The static fast path: a request whose URL, as sent or in canonical form, is a prerendered page
// is answered from the snapshot's bytes with precomputed validators, without running a handler.
// Each page's response headers are built once (per encoding) and reused, so a hit costs a Map
// lookup, a read of the one representation sent and one writeHead. A page whose bytes cannot be
// read intact is a 503 problem, never a 200 with other bytes.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { acceptedEncodings, type Encoding } from '../http/encoding.ts';
import { ProblemError } from '../api/problems.ts';
import { CACHE_CONTROL, JSON_TYPE, renderProblem, type Rendered } from '../api/respond.ts';
import { matchRoute } from '../api/routes.ts';
import type { PageEntry, Range } from '../snapshot/manifest.ts';
import { PageReadError } from '../snapshot/page-files.ts';
import { CORS_HEADERS } from '../http/cors.ts';

import type { Snapshot } from './snapshot-store.ts';
import { etagFor, matchesIfNoneMatch } from '../http/etag.ts';

/** The manifest entry for a request's URL in canonical form, when the URL as sent is not one. */
function findCanonicalPage(snapshot: Snapshot, url: URL): PageEntry | undefined {
  const route = matchRoute(url.pathname);
  if (!route || route.endpoint.cache !== 'snapshot') return undefined;
  try {
    return snapshot.pages.get(route.endpoint.canonical(route.endpoint.parse(route.params, url.searchParams)));
  } catch {
    return undefined; // invalid parameters: the dynamic path answers with the problem
  }
}

/** The manifest entry for a request, by its URL as sent, else by its canonical form. */
export function findPage(snapshot: Snapshot, rawUrl: string, url: URL): PageEntry | undefined {
  return snapshot.pages.get(rawUrl) ?? findCanonicalPage(snapshot, url);
}

type Flat = string[];
const headerCache = new WeakMap<PageEntry, Partial<Record<`${'200' | '304'}:${Encoding | 'identity'}`, Flat>>>();
const CORS_FLAT = Object.entries(CORS_HEADERS).flat();

function headersFor(page: PageEntry, encoding: Encoding | undefined, length: number, notModified: boolean): Flat {
  const slot = `${notModified ? '304' : '200'}:${encoding ?? 'identity'}` as const;
  let cached = headerCache.get(page);
  if (!cached) headerCache.set(page, (cached = {}));
  const hit = cached[slot];
  if (hit) return hit;
  return (cached[slot] = pageHeaders(page, encoding, notModified ? undefined : length));
}

/**
 * The headers of a prerendered page as name, value, name, value…: CORS, validator, caching, and
 * for a 200 (`length` given) its type, length and encoding. The fast path writes the same list.
 */
export function pageHeaders(page: PageEntry, encoding: Encoding | undefined, length: number | undefined): Flat {
  const flat: Flat = [...CORS_FLAT, 'etag', encoding ? etagFor(page.etag, page[encoding]![1]) : page.etag, 'cache-control', CACHE_CONTROL.snapshot];
  if (page.br || page.gzip) flat.push('vary', 'Accept-Encoding');
  if (page.link) flat.push('link', page.link);
  if (page.noindex) flat.push('x-robots-tag', 'noindex');
  if (length !== undefined) {
    flat.push('content-type', JSON_TYPE, 'content-length', String(length));
    if (encoding) flat.push('content-encoding', encoding);
  }
  return flat;
}

/** The representation of a page to send: from its metadata alone, as the fast path chooses. */
export function chooseVariant(page: PageEntry, acceptEncoding: string | undefined): { encoding: Encoding | undefined; range: Range; etag: string } {
  const encoding = page.br || page.gzip ? acceptedEncodings(acceptEncoding).find((e) => page[e] !== undefined) : undefined;
  const range = encoding ? page[encoding]! : page.body;
  return { encoding, range, etag: encoding ? etagFor(page.etag, range[1]) : page.etag };
}

/**
 * The 503 problem for a page whose bytes cannot be read intact (a damaged or truncated page file):
 * never a 200 with other bytes (docs/reliability.md, "Snapshots").
 */
export function unreadablePage(instance: string, snapshot: Snapshot): Rendered {
  return renderProblem(new ProblemError('service-unavailable', 'This page cannot be read intact from the snapshot being served; the operator has been told (/v1/status). Retry shortly.',
    { headers: { 'retry-after': '30' } }), instance, snapshot.model.urls);
}

/** Reads only the bytes of the representation sent; a HEAD or a 304 reads nothing. */
export function servePage(req: IncomingMessage, res: ServerResponse, snapshot: Snapshot, page: PageEntry): void {
  const header = (name: string) => { const v = req.headers[name]; return Array.isArray(v) ? v.join(', ') : v; };
  const { encoding, range, etag } = chooseVariant(page, header('accept-encoding'));
  if (matchesIfNoneMatch(header('if-none-match'), etag)) {
    res.writeHead(304, headersFor(page, encoding, 0, true)).end();
    return;
  }
  if (req.method === 'HEAD') {
    res.writeHead(200, headersFor(page, encoding, range[1], false)).end();
    return;
  }
  let body: Buffer;
  try {
    body = snapshot.sources[encoding ?? 'body'].read(range);
  } catch (error) {
    if (!(error instanceof PageReadError)) throw error;
    const problem = unreadablePage((req.url ?? '/').slice(0, 2000), snapshot);
    res.writeHead(problem.status, { ...problem.headers, 'content-length': problem.body.length }).end(problem.body);
    return;
  }
  res.writeHead(200, headersFor(page, encoding, body.length, false));
  res.end(body);
}
