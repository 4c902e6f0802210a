// What the site's pages tell social sites (Open Graph, X/Twitter cards): a raster picture with
// its size and a text alternative (no social site renders SVG), and the site's X account
// (TWITTER_SITE, validated at start by src/config.ts).
import type { Video } from '../model/schemas.ts';
import { TWITTER_HANDLE } from '../config.ts';
import { SITE_NAME } from '../lib/site.ts';

export interface SocialImage {
  readonly url: string;
  readonly width?: number | undefined;
  readonly height?: number | undefined;
  readonly alt: string;
}

/** The site's own card picture (src/pages/og-image.png.ts), for pages without a picture of their own. */
export const SITE_IMAGE_SIZE = { width: 1280, height: 720 } as const;
export const siteImage = (base: string): SocialImage => ({ url: `${base}/og-image.png`, ...SITE_IMAGE_SIZE, alt: `${SITE_NAME} logo` });

/** A video's picture for cards: the generated 1280×720 PNG, or the catalogue's own (size unknown). */
export function socialImageOf(video: Video): SocialImage {
  const alt = `Thumbnail of “${video.title}”`;
  const maxres = video.thumbnails?.maxres;
  return maxres ? { url: maxres.url, width: maxres.width, height: maxres.height, alt } : { url: video.thumbnailUrl, alt };
}

/** The site's X handle for twitter:site, when TWITTER_SITE names one. */
export function twitterSite(env: Record<string, string | undefined> = process.env): string | undefined {
  const value = env['TWITTER_SITE'];
  return value && TWITTER_HANDLE.test(value) ? value : undefined;
}
