// The static fast path: a request whose URL, as sent or in canonical form, is a prerendered page
// is answered from the snapshot's bytes with precomputed validators, without running a handler.
// Each page's response headers are built once per representation (http/representation.ts) and
// shared with the fast path, so a hit costs a Map lookup, a read of the one representation sent
// and one writeHead. A page whose bytes cannot be read intact is a 503 problem, never a 200 with
// other bytes.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Encoding } from '../http/encoding.ts';
import { ProblemError } from '../api/problems.ts';
import { CACHE_CONTROL, JSON_TYPE, renderProblem, type Rendered } from '../api/respond.ts';
import { matchRoute } from '../api/routes.ts';
import type { PageEntry, Range } from '../snapshot/manifest.ts';
import { PageReadError } from '../snapshot/page-files.ts';
import { matchesIfNoneMatch } from '../http/etag.ts';
import { chooseEncoding, headerSet, headerSlot, variantEtag, type HeaderSlot, type PreparedHeaders, type ResourceHeaders } from '../http/representation.ts';
import type { Snapshot } from './snapshot-store.ts';

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

const prepared = new WeakMap<PageEntry, Partial<Record<HeaderSlot, PreparedHeaders>>>();

/** What a prerendered page says on every representation: its validator, caching, Link and X-Robots-Tag. */
function pageResource(page: PageEntry): ResourceHeaders {
  const fields = ['cache-control', CACHE_CONTROL.snapshot];
  if (page.link) fields.push('link', page.link);
  if (page.noindex) fields.push('x-robots-tag', 'noindex');
  return { etag: page.etag, contentType: JSON_TYPE, varies: page.br !== undefined || page.gzip !== undefined, fields };
}

/**
 * The header set of one representation of a page (http/representation.ts), made once and kept
 * for node:http and the fast path alike.
 */
export function pageHeaders(page: PageEntry, encoding: Encoding | undefined, notModified: boolean): PreparedHeaders {
  let slots = prepared.get(page);
  if (!slots) prepared.set(page, (slots = {}));
  return slots[headerSlot(encoding, notModified)] ??= { flat: headerSet(pageResource(page), encoding, encoding ? page[encoding]![1] : page.body[1], notModified) };
}

/** The representation of a page to send and its ETag, from the page's metadata alone: no body is read. */
export function chooseVariant(page: PageEntry, acceptEncoding: string | undefined): { encoding: Encoding | undefined; range: Range; etag: string } {
  const encoding = chooseEncoding(page, acceptEncoding);
  const range = encoding ? page[encoding]! : page.body;
  return { encoding, range, etag: variantEtag(page.etag, encoding, range[1]) };
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
    res.writeHead(304, pageHeaders(page, encoding, true).flat as string[]).end();
    return;
  }
  if (req.method === 'HEAD') {
    res.writeHead(200, pageHeaders(page, encoding, false).flat as string[]).end();
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
  res.writeHead(200, pageHeaders(page, encoding, false).flat as string[]);
  res.end(body);
}
