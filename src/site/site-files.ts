// The site's generated XML files by path (sitemaps, Atom feeds), answered from the model with the
// minutes of CDN caching every page outside the purge list gets (docs/decisions.md, "Sitemaps and
// feeds"), and remembered per model so a crawler's burst renders each file once. `siteFiles` lists
// them all, for a build that wants them as files; `siteFileInputs` says what a file is made from,
// so that a build renders only the files whose inputs changed (src/snapshot/site-file-stamps.ts).
import type { Model, VideoEntry } from '../model/build-model.ts';
import { ATOM_TYPE, channelFeedParts, feedPieces, playlistFeedParts, type FeedParts } from './feeds.ts';
import { pageSitemap, PAGES_PER_SITEMAP, sitemapIndex, sitemapPages, sitemapVideos, videoSitemapEntries, videoSitemapPieces, VIDEOS_PER_SITEMAP } from './sitemaps.ts';

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

/** The parts of the feed at `/feeds/{kind}/{name}.xml`, or undefined when there is none. */
function feedParts(model: Model, kind: string, encoded: string): FeedParts | undefined {
  let name: string;
  try { name = decodeURIComponent(encoded); } catch { return undefined; }
  if (kind === 'channels') {
    const channel = model.channels.get(name);
    return channel && channelFeedParts(model, channel);
  }
  const playlist = model.playlists.get(name);
  return playlist && playlistFeedParts(model, playlist);
}

const FEED_PATH = /^\/feeds\/(channels|playlists)\/(.+)\.xml$/;
const VIDEO_SITEMAP_PATH = /^\/sitemaps\/videos-([1-9]\d{0,6})\.xml$/;

/** The file at `key` as pieces of text to join, and its type; undefined when there is none. */
function piecesOf(model: Model, key: string): { pieces: readonly string[]; contentType: string } | undefined {
  const xml = (pieces: readonly string[] | undefined, contentType = XML_TYPE) => (pieces === undefined ? undefined : { pieces, contentType });
  const one = (text: string | undefined) => (text === undefined ? undefined : [text]);
  if (key === '/sitemap.xml') return xml([sitemapIndex(model)]);
  let m = /^\/sitemaps\/pages-([1-9]\d{0,6})\.xml$/.exec(key);
  if (m) return xml(one(pageSitemap(model, Number(m[1]))));
  m = VIDEO_SITEMAP_PATH.exec(key);
  if (m) return xml(videoSitemapPieces(model, Number(m[1])));
  m = FEED_PATH.exec(key);
  const parts = m ? feedParts(model, m[1]!, m[2]!) : undefined;
  return parts && xml(feedPieces(model, parts), ATOM_TYPE);
}

function render(model: Model, key: string): SiteFile | undefined {
  const file = piecesOf(model, key);
  return file && { key, body: Buffer.from(file.pieces.join('')), contentType: file.contentType };
}

/**
 * The text of the file at `key` in pieces whose UTF-8 bytes, one after the other, are its body
 * (each piece ends between two characters, never inside a surrogate pair); undefined when there is
 * none. The build hashes them as they come (site-file-stamps.ts), without joining a file's text.
 */
export const siteFilePieces = (model: Model, key: string): readonly string[] | undefined => piecesOf(model, key)?.pieces;

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

/** The URL path of every generated file of the site, in the order they are listed. */
export function siteFileKeys(model: Model): string[] {
  const keys = ['/sitemap.xml'];
  for (let n = 1; n <= Math.max(1, Math.ceil(sitemapPages(model).length / PAGES_PER_SITEMAP)); n++) keys.push(`/sitemaps/pages-${n}.xml`);
  for (let n = 1; n <= Math.max(1, Math.ceil(sitemapVideos(model).length / VIDEOS_PER_SITEMAP)); n++) keys.push(`/sitemaps/videos-${n}.xml`);
  for (const username of model.channels.keys()) keys.push(`/feeds/channels/${encodeURIComponent(username)}.xml`);
  for (const [id, entry] of model.playlists) if (entry.playlist.privacy === 'public') keys.push(`/feeds/playlists/${encodeURIComponent(id)}.xml`);
  return keys;
}

/** Every generated file of the site, one at a time. */
export function* siteFiles(model: Model): Generator<SiteFile> {
  for (const key of siteFileKeys(model)) {
    const file = render(model, key);
    if (file) yield file;
  }
}

/**
 * What a file is made from, when it is made from declared inputs alone (the rule the build keys it
 * by: docs/architecture.md, "Incremental builds"): `facts`, plain data that the file's bytes are
 * a function of together with the `videos` it lists, in order, each shown from its own record and
 * its channel's alone (the entry of a video sitemap, of a feed). Video sitemaps and feeds have
 * such inputs; the sitemap index and the page sitemaps (made from every video's date, every channel
 * and playlist: cheap to render) return undefined and are always rendered.
 */
export interface SiteFileInputs {
  readonly facts: unknown;
  readonly videos: readonly VideoEntry[];
}

export function siteFileInputs(model: Model, key: string): SiteFileInputs | undefined {
  let m = VIDEO_SITEMAP_PATH.exec(key);
  if (m) {
    const videos = videoSitemapEntries(model, Number(m[1]));
    return videos && { facts: 'video sitemap', videos };
  }
  m = FEED_PATH.exec(key);
  const parts = m ? feedParts(model, m[1]!, m[2]!) : undefined;
  return parts && { facts: [m![1], parts.facts], videos: parts.entries };
}
