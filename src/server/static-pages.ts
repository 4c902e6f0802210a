// The static fast path: a request whose URL, as sent or in canonical form, is a prerendered page
// is answered from the snapshot's bytes with precomputed validators, without running a handler.
// Each page's response headers are built once (per encoding) and reused, so a hit costs a Map
// lookup, a buffer slice and one writeHead.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Encoding } from '../api/encoding.ts';
import { CACHE_CONTROL, JSON_TYPE } from '../api/respond.ts';
import { matchRoute } from '../api/routes.ts';
import type { PageEntry } from '../snapshot/manifest.ts';
import { CORS_HEADERS } from './cors.ts';
import { etagFor, negotiate } from './negotiate.ts';
import type { Snapshot } from './snapshot-store.ts';

/** The manifest entry for a request's URL in canonical form, when the URL as sent is not one. */
export function findCanonicalPage(snapshot: Snapshot, url: URL): PageEntry | undefined {
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

export function servePage(req: IncomingMessage, res: ServerResponse, snapshot: Snapshot, page: PageEntry): void {
  const { sources } = snapshot;
  const acceptEncoding = req.headers['accept-encoding'];
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch === undefined && (acceptEncoding === undefined || (!page.br && !page.gzip))) {
    const body = sources.body.read(page.body);
    res.writeHead(200, headersFor(page, undefined, body.length, false));
    res.end(req.method === 'HEAD' ? undefined : body);
    return;
  }
  const chosen = negotiate(
    { identity: sources.body.read(page.body), br: page.br && sources.br.read(page.br), gzip: page.gzip && sources.gzip.read(page.gzip) },
    page.etag, acceptEncoding, ifNoneMatch, false,
  );
  if (chosen.notModified) {
    res.writeHead(304, headersFor(page, chosen.encoding, 0, true)).end();
    return;
  }
  res.writeHead(200, headersFor(page, chosen.encoding, chosen.body.length, false));
  res.end(req.method === 'HEAD' ? undefined : chosen.body);
}
