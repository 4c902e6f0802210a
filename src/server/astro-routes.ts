// The adapter between Astro's on-demand routes (src/pages) and the endpoints: a route file is one
// line, `export const GET = serveEndpoint(listVideos)`. The request context (model, snapshot)
// arrives in `locals` from our node:http server.
import type { APIRoute } from 'astro';
import type { Context, Endpoint } from '../api/endpoint.ts';
import { runEndpoint, type Rendered } from '../api/respond.ts';
import { matchRoute } from '../api/routes.ts';
import { negotiate } from './negotiate.ts';

export interface Locals {
  readonly context: Context;
}

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
    const { context } = locals as unknown as Locals;
    const match = matchRoute(url.pathname);
    const rendered = runEndpoint(endpoint, match?.endpoint === endpoint ? match.params : {}, url, context);
    return toResponse(rendered, request);
  };
}
