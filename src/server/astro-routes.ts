// Helpers for Astro's on-demand pages (src/pages: HTML pages and generated pictures): responses with
// a strong ETag, conditional GET and compression, and problem answers. The request context (model,
// snapshot, live state) arrives in `locals` from our node:http server, which answers the API
// endpoints itself (http-server.ts).
import { invalidParameters, ProblemError } from '../api/problems.ts';
import { CACHE_CONTROL, renderProblem, type Rendered } from '../api/respond.ts';
import { negotiateRendered } from '../http/negotiate.ts';
import { etagOf } from '../http/etag.ts';
import { siteFile } from '../site/site-files.ts';
import { errorPageRoute, isApiPath, prefersHtml } from '../site/negotiate-errors.ts';

/** Astro's `rewrite` (a page's `Astro.rewrite`, an endpoint's `context.rewrite`). */
type Rewrite = (path: string) => Promise<Response>;

/** A web Response for a rendered answer, with conditional GET and on-demand compression. */
export function toResponse(rendered: Rendered, request: Request): Response {
  const out = negotiateRendered(rendered, request.headers.get('accept-encoding') ?? undefined, request.headers.get('if-none-match') ?? undefined);
  const body = request.method === 'HEAD' || out.body === undefined ? null : new Uint8Array(out.body);
  return new Response(body, { status: out.status, headers: out.headers });
}

/**
 * A problem answer for HTML routes (a bad parameter, a resource that does not exist). Given the
 * route's `rewrite`, a browser gets the site's HTML error page with the same facts instead, and
 * both answers say they vary with Accept (src/site/negotiate-errors.ts, docs/decisions.md).
 */
export function problemResponse(error: ProblemError, request: Request, locals: App.Locals, rewrite?: Rewrite): Response | Promise<Response> {
  const url = new URL(request.url);
  const instance = url.pathname + url.search;
  if (rewrite && prefersHtml(url.pathname, request.headers.get('accept'))) {
    locals.problem = { error, instance };
    return rewrite(errorPageRoute(url.pathname));
  }
  const rendered = renderProblem(error, instance, locals.context.model.urls);
  return toResponse(rewrite && !isApiPath(url.pathname) ? { ...rendered, headers: { ...rendered.headers, vary: 'Accept' } } : rendered, request);
}

/** A 404 problem for HTML routes whose resource does not exist (an HTML page for browsers, given `rewrite`). */
export function notFoundResponse(request: Request, locals: App.Locals, rewrite?: Rewrite): Response | Promise<Response> {
  return problemResponse(new ProblemError('not-found', `Nothing is at ${new URL(request.url).pathname}.`), request, locals, rewrite);
}

/**
 * The `page` parameter of an HTML list (1 when absent), or a 400 problem naming it. Pages past
 * the end are refused too, so every page URL that answers 200 shows something.
 */
export function readPageNumber(request: Request, pages: number): number | ProblemError {
  const values = new URL(request.url).searchParams.getAll('page');
  if (values.length === 0) return 1;
  const last = Math.max(1, pages);
  const value = values.length === 1 && /^\d{1,9}$/.test(values[0]!) ? Number(values[0]) : 0;
  if (value >= 1 && value <= last) return value;
  return invalidParameters([{ parameter: 'page', detail: values.length > 1 ? 'is given more than once; give it once' : `must be an integer from 1 to ${last}` }]);
}

/**
 * Pages and images: a strong ETag, conditional GET and compression, like the JSON answers. They are
 * rendered on demand, so no purge list names them: CDNs keep them minutes, not a day (docs/cdn.md).
 */
export function finishDocument(body: Buffer, contentType: string, request: Request, extra: Record<string, string> = {}): Response {
  return toResponse({ status: 200, body, headers: { 'content-type': contentType, 'cache-control': CACHE_CONTROL.unlisted, etag: etagOf(body), ...extra } }, request);
}

/** A generated site file (sitemap, feed: src/site/site-files.ts) at the request's path, or a 404 problem. */
export function serveSiteFile(request: Request, locals: App.Locals): Response {
  const file = siteFile(locals.context.model, new URL(request.url).pathname);
  return file ? finishDocument(file.body, file.contentType, request) : notFoundResponse(request, locals) as Response;
}
