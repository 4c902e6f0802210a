// /sitemap.xml: the sitemap index (src/site/sitemaps.ts), named in /robots.txt.
import type { APIRoute } from 'astro';
import { serveSiteFile } from '../server/astro-routes.ts';

export const GET: APIRoute = ({ request, locals }) => serveSiteFile(request, locals);
