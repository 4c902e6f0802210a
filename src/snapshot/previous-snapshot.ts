// What an incremental build reuses of the snapshot being served (docs/architecture.md,
// "Incremental builds"): its manifest's pages, read a line at a time into a page table
// (page-table.ts: on a worker thread during a build, startOpenPrevious) and only when the manifest
// hashes to the snapshot's id, and its page files (every
// shard's, layout.ts), read by range through page-files.ts (every read checks the range's CRC-32),
// or hard-linked whole by the page writer (page-writer.ts, after shard-check.ts). A page rendered anew whose
// bytes are exactly the previous snapshot's page of the same URL takes that page's br and gzip
// variants from the previous page files instead of being compressed again; the variants are only
// reused when the previous snapshot was built by the same build code (buildCodeId), so they are
// the bytes a compression now would give, and the output is byte-identical to a full build.
import { createHash } from 'node:crypto';
import { closeSync, existsSync, fstatSync, openSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MANIFEST_FILE, PAGE_KINDS, pageFileName, pageShardsOf, type PageKind } from './layout.ts';
import { Worker } from 'node:worker_threads';
import { workerUrl } from '../lib/worker-url.ts';
import { MANIFEST_FORMAT, parseManifestHead, SNAPSHOT_ID_LENGTH, type FileRecord, type ManifestHead, type PageEntry, type Range } from './manifest.ts';
import { parsePageLine } from './page-index.ts';
import { createPagePacker, PageTable, type PackedPages, type PagePacker } from './page-table.ts';
import { checksumOf, PageReadError, readExactly, shardedSource, type PageSource } from './page-files.ts';
import { CLOSE_BRACE } from './json-bytes.ts';
import { forEachByteLine } from '../lib/file-lines.ts';
import { sourceCodeId } from './build-bundle.mjs';

export type { PageKind };

export interface PreviousSnapshot {
  readonly id: string;
  readonly dir: string;
  /** its manifest's head: the files it records */
  readonly head: ManifestHead;
  /** every page of the previous snapshot, by canonical URL (for the purge list and for reuse) */
  readonly pages: ReadonlyMap<string, PageEntry>;
  /** its page files, or why they cannot be read from (missing, or not of the size recorded) */
  readonly files: PreviousPageFiles | string;
  /**
   * Where each page's line is in its manifest, read through the descriptor it was hashed through
   * (startOpenPrevious), so that the new manifest copies the lines of the pages it takes as they
   * were (write-manifest.ts); undefined when opened otherwise. Closed by the build.
   */
  readonly manifestLines?: ServedManifestLines | undefined;
}

/**
 * The served manifest's page lines as bytes of the open file: `breaks[i]` is where the newline
 * before page line i is (page numbers are the page table's, in the file's order), `breaks[count]`
 * the one before the closing line, so lines i to j, each with the newline before it, are the bytes
 * [breaks[i], breaks[j + 1]). The file's SHA-256 named the snapshot when it was read through `fd`.
 */
export interface ServedManifestLines {
  readonly fd: number;
  readonly breaks: Float64Array;
  close(): void;
}

export interface PreviousPageFiles {
  /** the snapshot's folder and id */
  readonly dir: string;
  readonly id: string;
  /** how many shards its pages are in */
  readonly shards: number;
  /** the size and SHA-256 of each of its files, as its manifest records them */
  readonly records: Readonly<Record<string, FileRecord>>;
  /** The bytes of a range of one of the page files (of the shard the range names); throws PageReadError when they are not the manifest's. */
  read(kind: PageKind, range: Range): Buffer;
  close(): void;
}

/**
 * The code id of the build that runs (build-bundle.mjs sourceCodeId: src/, the lock file, Node's
 * versions): the bundle's is the id of the sources it was made from, which bundle-build.ts writes
 * into it; from the sources, it is computed. The same sources give the same id either way, so a
 * snapshot the bundle built is reused by a build from the same sources and back.
 */
declare const BUNDLED_BUILD_CODE_ID: string | undefined;

export function buildCodeId(): string {
  return typeof BUNDLED_BUILD_CODE_ID === 'string' ? BUNDLED_BUILD_CODE_ID : sourceCodeId(fileURLToPath(new URL('../..', import.meta.url)));
}


/** A served manifest read for reuse: its head, its pages packed (page-table.ts) and where their lines are (ServedManifestLines). */
export interface ReadManifest {
  readonly head: ManifestHead;
  readonly packed: PackedPages;
  readonly breaks: Float64Array<ArrayBuffer>;
}

/**
 * Reads the manifest of the snapshot `id` in `dir` into a page table (page-table.ts), a line at a
 * time, hashing its bytes as they are read: a manifest whose SHA-256 does not name the snapshot
 * (changed, damaged or partly copied) is refused like one that cannot be parsed, so nothing of it is
 * reused. Returns why not instead when it cannot be used. Runs on a worker thread during a build
 * (startOpenPrevious), here when that fails.
 */
export function readManifestPages(dir: string, id: string, fd?: number): ReadManifest | string {
  const manifest = join(dir, MANIFEST_FILE);
  if (fd === undefined && !existsSync(manifest)) return 'it has no manifest';
  const hash = createHash('sha256');
  let head: ManifestHead | undefined;
  let closed = false;
  let packed: PackedPages;
  // where the newline before each page line is, then the one before the closing line
  let breaks = new Float64Array(1 << 16);
  let lines = 0;
  let packer: PagePacker | undefined;
  /** why the manifest is not used, found while its lines are read */
  let refused: string | undefined;
  try {
    forEachLine(fd ?? manifest, (chunk) => hash.update(chunk), (bytes, start, end, at, size) => {
      if (closed) throw new Error('it goes on after its closing line');
      if (head === undefined) {
        head = parseManifestHead(bytes.toString('utf8', start, end));
        if (head.format !== MANIFEST_FORMAT) {
          refused = `its manifest has format ${head.format}, not ${MANIFEST_FORMAT}`;
          return false;
        }
        packer = createPagePacker(size);
        return true;
      }
      if (lines === breaks.length) {
        const more = new Float64Array(breaks.length * 2);
        more.set(breaks);
        breaks = more;
      }
      breaks[lines++] = at - 1;
      if (end - start === 2 && bytes[start] === CLOSE_BRACE && bytes[start + 1] === CLOSE_BRACE) {
        closed = true;
      } else if (!packer!.addLine(bytes, start, end)) {
        const [key, entry] = parsePageLine(bytes, start, end);
        packer!.add(key, entry);
      }
      return true;
    });
    if (refused !== undefined) return refused;
    if (head === undefined) return 'its manifest is empty';
    if (!closed) throw new Error('it is cut short');
    packed = packer!.finish();
  } catch (error) {
    return `its manifest cannot be read (${(error as Error).message})`;
  }
  if (hash.digest('hex').slice(0, SNAPSHOT_ID_LENGTH) !== id) return 'its manifest does not match the snapshot\'s id (changed, damaged or partly copied)';
  return { head, packed, breaks: breaks.slice(0, lines) };
}

/**
 * Opens the snapshot in `dir` for reuse: its manifest's pages (readManifestPages), and its page
 * files when each has the size the manifest records (a truncated file is never read from). Returns
 * why not instead when its manifest cannot be used (the build is then a full one, every URL in its
 * purge list).
 */
export function openPreviousSnapshot(dir: string, id: string): PreviousSnapshot | string {
  return snapshotOf(dir, id, readManifestPages(dir, id));
}

function snapshotOf(dir: string, id: string, read: ReadManifest | string, manifest?: { fd: number; close(): void }): PreviousSnapshot | string {
  if (typeof read === 'string') {
    manifest?.close();
    return read;
  }
  const manifestLines = manifest && { fd: manifest.fd, breaks: read.breaks, close: manifest.close };
  return { id, dir, head: read.head, pages: new PageTable(read.packed), files: openPageFiles(dir, id, read.head.files), manifestLines };
}

/**
 * openPreviousSnapshot with the manifest read on a worker thread (previous-manifest-worker.ts),
 * started now: the build reads the catalogue meanwhile, and the page table comes back as
 * transferred buffers. `opened` answers once it is read; when the worker cannot run, the manifest
 * is read here instead.
 */
export function startOpenPrevious(dir: string, id: string): { opened(): Promise<PreviousSnapshot | string>; stop(): Promise<void> } {
  // opened here and read through on the worker (threads share descriptors): the new manifest copies
  // lines from the very bytes that were hashed (PreviousSnapshot.manifestLines)
  let fd: number | undefined;
  try {
    fd = openSync(join(dir, MANIFEST_FILE), 'r');
  } catch {
    fd = undefined;
  }
  let closed = false;
  const manifest = fd === undefined ? undefined : {
    fd,
    close: () => {
      if (closed) return;
      closed = true;
      closeSync(fd!);
    },
  };
  let worker: Worker | undefined;
  let read: Promise<ReadManifest | string>;
  try {
    const started = new Worker(workerUrl('./previous-manifest-worker.ts', import.meta.url), { workerData: { dir, id, fd } });
    worker = started;
    read = new Promise<ReadManifest | string>((resolve) => {
      let settled = false;
      const here = () => {
        if (settled) return;
        settled = true;
        resolve(readManifestPages(dir, id, fd));
      };
      started.once('message', (answer: ReadManifest | string) => {
        settled = true;
        resolve(answer);
      });
      started.once('error', here);
      started.once('exit', here);
    });
  } catch {
    read = Promise.resolve().then(() => readManifestPages(dir, id, fd));
  }
  let taken = false;
  return {
    opened: async () => {
      const answer = await read;
      // the worker reads nothing more once it has answered; ended before the descriptor is handed on
      await worker?.terminate();
      taken = true;
      return snapshotOf(dir, id, answer, manifest);
    },
    stop: async () => {
      await worker?.terminate();
      if (!taken) manifest?.close();
    },
  };
}

/** how much of a manifest is read at once */
const MANIFEST_CHUNK = 4 << 20;

/**
 * Shows each line of a file (a path, or a descriptor left open) to `line` with the file's size, as
 * forEachByteLine (src/lib/file-lines.ts) does: a manifest of 300,000 pages is parsed from its
 * bytes a line at a time, its SHA-256 made as it is read (`seen`).
 */
function forEachLine(source: string | number, seen: (chunk: Buffer) => void, line: (bytes: Buffer, start: number, end: number, at: number, size: number) => boolean): void {
  const fd = typeof source === 'number' ? source : openSync(source, 'r');
  try {
    const size = fstatSync(fd).size;
    forEachByteLine(fd, MANIFEST_CHUNK, seen, (bytes, start, end, at) => line(bytes, start, end, at, size), true);
  } finally {
    if (typeof source !== 'number') closeSync(fd);
  }
}

/**
 * How much of a page file is read at once: an incremental build reads the previous pages in order.
 * 256 KB, as there are three files a shard and each keeps its last read: with 1 MB, a rebuild
 * that copies every shard of pyvideo-100k (1% of the videos changed: 384 files) held 384 MB of
 * read buffers (docs/performance.md, "Page shards").
 */
const READ_AHEAD = 256 << 10;

/**
 * A page file read by range, READ_AHEAD bytes ahead at a time (the build copies long runs of pages
 * in file order), every range checked against its CRC-32 as page-files.ts diskSource does.
 */
function readAheadSource(path: string, size: number): PageSource {
  const file = basename(path);
  // opened at its first read: a rebuild that links a shard never reads it
  let fd: number | undefined;
  let start = 0;
  let chunk: Buffer = Buffer.alloc(0);
  const open = (): number => {
    try {
      return (fd ??= openSync(path, 'r'));
    } catch (error) {
      throw new PageReadError(file, `cannot be opened (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
  };
  return {
    read([offset, length, checksum]) {
      let bytes: Buffer;
      if (offset >= start && offset + length <= start + chunk.length) bytes = chunk.subarray(offset - start, offset - start + length);
      else if (length >= READ_AHEAD) bytes = readExactly(open(), length, offset, file);
      else {
        chunk = readExactly(open(), Math.max(length, Math.min(READ_AHEAD, size - offset)), offset, file);
        start = offset;
        bytes = chunk.subarray(0, length);
      }
      if (checksumOf(bytes) !== checksum) throw new PageReadError(file, `the ${length} bytes at ${offset} do not match their checksum (the file changed or is damaged)`);
      return bytes;
    },
    close: () => {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
      chunk = Buffer.alloc(0);
    },
  };
}

function openPageFiles(dir: string, id: string, recorded: Readonly<Record<string, FileRecord>>): PreviousPageFiles | string {
  const shards = pageShardsOf(recorded);
  if (shards === 0) return 'its manifest records no page shards';
  const names = Array.from({ length: shards }, (_, shard) => PAGE_KINDS.map((kind) => pageFileName(kind, shard))).flat();
  for (const name of names) {
    let size: number;
    try {
      size = statSync(join(dir, name)).size;
    } catch {
      return `${name} is missing`;
    }
    if (size !== recorded[name]!.size) return `${name} holds ${size} bytes, not the ${recorded[name]!.size} its manifest records`;
  }
  const opened: PageSource[] = [];
  /** closes each file once, however often it is called */
  const close = () => {
    for (const source of opened.splice(0)) source.close();
  };
  let sources: Record<PageKind, PageSource>;
  try {
    const sourcesOf = (kind: PageKind) => shardedSource(kind, Array.from({ length: shards }, (_, shard) => {
      const name = pageFileName(kind, shard);
      const source = readAheadSource(join(dir, name), recorded[name]!.size);
      opened.push(source);
      return source;
    }));
    sources = { body: sourcesOf('body'), br: sourcesOf('br'), gzip: sourcesOf('gzip') };
  } catch (error) {
    close();
    return `its page files cannot be opened (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
  return {
    dir, id, shards, records: recorded,
    read(kind, range) {
      if (opened.length === 0) throw new PageReadError(pageFileName(kind, range[3]), 'was closed');
      return sources[kind].read(range);
    },
    close,
  };
}
