// The purge list covers the site's generated files too (sitemaps, Atom feeds: src/site/site-files.ts).
// They are answered from the model, not stored as pages, so each build records the ETag of every
// one in `site-files.json` (listed in the manifest, so the snapshot id covers it) and lists the
// files whose bytes changed, appeared or went since the served snapshot (docs/cdn.md, "Purging").
//
// A file with declared inputs (site-files.ts siteFileInputs: a video sitemap, a feed) is keyed by
// them like a page (page-inputs.ts): the SHA-256 of its facts as JSON and the input key of each
// video it lists, in order, recorded in `page-inputs.ndjson` under `site:<path>`. When the served
// snapshot recorded the same key for it (and may be reused: same build code), its ETag is carried
// from that snapshot's `site-files.json` (read only when it has the size and SHA-256 its manifest
// records) and the file is not rendered (docs/architecture.md, "Incremental builds").
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { etagFrom } from '../http/etag.ts';
import type { Model } from '../model/build-model.ts';
import { siteFileInputs, siteFileKeys, siteFilePieces } from '../site/site-files.ts';
import type { FileRecord } from './manifest.ts';
import { siteGroup, videoKeysOf, type PageInputs, type VideoKeys } from './page-inputs.ts';

export const SITE_FILES_FILE = 'site-files.json';

export type SiteFileStamps = ReadonlyMap<string, string>;

export interface StampOptions {
  /** every video's input key (page-inputs.ts computeVideoInputs): what a listed video's entry is made from */
  readonly videoInputs: PageInputs;
  /** videoKeysOf(model, videoInputs), when the caller has made them (the pages use them too) */
  readonly videoKeys?: VideoKeys | undefined;
  /** the served snapshot's input keys and stamps, when they may be carried (same build code) */
  readonly previous?: { readonly inputs: PageInputs; readonly stamps: SiteFileStamps } | undefined;
}

export interface SiteStamping {
  /** every site file's ETag by URL path, in code-unit order of the paths */
  readonly stamps: SiteFileStamps;
  /** the input key of every file with declared inputs, by group (`site:<path>`), for page-inputs.ndjson */
  readonly inputs: ReadonlyMap<string, string>;
  /** files rendered, and files whose ETag was carried from the served snapshot */
  readonly rendered: number;
  readonly carried: number;
}

/** Bytes encoded before they are hashed: a video sitemap is about a megabyte, so a few updates a file. */
const HASH_BLOCK = 1 << 20;
let scratch: Buffer | undefined;

/**
 * The ETag of the body that is the UTF-8 bytes of `pieces` one after the other (etag.ts etagOf of
 * that body), hashed piece by piece: a file's text is never joined, nor encoded whole. The pieces
 * are encoded one after the other into a block this module reuses, which is hashed when the next
 * piece may not fit (a UTF-16 code unit is at most 3 bytes of UTF-8), so each piece is encoded
 * once and its length is what the encoding wrote (no second pass to count its bytes).
 */
export function etagOfPieces(pieces: Iterable<string>): string {
  const hash = createHash('sha256');
  const block = (scratch ??= Buffer.allocUnsafe(HASH_BLOCK));
  let used = 0;
  let length = 0;
  for (const piece of pieces) {
    if (piece.length * 3 > HASH_BLOCK - used) {
      hash.update(block.subarray(0, used));
      length += used;
      used = 0;
      if (piece.length * 3 > HASH_BLOCK) {
        hash.update(piece, 'utf8');
        length += Buffer.byteLength(piece, 'utf8');
        continue;
      }
    }
    used += block.write(piece, used);
  }
  hash.update(block.subarray(0, used));
  length += used;
  const stamp = hash.digest().readUInt32BE(0);
  // contentStamp's rule: a stamp is never 0
  return etagFrom(stamp === 0 ? 1 : stamp, length);
}

/** The input key of the site file at `key`, or undefined when it has no declared inputs (always rendered). */
function inputKeyOf(model: Model, key: string, videoKeys: readonly (string | undefined)[]): string | undefined {
  const inputs = siteFileInputs(model, key);
  if (inputs === undefined) return undefined;
  // each listed video's key after a line feed, hashed as one string (a video sitemap lists a thousand)
  let listed = '';
  for (const entry of inputs.videos) {
    const video = videoKeys[entry.index];
    if (video === undefined) return undefined;
    listed += `\n${video}`;
  }
  return createHash('sha256').update(JSON.stringify(inputs.facts)).update(listed).digest('base64');
}

/**
 * The ETag of every site file: rendered, or carried from the served snapshot when the file's
 * inputs are the ones it recorded; the input keys to record.
 */
export function stampSiteFiles(model: Model, options: StampOptions): SiteStamping {
  const stamps = new Map<string, string>();
  const inputs = new Map<string, string>();
  const { previous } = options;
  let rendered = 0;
  let carried = 0;
  const videoKeys = options.videoKeys ?? videoKeysOf(model, options.videoInputs);
  for (const key of siteFileKeys(model)) {
    const group = siteGroup(key);
    const inputKey = inputKeyOf(model, key, videoKeys);
    if (inputKey !== undefined) inputs.set(group, inputKey);
    const etag = inputKey !== undefined && previous?.inputs.get(group) === inputKey ? previous.stamps.get(key) : undefined;
    if (etag !== undefined) {
      stamps.set(key, etag);
      carried++;
      continue;
    }
    const pieces = siteFilePieces(model, key);
    rendered++;
    if (pieces) stamps.set(key, etagOfPieces(pieces));
  }
  return {
    stamps: new Map([...stamps].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    inputs,
    rendered,
    carried,
  };
}

/** Writes the stamps as one JSON object and returns the file's record for the manifest. */
export function writeSiteFileStamps(dir: string, stamps: SiteFileStamps): FileRecord {
  const bytes = Buffer.from(`${JSON.stringify(Object.fromEntries(stamps))}\n`);
  writeFileSync(join(dir, SITE_FILES_FILE), bytes);
  return { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/**
 * The stamps a snapshot recorded, or undefined when it has none (built before site files were
 * stamped), they cannot be read, or (when `recorded` is given) the file is not the one its manifest
 * records (size and SHA-256): then every site file is listed as changed, and none is carried.
 */
export function readSiteFileStamps(dir: string | undefined, recorded?: FileRecord): SiteFileStamps | undefined {
  if (dir === undefined) return undefined;
  try {
    const bytes = readFileSync(join(dir, SITE_FILES_FILE));
    if (recorded !== undefined && (bytes.length !== recorded.size || createHash('sha256').update(bytes).digest('hex') !== recorded.sha256)) return undefined;
    const parsed: unknown = JSON.parse(bytes.toString('utf8'));
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
    const entries = Object.entries(parsed);
    return entries.every(([, etag]) => typeof etag === 'string') ? new Map(entries as [string, string][]) : undefined;
  } catch {
    return undefined;
  }
}

/** The paths whose file changed, appeared or went, in code-unit order. */
export function diffSiteFiles(previous: SiteFileStamps | undefined, next: SiteFileStamps): string[] {
  const changed = new Set<string>();
  for (const [key, etag] of next) if (previous?.get(key) !== etag) changed.add(key);
  if (previous) for (const key of previous.keys()) if (!next.has(key)) changed.add(key);
  return [...changed].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
