// Appends prerendered pages to a snapshot: identity bodies to pages.bin, their br and gzip
// variants (compressed on worker threads) to pages.br.bin and pages.gz.bin, each file in page
// order so the output never depends on timing. A file per page would cost ~60 µs of file-system
// time each here and dominate the build; three sequential files cost almost nothing. Each range
// carries the CRC-32 of its bytes and each file its size and SHA-256, for the manifest
// (manifest.ts), so the server can verify what it serves.
import { createHash } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { MIN_COMPRESSIBLE } from '../http/encoding.ts';
import type { Rendered } from '../api/respond.ts';
import { createCompressPool } from './compress-pool.ts';
import { writeAll } from './disk-faults.ts';
import { PAGE_FILES } from './layout.ts';
import type { FileRecord, PageEntry, Range } from './manifest.ts';
import { checksumOf } from './page-files.ts';

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

export interface PageWriter {
  write(key: string, rendered: Rendered): void;
  /** Waits while too many pages are queued for compression (keeps memory bounded). */
  keepUp(): Promise<void>;
  close(): Promise<void>;
  /** Stops the workers without finishing (after a failure). */
  abort(): Promise<void>;
  readonly entries: Map<string, PageEntry>;
  readonly bytes: { identity: number; br: number; gzip: number };
  /** each page file's size and SHA-256 by name, once closed */
  readonly files: Record<string, FileRecord>;
}

export function createPageWriter(dir: string): PageWriter {
  const files = { body: appendOnly(join(dir, PAGE_FILES.body)), br: appendOnly(join(dir, PAGE_FILES.br)), gzip: appendOnly(join(dir, PAGE_FILES.gzip)) };
  const pool = createCompressPool();
  const entries = new Map<string, PageEntry>();
  const bytes = { identity: 0, br: 0, gzip: 0 };
  const records: Record<string, FileRecord> = {};
  let batch: { entry: MutableEntry; body: Buffer }[] = [];

  const submit = () => {
    if (batch.length === 0) return;
    const sent = batch;
    batch = [];
    pool.submit(sent.map((p) => p.body), (variants) => {
      variants.forEach(([br, gzip], i) => {
        const { entry } = sent[i]!;
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
    files: records,
    write(key, rendered) {
      if (entries.has(key)) throw new Error(`page ${key} was rendered twice`);
      const entry: MutableEntry = { etag: rendered.headers['etag']!, body: files.body.append(rendered.body) };
      bytes.identity += rendered.body.length;
      if (rendered.headers['link']) entry.link = rendered.headers['link'];
      if (rendered.headers['x-robots-tag']) entry.noindex = true;
      entries.set(key, entry);
      if (rendered.body.length >= MIN_COMPRESSIBLE) {
        batch.push({ entry, body: rendered.body });
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
        await pool.close();
        for (const [kind, file] of Object.entries(files)) records[PAGE_FILES[kind as keyof typeof PAGE_FILES]] = file.close();
      }
    },
    async abort() {
      await pool.close();
      for (const file of Object.values(files)) file.abandon();
    },
  };
}
