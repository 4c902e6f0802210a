// /sitemaps/{file}.xml: generated from the model (src/site/site-files.ts); 404 for anything else.
import type { APIRoute } from 'astro';
import { serveSiteFile } from '../../server/astro-routes.ts';

export const GET: APIRoute = ({ request, locals }) => serveSiteFile(request, locals);
