// Astro middleware: HTML pages rendered by Astro get the same validators and compression as the
// JSON answers (strong ETag, 304, br/gzip), so every 200 carries a strong ETag (CONTRACT §6).
import { defineMiddleware } from 'astro:middleware';
import { finishDocument } from './server/astro-routes.ts';

export const onRequest = defineMiddleware(async (context, next) => {
  const response = await next();
  const type = response.headers.get('content-type') ?? '';
  if (response.status !== 200 || response.headers.has('etag') || !type.startsWith('text/html')) return response;
  const body = Buffer.from(await response.arrayBuffer());
  const extra: Record<string, string> = {};
  const robots = response.headers.get('x-robots-tag');
  if (robots) extra['x-robots-tag'] = robots;
  return finishDocument(body, 'text/html; charset=utf-8', context.request, extra);
});
