// Which shard of page files a page is written to (docs/architecture.md, "Incremental builds"). A
// snapshot's pages are spread over a number of shards, each with its own three page files (bodies,
// br and gzip variants, layout.ts pageFileName), so that a rebuild in which every page of a shard
// is the previous snapshot's, same keys, same order, same bytes, hard-links that shard's files
// instead of writing them again (page-writer.ts). The rules, declared once:
//
// - **The shard of a page** is a function of its key alone: the FNV-1a hash of the resource the page
//   belongs to (the key's first three path segments, `/v1/videos/abc` for a video's page, its
//   `/playback` and `/comments`, so that a changed video changes one shard; a collection's own
//   pages, `/v1/videos?sort=...`, by their whole key, so its many list pages spread), modulo the
//   number of shards. Adding, changing or removing a page changes its own shard only, never the
//   others (a cut by cumulative bytes would move every later boundary).
// - **The number of shards** is a power of two from the number of videos (about 1,024 videos, so
//   ~3,000 pages, a shard), between MIN_SHARDS and MAX_SHARDS: 128 for 100,000 videos (a changed
//   page rewrites under 1% of the page bytes). A full and an
//   incremental build of the same catalogue choose the same number; a catalogue that crosses a
//   power of two rewrites every shard once.
/** Shards of even the smallest catalogue (a rebuild of it still rewrites only part of it). */
export const MIN_SHARDS = 8;
/** Shards at most: three files each, opened by the server for every snapshot it holds. */
export const MAX_SHARDS = 256;
/** Videos a shard holds the pages of, about. */
const VIDEOS_PER_SHARD = 1024;

/** The number of shards of a snapshot of `videos` videos. */
export function shardCountFor(videos: number): number {
  let shards = MIN_SHARDS;
  while (shards < MAX_SHARDS && shards * VIDEOS_PER_SHARD < videos) shards *= 2;
  return shards;
}

/** The part of a page's key that names its shard: the resource it belongs to (see above). */
export const shardKeyOf = (key: string): string => key.slice(0, shardKeyEnd(key));

/**
 * The 32-bit FNV-1a hash of a string's UTF-16 code units (computed in place: no buffer is made
 * for it, as a CRC-32 of the string's UTF-8 would, for each of 310,000 pages).
 */
export function hashKey(text: string, end = text.length): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** Where a key's shard part ends (see above): before its fourth `/`, else its whole length. */
function shardKeyEnd(key: string): number {
  let slashes = 0;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c === 63 /* ? */ || c === 35 /* # */) return key.length;
    if (c === 47 /* / */ && ++slashes === 4) return i;
  }
  return key.length;
}

/** The shard of page `key` among `shards` (a power of two). */
export const shardOf = (key: string, shards: number): number => hashKey(key, shardKeyEnd(key)) & (shards - 1);
