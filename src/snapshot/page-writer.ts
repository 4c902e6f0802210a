// Appends prerendered pages to a snapshot: identity bodies to pages.bin, their br and gzip
// variants (compressed on worker threads) to pages.br.bin and pages.gz.bin, each file in page
// order so the output never depends on timing. A file per page would cost ~60 µs of file-system
// time each here and dominate the build; three sequential files cost almost nothing. Each range
// carries the CRC-32 of its bytes and each file its size and SHA-256, for the manifest
// (manifest.ts), so the server can verify what it serves. A page whose bytes are exactly those of
// the same URL's page in the previous snapshot (built by the same code, previous-snapshot.ts)
// takes that page's variants from the previous page files, read by range and checked, instead of
// being compressed again; they go through the same ordered queue, so the files stay in page order.
import { createHash } from 'node:crypto';
import { closeSync, openSync, writevSync } from 'node:fs';
import { join } from 'node:path';
import { MIN_COMPRESSIBLE } from '../http/encoding.ts';
import type { Rendered } from '../api/respond.ts';
import { createCompressPool, type Variants } from './compress-pool.ts';
import { PAGE_FILES } from './layout.ts';
import type { FileRecord, PageEntry, Range } from './manifest.ts';
import { checksumOf, PageReadError } from './page-files.ts';
import type { PreviousPageFiles } from './previous-snapshot.ts';

const FLUSH_BYTES = 4 << 20;
const BATCH = 64;
const MAX_PENDING_BATCHES = 8;

type MutableEntry = { -readonly [K in keyof PageEntry]: PageEntry[K] };
/** the CRC-32 of a page's br and gzip variants, when known (read from the previous page files and checked) */
type Checksums = readonly [number | undefined, number | undefined];
const NO_VARIANTS: Variants = [undefined, undefined];

/** At most this many buffers go to one writev(2) (Linux's IOV_MAX is 1024). */
const WRITEV_BUFFERS = 1024;

/**
 * Writes all of `buffers` at the file's position, in order, without joining them first. writev(2)
 * may write only part (a full disk, part way): the rest is written again, and that write fails
 * with the cause, so a short write never leaves a file that looks complete.
 */
function writeAllOf(fd: number, buffers: Buffer[]): void {
  let at = 0;
  let skip = 0; // bytes of buffers[at] already written
  while (at < buffers.length) {
    const batch = buffers.slice(at, at + WRITEV_BUFFERS);
    if (skip > 0) batch[0] = batch[0]!.subarray(skip);
    let written = writevSync(fd, batch);
    for (const buffer of batch) {
      if (written < buffer.length) {
        skip += written;
        break;
      }
      written -= buffer.length;
      at++;
      skip = 0;
    }
  }
}

/**
 * A page file written in order: appended bytes are held (views, not copies) until FLUSH_BYTES are
 * pending, then hashed and written with writev. A view that continues the last one in the same
 * memory (pages copied from one read of the previous page files) joins it, so a run of copied pages
 * is one large write, never copied in memory.
 */
function appendOnly(path: string) {
  const fd = openSync(path, 'w');
  const hash = createHash('sha256');
  let open = true;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let offset = 0;
  // the last bytes appended, as a place in memory: a view is made once the next bytes do not continue them
  let tail: ArrayBufferLike | undefined;
  let tailStart = 0;
  let tailEnd = 0;
  const endTail = () => {
    if (tail !== undefined) pending.push(Buffer.from(tail, tailStart, tailEnd - tailStart));
    tail = undefined;
  };
  const flush = () => {
    endTail();
    for (const data of pending) hash.update(data);
    if (pending.length > 0) writeAllOf(fd, pending);
    pending = [];
    pendingBytes = 0;
  };
  return {
    /** Appends `data` (which must not change until written); its range, with `checksum` when it is known (a copied page's, verified when read). */
    append(data: Buffer, checksum: number = checksumOf(data)): Range {
      const range: Range = [offset, data.length, checksum];
      if (tail === data.buffer && tailEnd === data.byteOffset) {
        tailEnd += data.length;
      } else {
        endTail();
        tail = data.buffer;
        tailStart = data.byteOffset;
        tailEnd = tailStart + data.length;
      }
      pendingBytes += data.length;
      offset += data.length;
      if (pendingBytes >= FLUSH_BYTES) flush();
      return range;
    },
    /** Writes what is pending and closes the file; its size and SHA-256. */
    close(): FileRecord {
      try {
        flush();
      } finally {
        open = false;
        closeSync(fd);
      }
      return { size: offset, sha256: hash.digest('hex') };
    },
    /** Closes the file, written or not (after a failure). */
    abandon() {
      if (open) closeSync(fd);
      open = false;
    },
  };
}

/** The previous snapshot's pages and page files, when its variants may be reused. */
export interface ReusablePages {
  readonly pages: ReadonlyMap<string, PageEntry>;
  readonly files: PreviousPageFiles;
}

export interface PageCounts {
  /** pages whose bytes are the previous snapshot's (their variants were copied, not compressed) */
  reused: number;
  /** pages compressed on the workers */
  compressed: number;
  /** of the reused pages, those not even rendered: their inputs were the previous snapshot's (page-inputs.ts) */
  copied: number;
}

export interface PageWriter {
  write(key: string, rendered: Rendered): void;
  /**
   * Appends the previous snapshot's page `key` as it was (bytes, variants, headers), without
   * rendering it; false when it cannot be read from the previous page files (render it instead).
   */
  copy(key: string): boolean;
  /** whether `body` is exactly the bytes of the previous snapshot's page `key` (read and compared) */
  isPrevious(key: string, body: Buffer): boolean;
  /** When too many pages are queued for compression, compresses some on this thread, then waits (keeps memory bounded). */
  keepUp(): Promise<void>;
  close(): Promise<void>;
  /** Stops the workers without finishing (after a failure). */
  abort(): Promise<void>;
  readonly entries: Map<string, PageEntry>;
  readonly bytes: { identity: number; br: number; gzip: number };
  readonly counts: Readonly<PageCounts>;
  /** why the previous snapshot's page files stopped being read from (a read that failed its check) */
  readonly reuseStopped: string | undefined;
  /** each page file's size and SHA-256 by name, once closed */
  readonly files: Record<string, FileRecord>;
}

export function createPageWriter(dir: string, options: { reuse?: ReusablePages | undefined } = {}): PageWriter {
  const files = { body: appendOnly(join(dir, PAGE_FILES.body)), br: appendOnly(join(dir, PAGE_FILES.br)), gzip: appendOnly(join(dir, PAGE_FILES.gzip)) };
  const pool = createCompressPool();
  const entries = new Map<string, PageEntry>();
  const bytes = { identity: 0, br: 0, gzip: 0 };
  const counts: PageCounts = { reused: 0, compressed: 0, copied: 0 };
  const records: Record<string, FileRecord> = {};
  /** pages waiting for their variants: compressed by the pool, or `ready` (the previous page's, with their checksums) */
  let batch: { entry: MutableEntry; body: Buffer; ready: Variants | undefined; sums: Checksums | undefined }[] = [];
  let reuse = options.reuse;
  let reuseStopped: string | undefined;
  /** the last page found identical to its previous one, so write() need not read it again */
  let confirmed: { key: string; body: Buffer } | undefined;

  /** Runs a read of the previous page files; a failed check stops every later read from them. */
  const fromPrevious = <T>(read: (previous: ReusablePages) => T): T | undefined => {
    if (reuse === undefined) return undefined;
    try {
      return read(reuse);
    } catch (error) {
      if (!(error instanceof PageReadError)) throw error;
      reuseStopped = error.message;
      reuse.files.close();
      reuse = undefined;
      return undefined;
    }
  };
  const isPrevious = (key: string, body: Buffer): boolean => {
    if (confirmed?.key === key && confirmed.body === body) return true;
    const before = reuse?.pages.get(key);
    if (before === undefined || before.body[1] !== body.length) return false;
    const same = fromPrevious((previous) => previous.files.read('body', before.body).equals(body)) ?? false;
    if (same) confirmed = { key, body };
    return same;
  };
  /** The variants of the previous page `before` (read and checked); undefined when a read failed its check. */
  const variantsOf = (before: PageEntry): Variants | undefined =>
    fromPrevious((previous): Variants => [before.br && previous.files.read('br', before.br), before.gzip && previous.files.read('gzip', before.gzip)]);
  /** The previous page's variants, when `body` is exactly its bytes. */
  const previousVariants = (key: string, body: Buffer): Variants | undefined => {
    if (!isPrevious(key, body)) return undefined;
    return variantsOf(reuse!.pages.get(key)!);
  };
  /** Appends a page's variants to their files (in page order: the caller keeps it). */
  const place = (entry: MutableEntry, [br, gzip]: Variants, sums?: Checksums) => {
    if (br) {
      entry.br = files.br.append(br, sums?.[0]);
      bytes.br += br.length;
    }
    if (gzip) {
      entry.gzip = files.gzip.append(gzip, sums?.[1]);
      bytes.gzip += gzip.length;
    }
  };
  /** Queues a page for its variants; one whose variants are ready is placed at once when nothing is queued before it. */
  const queue = (entry: MutableEntry, body: Buffer, ready: Variants | undefined, sums?: Checksums) => {
    if (ready !== undefined && batch.length === 0 && pool.pending === 0) {
      place(entry, ready, sums);
      return;
    }
    batch.push({ entry, body, ready, sums });
    if (batch.length === BATCH) submit();
  };

  const submit = () => {
    if (batch.length === 0) return;
    const sent = batch;
    batch = [];
    pool.submit(sent.filter((p) => p.ready === undefined).map((p) => p.body), (compressed) => {
      let next = 0;
      for (const { entry, ready, sums } of sent) place(entry, ready ?? compressed[next++]!, sums);
    });
  };

  return {
    entries,
    bytes,
    counts,
    get reuseStopped() {
      return reuseStopped;
    },
    files: records,
    isPrevious,
    copy(key) {
      if (entries.has(key)) throw new Error(`page ${key} was rendered twice`);
      const before = reuse?.pages.get(key);
      if (before === undefined) return false;
      // every range is read and its CRC-32 checked before anything of the page is appended
      const read = fromPrevious(({ files: previous }) => {
        const body = previous.read('body', before.body);
        return body.length < MIN_COMPRESSIBLE ? { body, variants: NO_VARIANTS } : { body, variants: [before.br && previous.read('br', before.br), before.gzip && previous.read('gzip', before.gzip)] as Variants };
      });
      if (read === undefined) return false;
      const { body, variants } = read;
      // the checksums recorded are those of the bytes just checked: carried, not computed again
      const entry: MutableEntry = { etag: before.etag, body: files.body.append(body, before.body[2]) };
      bytes.identity += body.length;
      if (before.link !== undefined) entry.link = before.link;
      if (before.noindex) entry.noindex = true;
      entries.set(key, entry);
      counts.reused++;
      counts.copied++;
      if (body.length >= MIN_COMPRESSIBLE) queue(entry, body, variants, [before.br?.[2], before.gzip?.[2]]);
      return true;
    },
    write(key, rendered) {
      if (entries.has(key)) throw new Error(`page ${key} was rendered twice`);
      const { body } = rendered;
      const entry: MutableEntry = { etag: rendered.headers['etag']!, body: files.body.append(body) };
      bytes.identity += body.length;
      if (rendered.headers['link']) entry.link = rendered.headers['link'];
      if (rendered.headers['x-robots-tag']) entry.noindex = true;
      entries.set(key, entry);
      const ready = previousVariants(key, body);
      confirmed = undefined;
      if (ready) counts.reused++;
      if (body.length >= MIN_COMPRESSIBLE) {
        if (!ready) counts.compressed++;
        const before = ready && reuse?.pages.get(key);
        queue(entry, body, ready, before ? [before.br?.[2], before.gzip?.[2]] : undefined);
      }
    },
    async keepUp() {
      // too many queued (rendering is ahead of the workers): compress the waiting batches here, then wait
      while (pool.pending > MAX_PENDING_BATCHES && pool.compressHere());
      if (pool.pending > MAX_PENDING_BATCHES) await pool.drain();
    },
    async close() {
      submit();
      try {
        await pool.drain();
      } finally {
        reuse?.files.close();
        await pool.close();
        for (const [kind, file] of Object.entries(files)) records[PAGE_FILES[kind as keyof typeof PAGE_FILES]] = file.close();
      }
    },
    async abort() {
      reuse?.files.close();
      await pool.close();
      for (const file of Object.values(files)) file.abandon();
    },
  };
}
