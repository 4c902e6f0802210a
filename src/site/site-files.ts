// The site's generated XML files by path (sitemaps, Atom feeds), answered from the model with the
// minutes of CDN caching every page outside the purge list gets (docs/decisions.md, "Sitemaps and
// feeds"), and remembered per model so a crawler's burst renders each file once. `siteFiles` lists
// them all, for a build that wants them as files.
import type { Model } from '../model/build-model.ts';
import { ATOM_TYPE, channelFeed, playlistFeed } from './feeds.ts';
import { pageSitemap, PAGES_PER_SITEMAP, sitemapIndex, sitemapPages, sitemapVideos, videoSitemap, VIDEOS_PER_SITEMAP } from './sitemaps.ts';

export const XML_TYPE = 'application/xml; charset=utf-8';

export interface SiteFile {
  /** the URL path, e.g. `/sitemaps/videos-1.xml` */
  readonly key: string;
  readonly body: Buffer;
  readonly contentType: string;
}

/** Files remembered per model: a few, since a video sitemap is about a megabyte. */
const REMEMBERED = 8;
const memo = new WeakMap<Model, Map<string, SiteFile | null>>();

function render(model: Model, key: string): SiteFile | undefined {
  const xml = (text: string | undefined, contentType = XML_TYPE) => (text === undefined ? undefined : { key, body: Buffer.from(text), contentType });
  if (key === '/sitemap.xml') return xml(sitemapIndex(model));
  let m = /^\/sitemaps\/(pages|videos)-([1-9]\d{0,6})\.xml$/.exec(key);
  if (m) return xml((m[1] === 'pages' ? pageSitemap : videoSitemap)(model, Number(m[2])));
  m = /^\/feeds\/(channels|playlists)\/(.+)\.xml$/.exec(key);
  if (m) {
    let name: string;
    try { name = decodeURIComponent(m[2]!); } catch { return undefined; }
    if (m[1] === 'channels') {
      const channel = model.channels.get(name);
      return channel && xml(channelFeed(model, channel), ATOM_TYPE);
    }
    const playlist = model.playlists.get(name);
    return playlist && xml(playlistFeed(model, playlist), ATOM_TYPE);
  }
  return undefined;
}

/** The file at `key` (a URL path), or undefined when there is none. */
export function siteFile(model: Model, key: string): SiteFile | undefined {
  let files = memo.get(model);
  if (!files) memo.set(model, (files = new Map()));
  const known = files.get(key);
  if (known !== undefined) return known ?? undefined;
  const file = render(model, key);
  if (files.size >= REMEMBERED) files.delete(files.keys().next().value!);
  files.set(key, file ?? null);
  return file;
}

/** Every generated file of the site, one at a time. */
export function* siteFiles(model: Model): Generator<SiteFile> {
  const keys = ['/sitemap.xml'];
  for (let n = 1; n <= Math.max(1, Math.ceil(sitemapPages(model).length / PAGES_PER_SITEMAP)); n++) keys.push(`/sitemaps/pages-${n}.xml`);
  for (let n = 1; n <= Math.max(1, Math.ceil(sitemapVideos(model).length / VIDEOS_PER_SITEMAP)); n++) keys.push(`/sitemaps/videos-${n}.xml`);
  for (const username of model.channels.keys()) keys.push(`/feeds/channels/${encodeURIComponent(username)}.xml`);
  for (const [id, entry] of model.playlists) if (entry.playlist.privacy === 'public') keys.push(`/feeds/playlists/${encodeURIComponent(id)}.xml`);
  for (const key of keys) {
    const file = render(model, key);
    if (file) yield file;
  }
}
