// Which representation of an error a request gets (docs/decisions.md, "HTML errors for browsers"):
// the site's pages answer a browser with an HTML error page carrying the same problem facts, and
// keep RFC 9457 problem+json for every API path and for every client that does not prefer HTML
// (curl's `*/*`, `Accept: application/json`, image requests). The answer varies with Accept.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { ProblemError } from '../api/problems.ts';
import { CACHE_CONTROL } from '../api/respond.ts';

/** The API's own paths: always problem+json, whatever the Accept header says. */
export function isApiPath(pathname: string): boolean {
  return pathname === '/v1' || pathname.startsWith('/v1/') || pathname === '/oembed' || pathname.startsWith('/openapi.');
}

/**
 * The player pages (`/embed/...`): made to be framed by any site, so their error answers are too,
 * and a browser's error page there is drawn in the player's shell, not the site's (docs/embeds.md).
 */
export function isEmbedPath(pathname: string): boolean {
  return pathname.startsWith('/embed/');
}

/** The policy every answer of a player page carries, its errors included: any origin may frame it. */
export const FRAME_ANYWHERE = 'frame-ancestors *';

/** `response` made frameable from any origin (a player page's answer; headers of a new Response are mutable). */
export function framedAnywhere(response: Response): Response {
  response.headers.set('content-security-policy', FRAME_ANYWHERE);
  return response;
}

/**
 * The status and headers of an HTML error page (src/pages/error.astro, error/player.astro): the
 * problem's status, cached as its problem+json would be (docs/decisions.md), varying with Accept.
 */
export function errorPageHeaders(response: ResponseInit & { headers: Headers }, error: ProblemError): void {
  const cacheable = error.status === 400 || error.status === 404;
  response.status = error.status;
  response.statusText = STATUS_CODES[error.status] ?? '';
  response.headers.set('cache-control', CACHE_CONTROL[cacheable ? 'problem' : 'never']);
  response.headers.set('vary', 'Accept');
  response.headers.set('content-type', 'text/html; charset=utf-8');
}

/** The quality a media range list gives one type (`*` ranges count, the most specific wins). */
function qualityOf(ranges: readonly { type: string; sub: string; q: number }[], type: string, sub: string): number {
  let best = -1;
  let specificity = -1;
  for (const r of ranges) {
    const level = r.type === type && r.sub === sub ? 2 : r.type === type && r.sub === '*' ? 1 : r.type === '*' && r.sub === '*' ? 0 : -1;
    if (level > specificity) { specificity = level; best = r.q; }
  }
  return Math.max(0, best);
}

/** Parses an Accept header (RFC 9110 §12.5.1), bounded: at most 64 ranges are read. */
function parseAccept(accept: string): { type: string; sub: string; q: number }[] {
  const ranges: { type: string; sub: string; q: number }[] = [];
  for (const part of accept.slice(0, 4096).split(',').slice(0, 64)) {
    const [range = '', ...params] = part.split(';');
    const match = /^\s*([\w.+*-]+)\/([\w.+*-]+)\s*$/.exec(range.toLowerCase());
    if (!match) continue;
    let q: number | undefined = 1;
    for (const p of params) {
      if (!/^\s*q\s*=/i.test(p)) continue;
      const qm = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(p);
      // a weight that cannot be read spoils its range: it is left out
      q = qm ? Math.min(1, Number(qm[1])) : undefined;
    }
    if (q !== undefined) ranges.push({ type: match[1]!, sub: match[2]!, q });
  }
  return ranges;
}

/**
 * Whether an error at `pathname` goes to this client as an HTML page: a path of the site (not the
 * API) and an Accept header that ranks text/html above JSON. A tie (`*` alone, no header) is JSON.
 */
export function prefersHtml(pathname: string, accept: string | null | undefined): boolean {
  if (isApiPath(pathname) || !accept) return false;
  const ranges = parseAccept(accept);
  const html = qualityOf(ranges, 'text', 'html');
  const json = Math.max(qualityOf(ranges, 'application', 'json'), qualityOf(ranges, 'application', 'problem+json'));
  return html > 0 && html > json;
}

/** The facts an HTML error page shows: the problem's own, and the request target it is about. */
export interface PageProblem {
  readonly error: ProblemError;
  readonly instance: string;
}

/** Where the site's HTML error page is rendered from (src/pages/error.astro). */
export const ERROR_PAGE_ROUTE = '/error';

/** Where the player pages' HTML error page is rendered from (src/pages/error/player.astro). */
export const PLAYER_ERROR_PAGE_ROUTE = '/error/player';

/** The route of the HTML error page for an error at `pathname`: the player's shell on a player page. */
export function errorPageRoute(pathname: string): string {
  return isEmbedPath(pathname) ? PLAYER_ERROR_PAGE_ROUTE : ERROR_PAGE_ROUTE;
}

/**
 * For the server's last resort (no route matched): a browser gets the HTML error page rendered by
 * Astro; anything else is left to the caller's problem+json. Sets `Vary: Accept` on page paths
 * either way, since both answers are cacheable. Returns whether it answered.
 */
export async function answerErrorPage(
  req: IncomingMessage, res: ServerResponse, error: ProblemError, instance: string,
  render: (req: IncomingMessage, res: ServerResponse, next: () => void, locals: object) => Promise<void>, locals: App.Locals,
): Promise<boolean> {
  const pathname = (req.url ?? '/').split('?')[0]!;
  if (isApiPath(pathname)) return false;
  res.setHeader('vary', 'Accept');
  const accept = req.headers.accept;
  if (!prefersHtml(pathname, Array.isArray(accept) ? accept.join(', ') : accept)) return false;
  req.url = errorPageRoute(pathname);
  let passed = false;
  await render(req, res, () => { passed = true; }, { ...locals, problem: { error, instance } });
  return !passed;
}
