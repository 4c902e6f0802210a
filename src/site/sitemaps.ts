// Sitemaps (sitemaps.org protocol 0.9, Google's video extension 1.1), generated from the model
// (docs/decisions.md, "Sitemaps and feeds"): an index at /sitemap.xml naming the page sitemaps
// (/sitemaps/pages-N.xml: home, channels, public playlists) and the video sitemaps
// (/sitemaps/videos-N.xml: every public video, oldest first, so new videos land in the last file
// and the others keep their bytes). Unlisted and private videos and playlists are never listed.
// Limits hold by construction: a video sitemap holds at most VIDEOS_PER_SITEMAP entries whose
// text is bounded (MAX_VIDEO_ENTRY_BYTES), far under 50,000 URLs and 50 MB a file.
import type { Model, VideoEntry } from '../model/build-model.ts';
import { thumbnailAt } from '../model/thumbnail-sizes.ts';
import { clip, XML_DECLARATION, xmlText } from './xml.ts';

export const VIDEOS_PER_SITEMAP = 1_000;
export const PAGES_PER_SITEMAP = 50_000;
/** Google's bounds: a description of at most 2,048 characters, at most 32 tags, durations 1 s to 8 h. */
export const DESCRIPTION_CHARS = 2_048;
export const TAGS_PER_VIDEO = 32;
export const MAX_DURATION = 28_800;
/**
 * Upper bound of one video's entry in bytes: URLs of ids of at most 128 characters, a title of at
 * most 500 characters and a channel name of at most 100 (the import format's bounds), a clipped
 * description and tags, each character at most 6 bytes once escaped (tests/unit/site/sitemaps.test.ts).
 */
export const MAX_VIDEO_ENTRY_BYTES = 40_000;
/** The sitemaps protocol's limit for one file, uncompressed. */
export const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;

const NS_SITEMAP = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const NS_VIDEO = 'http://www.google.com/schemas/sitemap-video/1.1';

const ordered = new WeakMap<Model, readonly VideoEntry[]>();

/** Public videos, oldest first (ties by id): the order of the video sitemaps. */
export function sitemapVideos(model: Model): readonly VideoEntry[] {
  let list = ordered.get(model);
  if (!list) ordered.set(model, (list = [...model.orders.latest].reverse()));
  return list;
}

/** The site's pages other than watch pages: home, every channel, every public playlist. */
export function sitemapPages(model: Model): string[] {
  const pages = [`${model.urls.base}/`];
  for (const username of [...model.channels.keys()].sort()) pages.push(model.urls.channel(username));
  for (const entry of model.playlists.values()) {
    if (entry.playlist.privacy === 'public') pages.push(`${model.urls.base}/playlists/${encodeURIComponent(entry.playlist.id)}`);
  }
  return pages;
}

const fileCount = (items: number, per: number) => Math.max(1, Math.ceil(items / per));

/** The sitemap index: every page and video sitemap, each with the newest change it holds. */
export function sitemapIndex(model: Model): string {
  const { base } = model.urls;
  const parts = [XML_DECLARATION, `<sitemapindex xmlns="${NS_SITEMAP}">\n`];
  const pageFiles = fileCount(sitemapPages(model).length, PAGES_PER_SITEMAP);
  for (let n = 1; n <= pageFiles; n++) parts.push(`<sitemap><loc>${base}/sitemaps/pages-${n}.xml</loc></sitemap>\n`);
  const videos = sitemapVideos(model);
  const videoFiles = fileCount(videos.length, VIDEOS_PER_SITEMAP);
  for (let n = 1; n <= videoFiles; n++) {
    let newest = '';
    for (const entry of videos.slice((n - 1) * VIDEOS_PER_SITEMAP, n * VIDEOS_PER_SITEMAP)) {
      const changed = entry.video.updatedAt ?? entry.video.publishedAt;
      if (changed > newest) newest = changed;
    }
    parts.push(`<sitemap><loc>${base}/sitemaps/videos-${n}.xml</loc>${newest && `<lastmod>${newest}</lastmod>`}</sitemap>\n`);
  }
  parts.push('</sitemapindex>\n');
  return parts.join('');
}

/** Page sitemap `n` (from 1), or undefined past the last. */
export function pageSitemap(model: Model, n: number): string | undefined {
  const pages = sitemapPages(model);
  if (!Number.isInteger(n) || n < 1 || n > fileCount(pages.length, PAGES_PER_SITEMAP)) return undefined;
  const parts = [XML_DECLARATION, `<urlset xmlns="${NS_SITEMAP}">\n`];
  for (const url of pages.slice((n - 1) * PAGES_PER_SITEMAP, n * PAGES_PER_SITEMAP)) parts.push(`<url><loc>${xmlText(url)}</loc></url>\n`);
  parts.push('</urlset>\n');
  return parts.join('');
}

/**
 * One video's `<url>` entry with its `<video:video>` facts. The watch and embed URLs and the creator
 * are the ones its resource shows (resources.ts toVideo: `urls.watch`, `urls.embed`, the entry's
 * creator), taken without making the whole resource: a build renders about a thousand entries a
 * changed video sitemap (docs/performance.md, "The 1% rebuild at 15 s").
 */
export function videoEntryXml(model: Model, entry: VideoEntry): string {
  const { video } = entry;
  const { urls } = model;
  const creator = entry.creator;
  const description = video.description?.trim() || `${video.title}, a video by ${creator.displayName ?? video.channel}.`;
  const thumbnail = video.thumbnailUrl ?? thumbnailAt(urls, video.id, 'maxres').url;
  let xml = `<url><loc>${xmlText(urls.watch(video.id))}</loc><lastmod>${video.updatedAt ?? video.publishedAt}</lastmod><video:video>
<video:thumbnail_loc>${xmlText(thumbnail)}</video:thumbnail_loc>
<video:title>${xmlText(video.title)}</video:title>
<video:description>${xmlText(clip(description, DESCRIPTION_CHARS))}</video:description>
<video:player_loc>${xmlText(urls.embed(video.id))}</video:player_loc>
`;
  if (video.duration !== undefined && video.duration >= 1 && video.duration <= MAX_DURATION) xml += `<video:duration>${video.duration}</video:duration>\n`;
  xml += `<video:view_count>${video.views}</video:view_count>
<video:publication_date>${video.publishedAt}</video:publication_date>
<video:family_friendly>${video.features.restricted ? 'no' : 'yes'}</video:family_friendly>
`;
  const { tags } = video;
  for (let i = 0; i < tags.length && i < TAGS_PER_VIDEO; i++) xml += `<video:tag>${xmlText(tags[i]!)}</video:tag>\n`;
  if (creator.displayName) {
    const info = creator.channelUrl ? ` info="${xmlText(creator.channelUrl)}"` : '';
    xml += `<video:uploader${info}>${xmlText(creator.displayName)}</video:uploader>\n`;
  }
  return `${xml}<video:live>no</video:live></video:video></url>\n`;
}

/** The videos of video sitemap `n` (from 1), or undefined past the last. */
export function videoSitemapEntries(model: Model, n: number): readonly VideoEntry[] | undefined {
  const videos = sitemapVideos(model);
  if (!Number.isInteger(n) || n < 1 || n > fileCount(videos.length, VIDEOS_PER_SITEMAP)) return undefined;
  return videos.slice((n - 1) * VIDEOS_PER_SITEMAP, n * VIDEOS_PER_SITEMAP);
}

/**
 * Video sitemap `n` (from 1) in pieces (the head, each video's entry, the tail), or undefined past
 * the last: made from its videos' entries alone (site-files.ts keys it by them).
 */
export function videoSitemapPieces(model: Model, n: number): string[] | undefined {
  const entries = videoSitemapEntries(model, n);
  if (entries === undefined) return undefined;
  const parts = [`${XML_DECLARATION}<urlset xmlns="${NS_SITEMAP}" xmlns:video="${NS_VIDEO}">\n`];
  for (const entry of entries) parts.push(videoEntryXml(model, entry));
  parts.push('</urlset>\n');
  return parts;
}

/** Video sitemap `n` (from 1), or undefined past the last. */
export function videoSitemap(model: Model, n: number): string | undefined {
  return videoSitemapPieces(model, n)?.join('');
}
