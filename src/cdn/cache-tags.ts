// Purge by tag (docs/cdn.md, "Purging"): every prerendered answer names what it holds in
// `Cache-Tag` (Cloudflare, comma-separated) and `Surrogate-Key` (Fastly, space-separated), so a CDN
// can drop every cached form of it (each encoding, each spelling of its URL) in one call. Tags are
// a pure function of the page's URL, so `npm run changes -- --tags` derives the changed tags from
// the changed URLs with the same function:
//
//   /v1/videos/abc, /v1/videos/abc/comments, …       → api video:abc
//   /v1/channels/pycon, /v1/channels/pycon/videos?…   → api channel:pycon (+ its list tags)
//   /v1/playlists/p1, /v1/playlists/p1/videos?…       → api playlist:p1 (+ its list tags)
//   /v1/videos?sort=latest&limit=20&cursor=…          → api list:/v1/videos list:/v1/videos?sort=latest
//   /v1/videos/batch?ids=a,b                          → api video:a video:b
//   /oembed?url=…/watch/abc…                          → api oembed video:abc
//
// A list has two tags: its path (every query of it) and its query without the paging position
// (cursor, offset, limit: every page of that query). `api` names every prerendered answer.
// Providers' limits (Cloudflare: a tag ≤ 1,024 characters, ≤ 16 KB of tags per answer, case
// ignored; Fastly: a key ≤ 1,024 bytes, ≤ 16 KB per header): a page has at most five tags, each
// printable ASCII without space or comma, and one longer than MAX_TAG_LENGTH is shortened to its
// start and a hash. Cloudflare ignores case: two ids differing only by case share a purge (more is
// purged, never less).
import { createHash } from 'node:crypto';
import { MAX_BATCH } from '../api/handlers/batch-videos.ts';
import { matchRoute } from '../api/routes.ts';

export const ALL_TAG = 'api';
export const MAX_TAG_LENGTH = 1024;
/** query parameters that only say where in a list a page is */
const PAGING = new Set(['cursor', 'offset', 'limit']);

/** A tag as providers accept it: no space, comma or control character, at most MAX_TAG_LENGTH. */
function safeTag(tag: string): string {
  const clean = tag.replace(/[^\x21-\x7e]|,/g, (c) => encodeURIComponent(c));
  if (clean.length <= MAX_TAG_LENGTH) return clean;
  const hash = createHash('sha256').update(clean).digest('hex').slice(0, 16);
  return `${clean.slice(0, MAX_TAG_LENGTH - 17)}#${hash}`;
}

/** The canonical form of a target when it names a prerendered answer the way a client may spell it differently. */
function canonicalTarget(target: string): string {
  const url = new URL(`http://origin.invalid${target.startsWith('/') ? target : `/${target}`}`);
  const route = matchRoute(url.pathname);
  if (!route) return url.pathname + url.search;
  try {
    return route.endpoint.canonical(route.endpoint.parse(route.params, url.searchParams));
  } catch {
    return url.pathname + url.search;
  }
}

function listTags(path: string, query: URLSearchParams): string[] {
  const kept = [...query].filter(([name]) => !PAGING.has(name)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const search = new URLSearchParams(kept).toString();
  return [`list:${path}`, ...(search ? [`list:${path}?${search}`] : [])];
}

/** What a page holds, as tags, from its URL (path and query; canonical or not). */
export function cacheTagsOf(target: string): string[] {
  let url: URL;
  try {
    url = new URL(`http://origin.invalid${canonicalTarget(target)}`);
  } catch {
    return [ALL_TAG];
  }
  const path = url.pathname;
  const segments = path.split('/').slice(1).map((s) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  });
  const tags = [ALL_TAG];
  if (segments[0] === 'oembed') {
    tags.push('oembed');
    const inner = url.searchParams.get('url');
    if (inner) {
      try {
        // a video's page or player: {base}/watch/{id}, {base}/embed/{id}
        const id = /\/(?:watch|embed)\/([^/]+)\/?$/.exec(new URL(inner).pathname)?.[1];
        if (id) tags.push(`video:${decodeURIComponent(id)}`);
      } catch {
        // not a URL: the oembed tag alone
      }
    }
    return [...new Set(tags)].map(safeTag);
  }
  const [version, kind, id, sub] = segments;
  if (version === 'v1' && kind === 'videos' && id === 'batch') {
    // the videos it holds (at most MAX_BATCH ids, so the tags stay far below 16 KB)
    for (const one of (url.searchParams.get('ids') ?? '').split(',').slice(0, MAX_BATCH)) if (one) tags.push(`video:${one}`);
  } else if (version === 'v1' && id !== undefined && id !== '') {
    const owner = kind === 'videos' ? 'video' : kind === 'channels' ? 'channel' : kind === 'playlists' ? 'playlist' : undefined;
    if (owner) tags.push(`${owner}:${id}`);
    if (sub !== undefined) tags.push(...listTags(path, url.searchParams));
  } else if (version === 'v1' && kind !== undefined) {
    tags.push(...listTags(path, url.searchParams));
  }
  return [...new Set(tags)].map(safeTag);
}

/** The purge-by-tag headers of a prerendered page, as name, value pairs. */
export function cacheTagHeaders(target: string): [string, string][] {
  const tags = cacheTagsOf(target);
  return [['cache-tag', tags.join(',')], ['surrogate-key', tags.join(' ')]];
}

/**
 * The tags to purge after a build (npm run changes -- --tags): those of each changed URL, once each,
 * sorted, without `api` (which names every answer). `baseUrl` (the snapshot's PUBLIC_BASE_URL) is
 * an origin, never a path under one (src/config.ts refuses a path: docs/decisions.md, "Served at
 * the root of its origin"), so a URL's target is its path and query, as cacheTagsOf reads it.
 */
export function changedTags(urls: readonly string[], baseUrl: string): string[] {
  const tags = new Set<string>();
  for (const url of urls) {
    const { pathname, search } = new URL(url, baseUrl);
    for (const tag of cacheTagsOf(pathname + search)) if (tag !== ALL_TAG) tags.add(tag);
  }
  return [...tags].sort();
}
