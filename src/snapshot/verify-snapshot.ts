// Verifies a snapshot before it is served (docs/reliability.md, "Snapshots"): the manifest's own
// SHA-256 must name the snapshot (its directory), the manifest must be of this format and built
// for the server's base URL, and every file it records must have its size (every shard's page
// files, layout.ts); the model, the search index and page files small enough to be held in memory
// are read whole and must have their SHA-256. Page files read from disk by range are checked a page at a time instead (CRC-32 on
// every read, page-files.ts). Runs on a worker thread in the server (snapshot-store.ts), which
// hands the bytes it verified to the main thread: the manifest (with the start of each page line,
// page-index.ts) at once, then the model and the search index one at a time when asked.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST_FILE, MODEL_FILE, PAGE_KINDS, pageFileName, pageFileNames, pageShardsOf, SEARCH_FILE, type PageKind } from './layout.ts';
import { MANIFEST_FORMAT, parseManifestHead, SNAPSHOT_ID_LENGTH, type FileRecord, type ManifestHead } from './manifest.ts';
import { indexManifestLines, type ManifestLines } from './page-index.ts';

/** A snapshot that must not be served; the message names the problem without a server path. */
export class SnapshotRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SnapshotRefused';
  }
}

/** A snapshot whose manifest is verified: what serving its prerendered pages needs. */
export interface VerifiedManifest {
  readonly head: ManifestHead;
  /** the manifest's bytes, hashed: the snapshot's id vouches for them */
  readonly manifest: Uint8Array;
  /** where its page lines start (page-index.ts) */
  readonly lines: ManifestLines;
  /** how many shards its pages are in (layout.ts) */
  readonly shards: number;
  /** the page files' bytes, by kind, a buffer a shard, when together they fit the memory budget; else read from disk by range */
  readonly pages: Readonly<Record<PageKind, Uint8Array[]>> | undefined;
  /** when the manifest was written (ms since the epoch) */
  readonly builtAt: number;
}

export interface VerifyOptions {
  /** page files up to this many bytes in all are read into memory (and hashed whole) */
  readonly cacheBytes: number;
  /** refuse a snapshot built for another base URL */
  readonly baseUrl?: string | undefined;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function readWhole(dir: string, name: string): Buffer {
  try {
    return readFileSync(join(dir, name));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new SnapshotRefused(code === 'ENOENT' ? `${name} is missing` : `${name} cannot be read (${code ?? 'read error'})`);
  }
}

function sizeOf(dir: string, name: string): number {
  try {
    return statSync(join(dir, name)).size;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new SnapshotRefused(code === 'ENOENT' ? `${name} is missing` : `${name} cannot be read (${code ?? 'read error'})`);
  }
}

/**
 * Verifies a snapshot's manifest and the sizes of all its files, and reads and hashes its page files
 * when they are to be held in memory. The model and search index are verified when they are read
 * (readVerifiedFile).
 */
export function verifyManifest(dir: string, id: string, options: VerifyOptions): VerifiedManifest {
  const manifest = readWhole(dir, MANIFEST_FILE);
  const newline = manifest.indexOf(10);
  const firstLine = manifest.toString('utf8', 0, newline === -1 ? manifest.length : newline);
  const format = /^\{"format":(\d+),/.exec(firstLine)?.[1];
  if (format !== String(MANIFEST_FORMAT)) {
    throw new SnapshotRefused(`it has format ${format ?? 'unknown'}, not ${MANIFEST_FORMAT}: rebuild it with npm run build`);
  }
  if (sha256(manifest).slice(0, SNAPSHOT_ID_LENGTH) !== id) {
    throw new SnapshotRefused(`${MANIFEST_FILE} does not match the snapshot's id (damaged, changed or partly copied)`);
  }
  let head: ManifestHead;
  try {
    head = parseManifestHead(firstLine);
  } catch {
    throw new SnapshotRefused(`${MANIFEST_FILE} has no readable head`);
  }
  if (options.baseUrl !== undefined && head.baseUrl !== options.baseUrl) {
    throw new SnapshotRefused(`it was built for ${head.baseUrl}, not for this server's ${options.baseUrl}: run npm run build with PUBLIC_BASE_URL=${options.baseUrl}`);
  }
  const shards = pageShardsOf(head.files);
  if (shards === 0) throw new SnapshotRefused(`${MANIFEST_FILE} records no page files`);
  // Sizes first, for every file: a truncated copy is refused before anything large is read.
  const pageNames = pageFileNames(shards);
  const names = [...pageNames, MODEL_FILE, ...(head.files[SEARCH_FILE] ? [SEARCH_FILE] : [])];
  for (const name of names) {
    const size = sizeOf(dir, name);
    if (size !== recordOf(head, name).size) {
      throw new SnapshotRefused(`${name} holds ${size} bytes, not the ${recordOf(head, name).size} the manifest records (truncated or partly copied)`);
    }
  }
  let lines: ManifestLines;
  try {
    lines = indexManifestLines(manifest);
  } catch {
    throw new SnapshotRefused(`${MANIFEST_FILE} holds a line that is not a page`);
  }
  if (lines.starts.length !== head.counts['pages']) {
    throw new SnapshotRefused(`the manifest lists ${lines.starts.length} pages, not the ${head.counts['pages']} it counts`);
  }
  const pageBytes = pageNames.reduce((sum, name) => sum + recordOf(head, name).size, 0);
  const pages = pageBytes <= options.cacheBytes
    ? Object.fromEntries(PAGE_KINDS.map((kind) => [kind, Array.from({ length: shards }, (_, shard) => readVerifiedFile(dir, pageFileName(kind, shard), head))])) as unknown as Record<PageKind, Uint8Array[]>
    : undefined;
  return { head, manifest, lines, shards, pages, builtAt: statSync(join(dir, MANIFEST_FILE)).mtimeMs };
}

function recordOf(head: ManifestHead, name: string): FileRecord {
  const r = head.files[name];
  if (!r) throw new SnapshotRefused(`${MANIFEST_FILE} does not record ${name}`);
  return r;
}

/** A file of the snapshot read whole; refused unless it has the size and SHA-256 the manifest records. */
export function readVerifiedFile(dir: string, name: string, head: ManifestHead): Buffer {
  const bytes = readWhole(dir, name);
  const record = recordOf(head, name);
  if (bytes.length !== record.size) {
    throw new SnapshotRefused(`${name} holds ${bytes.length} bytes, not the ${record.size} the manifest records (truncated or partly copied)`);
  }
  if (sha256(bytes) !== record.sha256) throw new SnapshotRefused(`${name} does not match the SHA-256 the manifest records (damaged or changed)`);
  return bytes;
}
