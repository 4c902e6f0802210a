// The adapter between Astro's on-demand routes (src/pages) and the endpoints: a route file is one
// line, `export const GET = serveEndpoint(listVideos)`. The request context (model, snapshot)
// arrives in `locals` from our node:http server.
import type { APIRoute } from 'astro';
import type { Endpoint } from '../api/endpoint.ts';
import { invalidParameters, ProblemError } from '../api/problems.ts';
import { CACHE_CONTROL, etagOf, renderProblem, runEndpoint, type Rendered } from '../api/respond.ts';
import { matchRoute } from '../api/routes.ts';
import { negotiate } from './negotiate.ts';

/** A web Response for a rendered answer, with conditional GET and on-demand compression. */
export function toResponse(rendered: Rendered, request: Request): Response {
  const headers = new Headers(rendered.headers);
  const etag = rendered.headers['etag'];
  if (etag === undefined || rendered.status !== 200) {
    headers.set('content-length', String(rendered.body.length));
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(rendered.body), { status: rendered.status, headers });
  }
  const chosen = negotiate({ identity: rendered.body }, etag, request.headers.get('accept-encoding') ?? undefined,
    request.headers.get('if-none-match') ?? undefined, true);
  headers.set('etag', chosen.etag);
  if (chosen.vary) headers.set('vary', 'Accept-Encoding');
  if (chosen.notModified) {
    headers.delete('content-type');
    return new Response(null, { status: 304, headers });
  }
  if (chosen.encoding) headers.set('content-encoding', chosen.encoding);
  headers.set('content-length', String(chosen.body.length));
  return new Response(new Uint8Array(chosen.body), { status: 200, headers });
}

export function serveEndpoint(endpoint: Endpoint<any>): APIRoute {
  return ({ request, url, locals }) => {
    const { context } = locals;
    const match = matchRoute(url.pathname);
    const rendered = runEndpoint(endpoint, match?.endpoint === endpoint ? match.params : {}, url, context);
    return toResponse(rendered, request);
  };
}

/** A problem answer for HTML routes (a bad parameter, a resource that does not exist). */
export function problemResponse(error: ProblemError, request: Request, locals: App.Locals): Response {
  const url = new URL(request.url);
  return toResponse(renderProblem(error, url.pathname + url.search, locals.context.model.urls), request);
}

/** A 404 problem for HTML routes whose resource does not exist. */
export function notFoundResponse(request: Request, locals: App.Locals): Response {
  return problemResponse(new ProblemError('not-found', `Nothing is at ${new URL(request.url).pathname}.`), request, locals);
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

/** Pages and images: a strong ETag, conditional GET and compression, like the JSON answers. */
export function finishDocument(body: Buffer, contentType: string, request: Request, extra: Record<string, string> = {}): Response {
  return toResponse({ status: 200, body, headers: { 'content-type': contentType, 'cache-control': CACHE_CONTROL.snapshot, etag: etagOf(body), ...extra } }, request);
}
