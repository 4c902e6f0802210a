// /og-image.png: the site's card picture (1280×720, the brand's colour and a play sign) for pages
// that have no picture of their own (src/site/social.ts).
import type { APIRoute } from 'astro';
import { finishDocument } from '../server/astro-routes.ts';
import { placeholderPng } from '../site/png.ts';
import { SITE_IMAGE_SIZE } from '../site/social.ts';

/** The hue of the brand's blue (#3451b2). */
const BRAND_HUE = 226;
let png: Buffer | undefined;

export const GET: APIRoute = ({ request }) => {
  png ??= placeholderPng(BRAND_HUE, SITE_IMAGE_SIZE.width, SITE_IMAGE_SIZE.height);
  return finishDocument(png, 'image/png', request);
};
