// GET /oembed (docs/api-contract.md §2): oEmbed 1.0 for a video, named by its watch or embed URL on this
// deployment, or by its id. `html` is an iframe of the hosted player, 16:9 inside maxwidth and
// maxheight (640 wide by default); every value inserted into it is escaped.
import { escapeMarkup } from '../../lib/markup.ts';
import type { Model } from '../../model/build-model.ts';
import { SITE_NAME } from '../../lib/site.ts';
import { defineEndpoint } from '../endpoint.ts';
import { OEMBED_WIDTH, OEmbedQuery } from '../params.ts';
import { invalidParameters, notFound, ProblemError } from '../problems.ts';
import { canonicalUrl, parseQuery } from '../query.ts';
import { IFRAME_ALLOW } from '../../player/protocol.ts';
import { OEmbed, type Video } from '../../model/schemas.ts';
import { THUMBNAIL_SIZE_NAMES } from '../../model/thumbnail-sizes.ts';
import { findVideo } from './lookup.ts';

/** The size given for a catalogue's own thumbnail, whose real size the import format does not carry. */
export const THUMBNAIL_SIZE = { width: 1280, height: 720 } as const;

/**
 * The thumbnail an answer names (oEmbed 1.0 §2.3.4: it respects maxwidth and maxheight): the
 * largest generated size inside both bounds (120 × 90 always is: maxwidth ≥ 200, maxheight ≥ 113),
 * or the catalogue's own picture, whose size is not known.
 */
export function thumbnailFor(video: Video, maxwidth: number | undefined, maxheight: number | undefined): { url: string; width: number; height: number } {
  if (!video.thumbnails) return { url: video.thumbnailUrl, ...THUMBNAIL_SIZE };
  const fitting = THUMBNAIL_SIZE_NAMES.map((size) => video.thumbnails![size])
    .filter((t) => t.width <= (maxwidth ?? Infinity) && t.height <= (maxheight ?? Infinity));
  return fitting.reduce((best, t) => (t.width * t.height > best.width * best.height ? t : best), video.thumbnails.default);
}
/** How long consumers may keep an answer, in seconds: as long as CDNs keep snapshot pages. */
export const OEMBED_CACHE_AGE = 86_400;

interface OEmbedParams {
  readonly url: string | undefined;
  readonly id: string | undefined;
  readonly maxwidth: number | undefined;
  readonly maxheight: number | undefined;
}

/** The largest 16:9 frame inside both bounds: width first, then narrowed to fit the height. */
export function frameSize(maxwidth: number | undefined, maxheight: number | undefined): { width: number; height: number } {
  let width = maxwidth ?? OEMBED_WIDTH.default;
  // the widest w with round(w × 9/16) ≤ maxheight, that is w × 9 < maxheight × 16 + 8
  if (maxheight !== undefined && Math.round((width * 9) / 16) > maxheight) width = Math.ceil((maxheight * 16 + 8) / 9) - 1;
  return { width, height: Math.round((width * 9) / 16) };
}

/**
 * The video id a URL names: `{base}/watch/{id}` or `{base}/embed/{id}`, query and fragment
 * ignored. A URL that is not absolute is a 400; one of another host or path, a 404.
 */
export function videoIdOfUrl(model: Model, url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidParameters([{ parameter: 'url', detail: 'must be an absolute URL, such as a video\'s watchUrl or embedUrl' }]);
  }
  const base = new URL(`${model.urls.base}/`);
  const notOurs = notFound(`${url.slice(0, 200)} is not the watch or embed URL of a video on ${base.origin}.`);
  if (parsed.origin !== base.origin || !parsed.pathname.startsWith(base.pathname)) throw notOurs;
  const match = /^(?:watch|embed)\/([^/]+)$/.exec(parsed.pathname.slice(base.pathname.length));
  if (!match) throw notOurs;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    throw notOurs;
  }
}

export const oembed = defineEndpoint<OEmbedParams>({
  name: 'oembed',
  path: '/oembed',
  query: OEmbedQuery,
  response: OEmbed,
  docs: {
    summary: 'oEmbed',
    description: "oEmbed 1.0 (`type: video`) for a video named by its watch or embed URL on this service (`url`) or its id (`id`): the player's iframe, 16:9 inside `maxwidth` and `maxheight` (640 wide by default). One of `url` and `id` is required (a request with neither is a 400); with both, they must name the same video (else a 400). `format=xml` is not provided (501).",
    tag: 'Embeds',
    problems: ['not-found', 'not-implemented'],
    mayBeUnlisted: true,
  },
  cache: 'snapshot',
  parse(_path, search) {
    const query = parseQuery(OEmbedQuery, search);
    if (query.format === 'xml') throw new ProblemError('not-implemented', 'format=xml is not provided: ask for format=json, or leave format out.');
    return { url: query.url, id: query.id, maxwidth: query.maxwidth, maxheight: query.maxheight };
  },
  canonical: (p) => canonicalUrl('/oembed', { id: p.id, maxheight: p.maxheight, maxwidth: p.maxwidth, url: p.url }),
  handle({ url, id, maxwidth, maxheight }, { model }) {
    const fromUrl = url === undefined ? undefined : videoIdOfUrl(model, url);
    if (fromUrl !== undefined && id !== undefined && fromUrl !== id) {
      throw invalidParameters([{ parameter: 'id', detail: `names the video "${id.slice(0, 200)}" but url names "${fromUrl.slice(0, 200)}": give one, or both for the same video` }]);
    }
    const entry = findVideo(model, (fromUrl ?? id)!);
    const video = entry.resource;
    const { width, height } = frameSize(maxwidth, maxheight);
    const attributes: [string, string][] = [
      ['src', video.embedUrl], ['width', String(width)], ['height', String(height)], ['title', video.title],
      ['frameborder', '0'], ['allow', IFRAME_ALLOW], ['loading', 'lazy'],
      ['referrerpolicy', 'strict-origin-when-cross-origin'],
    ];
    const html = `<iframe ${attributes.map(([name, value]) => `${name}="${escapeMarkup(value)}"`).join(' ')}></iframe>`;
    const creator = video.creator;
    const thumbnail = thumbnailFor(video, maxwidth, maxheight);
    const body: OEmbed = {
      version: '1.0',
      type: 'video',
      title: video.title,
      author_name: creator.displayName ?? creator.username ?? '',
      author_url: creator.channelUrl ?? model.urls.base,
      provider_name: SITE_NAME,
      provider_url: `${model.urls.base}/`,
      thumbnail_url: thumbnail.url,
      thumbnail_width: thumbnail.width,
      thumbnail_height: thumbnail.height,
      html,
      width,
      height,
      cache_age: OEMBED_CACHE_AGE,
    };
    return { body, noindex: entry.video.privacy === 'unlisted' };
  },
});
