// Astro middleware: HTML pages rendered by Astro get the same validators and compression as the
// JSON answers (strong ETag, 304, br/gzip), so every 200 carries a strong ETag (docs/api-contract.md §6), and
// the browser a site pass (a cookie admitting its API requests to the site lane, docs/decisions.md).
import { defineMiddleware } from 'astro:middleware';
import { finishDocument } from './server/astro-routes.ts';

/** headers a page may set that its finished response keeps */
const PASSED_ON = ['x-robots-tag', 'content-security-policy'] as const;

export const onRequest = defineMiddleware(async (context, next) => {
  const response = await next();
  const type = response.headers.get('content-type') ?? '';
  if (response.status !== 200 || response.headers.has('etag') || !type.startsWith('text/html')) return response;
  const body = Buffer.from(await response.arrayBuffer());
  const extra: Record<string, string> = {};
  for (const name of PASSED_ON) {
    const value = response.headers.get(name);
    if (value) extra[name] = value;
  }
  const pass = context.locals.sitePass?.();
  if (pass) extra['set-cookie'] = pass;
  return finishDocument(body, 'text/html; charset=utf-8', context.request, extra);
});
