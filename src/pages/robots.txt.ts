// /robots.txt: every page may be crawled; the sitemap index names every public page and video
// (src/site/sitemaps.ts). Player pages are for embedding, not for search results.
import type { APIRoute } from 'astro';
import { finishDocument } from '../server/astro-routes.ts';

export const GET: APIRoute = ({ request, locals }) => {
  const { base } = locals.context.model.urls;
  const body = `User-agent: *\nAllow: /\nDisallow: /embed/\n\nSitemap: ${base}/sitemap.xml\n`;
  return finishDocument(Buffer.from(body), 'text/plain; charset=utf-8', request);
};
