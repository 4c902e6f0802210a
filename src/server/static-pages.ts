// The static fast path: a request whose URL, as sent or in canonical form, is a prerendered page
// is answered from the snapshot's bytes with precomputed validators, without running a handler.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { JSON_TYPE, CACHE_CONTROL } from '../api/respond.ts';
import { matchRoute } from '../api/routes.ts';
import type { PageEntry } from '../snapshot/manifest.ts';
import { negotiate } from './negotiate.ts';
import type { Snapshot } from './snapshot-store.ts';

/** The manifest entry for a request, by its URL as sent, else by its canonical form. */
export function findPage(snapshot: Snapshot, rawUrl: string, url: URL): PageEntry | undefined {
  const direct = snapshot.pages.get(rawUrl);
  if (direct) return direct;
  const route = matchRoute(url.pathname);
  if (!route || route.endpoint.cache !== 'snapshot') return undefined;
  try {
    return snapshot.pages.get(route.endpoint.canonical(route.endpoint.parse(route.params, url.searchParams)));
  } catch {
    return undefined; // invalid parameters: the dynamic path answers with the problem
  }
}

export function servePage(req: IncomingMessage, res: ServerResponse, snapshot: Snapshot, page: PageEntry): void {
  const { sources } = snapshot;
  const chosen = negotiate(
    { identity: sources.body.read(page.body), br: page.br && sources.br.read(page.br), gzip: page.gzip && sources.gzip.read(page.gzip) },
    page.etag,
    req.headers['accept-encoding'],
    req.headers['if-none-match'],
    false,
  );
  res.setHeader('etag', chosen.etag);
  res.setHeader('cache-control', CACHE_CONTROL.snapshot);
  if (chosen.vary) res.setHeader('vary', 'Accept-Encoding');
  if (page.link) res.setHeader('link', page.link);
  if (page.noindex) res.setHeader('x-robots-tag', 'noindex');
  if (chosen.notModified) {
    res.writeHead(304).end();
    return;
  }
  res.setHeader('content-type', JSON_TYPE);
  res.setHeader('content-length', chosen.body.length);
  if (chosen.encoding) res.setHeader('content-encoding', chosen.encoding);
  res.writeHead(200).end(req.method === 'HEAD' ? undefined : chosen.body);
}
