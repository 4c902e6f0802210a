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
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { MIN_COMPRESSIBLE } from '../http/encoding.ts';
import type { Rendered } from '../api/respond.ts';
import { createCompressPool, type Variants } from './compress-pool.ts';
import { writeAll } from './disk-faults.ts';
import { PAGE_FILES } from './layout.ts';
import type { FileRecord, PageEntry, Range } from './manifest.ts';
import { checksumOf, PageReadError } from './page-files.ts';
import type { PreviousPageFiles } from './previous-snapshot.ts';

const FLUSH_BYTES = 4 << 20;
const BATCH = 64;
const MAX_PENDING_BATCHES = 8;

type MutableEntry = { -readonly [K in keyof PageEntry]: PageEntry[K] };

function appendOnly(path: string) {
  const fd = openSync(path, 'w');
  const hash = createHash('sha256');
  let open = true;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let offset = 0;
  const flush = () => {
    if (pendingBytes > 0) {
      const data = Buffer.concat(pending, pendingBytes);
      writeAll(fd, data);
      hash.update(data);
    }
    pending = [];
    pendingBytes = 0;
  };
  return {
    append(data: Buffer): Range {
      const range: Range = [offset, data.length, checksumOf(data)];
      pending.push(data);
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
  /** Waits while too many pages are queued for compression (keeps memory bounded). */
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
  let batch: { entry: MutableEntry; body: Buffer; ready: Variants | undefined }[] = [];
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
  /** The previous page's variants, when `body` is exactly its bytes. */
  const previousVariants = (key: string, body: Buffer): Variants | undefined => {
    if (!isPrevious(key, body)) return undefined;
    const before = reuse!.pages.get(key)!;
    return fromPrevious((previous): Variants => [before.br && previous.files.read('br', before.br), before.gzip && previous.files.read('gzip', before.gzip)]);
  };

  const submit = () => {
    if (batch.length === 0) return;
    const sent = batch;
    batch = [];
    pool.submit(sent.filter((p) => p.ready === undefined).map((p) => p.body), (compressed) => {
      let next = 0;
      sent.forEach(({ entry, ready }) => {
        const [br, gzip] = ready ?? compressed[next++]!;
        if (br) {
          entry.br = files.br.append(br);
          bytes.br += br.length;
        }
        if (gzip) {
          entry.gzip = files.gzip.append(gzip);
          bytes.gzip += gzip.length;
        }
      });
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
      const read = fromPrevious((previous) => ({
        body: previous.files.read('body', before.body),
        variants: [before.br && previous.files.read('br', before.br), before.gzip && previous.files.read('gzip', before.gzip)] as Variants,
      }));
      if (read === undefined) return false;
      const { body, variants } = read;
      const entry: MutableEntry = { etag: before.etag, body: files.body.append(body) };
      bytes.identity += body.length;
      if (before.link !== undefined) entry.link = before.link;
      if (before.noindex) entry.noindex = true;
      entries.set(key, entry);
      counts.reused++;
      counts.copied++;
      if (body.length >= MIN_COMPRESSIBLE) {
        batch.push({ entry, body, ready: variants });
        if (batch.length === BATCH) submit();
      }
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
        batch.push({ entry, body, ready });
        if (batch.length === BATCH) submit();
      }
    },
    async keepUp() {
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
