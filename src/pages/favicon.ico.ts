// /favicon.ico: the site's icon (src/site/png.ts) at 16, 32 and 48 pixels, for clients that ask for
// it by name; pages carry it inline (src/site.ts SITE_ICON).
import type { APIRoute } from 'astro';
import { finishDocument } from '../server/astro-routes.ts';
import { icoOf, iconPng } from '../site/png.ts';

const ICO = icoOf([16, 32, 48].map((size) => ({ size, png: iconPng(size) })));

export const GET: APIRoute = ({ request }) => finishDocument(ICO, 'image/x-icon', request);
