// Verifies a snapshot before it is served (docs/reliability.md, "Snapshots"): the manifest's own
// SHA-256 must name the snapshot (its directory), the manifest must be of this format and built
// for the server's base URL, and every file it records must have its size; the model, the search
// index and page files small enough to be held in memory are read whole and must have their
// SHA-256. Page files read from disk by range are checked a page at a time instead (CRC-32 on
// every read, page-files.ts). Runs on a worker thread in the server (snapshot-store.ts), which
// then reads the manifest, model and search index itself, a file at a time, and checks each
// file's length again.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST_FILE, MODEL_FILE, PAGE_FILES, SEARCH_FILE } from './layout.ts';
import { MANIFEST_FORMAT, parseManifestHead, SNAPSHOT_ID_LENGTH, type ManifestHead } from './manifest.ts';
import { hashFile } from './page-files.ts';

/** A snapshot that must not be served; the message names the problem without a server path. */
export class SnapshotRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SnapshotRefused';
  }
}

export interface VerifiedFiles {
  readonly head: ManifestHead;
  /** the page files' bytes, when together they fit the memory budget; else read from disk by range */
  readonly pages: Readonly<Record<keyof typeof PAGE_FILES, Uint8Array>> | undefined;
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

export function verifySnapshot(dir: string, id: string, options: VerifyOptions): VerifiedFiles {
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
  const record = (name: string) => {
    const r = head.files[name];
    if (!r) throw new SnapshotRefused(`${MANIFEST_FILE} does not record ${name}`);
    return r;
  };
  // Sizes first, for every file: a truncated copy is refused before anything large is read.
  const names = [...Object.values(PAGE_FILES), MODEL_FILE, ...(head.files[SEARCH_FILE] ? [SEARCH_FILE] : [])];
  for (const name of names) {
    const size = sizeOf(dir, name);
    if (size !== record(name).size) {
      throw new SnapshotRefused(`${name} holds ${size} bytes, not the ${record(name).size} the manifest records (truncated or partly copied)`);
    }
  }
  const mismatch = (name: string) => new SnapshotRefused(`${name} does not match the SHA-256 the manifest records (damaged or changed)`);
  const held = (name: string): Buffer => {
    const bytes = readWhole(dir, name);
    if (bytes.length !== record(name).size || sha256(bytes) !== record(name).sha256) throw mismatch(name);
    return bytes;
  };
  const hashed = (name: string): void => {
    let file: { size: number; sha256: string };
    try {
      file = hashFile(join(dir, name));
    } catch (error) {
      throw new SnapshotRefused(`${name} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'read error'})`);
    }
    if (file.size !== record(name).size || file.sha256 !== record(name).sha256) throw mismatch(name);
  };
  hashed(MODEL_FILE);
  if (head.files[SEARCH_FILE]) hashed(SEARCH_FILE);
  const pageBytes = Object.values(PAGE_FILES).reduce((sum, name) => sum + record(name).size, 0);
  const pages = pageBytes <= options.cacheBytes
    ? { body: held(PAGE_FILES.body), br: held(PAGE_FILES.br), gzip: held(PAGE_FILES.gzip) }
    : undefined;
  return { head, pages, builtAt: statSync(join(dir, MANIFEST_FILE)).mtimeMs };
}
