// Appends prerendered pages to a snapshot: identity bodies to pages.bin, their br and gzip
// variants (compressed on worker threads) to pages.br.bin and pages.gz.bin, each file in page
// order so the output never depends on timing. A file per page would cost ~60 µs of file-system
// time each here and dominate the build; three sequential files cost almost nothing.
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { MIN_COMPRESSIBLE } from '../api/encoding.ts';
import type { Rendered } from '../api/respond.ts';
import { createCompressPool } from './compress-pool.ts';
import { writeAll } from './disk-faults.ts';
import { PAGE_FILES } from './layout.ts';
import type { PageEntry, Range } from './manifest.ts';

const FLUSH_BYTES = 4 << 20;
const BATCH = 64;
const MAX_PENDING_BATCHES = 8;

type MutableEntry = { -readonly [K in keyof PageEntry]: PageEntry[K] };

function appendOnly(path: string) {
  const fd = openSync(path, 'w');
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let offset = 0;
  let open = true;
  const flush = () => {
    if (pendingBytes > 0) writeAll(fd, Buffer.concat(pending, pendingBytes));
    pending = [];
    pendingBytes = 0;
  };
  /** Closes the file once, whatever happens: a second close or a discard after a failed flush is a no-op. */
  const release = () => {
    if (!open) return;
    open = false;
    pending = [];
    pendingBytes = 0;
    closeSync(fd);
  };
  return {
    append(data: Buffer): Range {
      const range: Range = [offset, data.length];
      pending.push(data);
      pendingBytes += data.length;
      offset += data.length;
      if (pendingBytes >= FLUSH_BYTES) flush();
      return range;
    },
    close() {
      try {
        if (open) flush();
      } finally {
        release();
      }
    },
    /** Closes without writing what is pending (after a failure: a full disk must not be written to again). */
    discard: release,
    get size() {
      return offset;
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
}

export function createPageWriter(dir: string): PageWriter {
  const files = { body: appendOnly(join(dir, PAGE_FILES.body)), br: appendOnly(join(dir, PAGE_FILES.br)), gzip: appendOnly(join(dir, PAGE_FILES.gzip)) };
  const pool = createCompressPool();
  const entries = new Map<string, PageEntry>();
  const bytes = { identity: 0, br: 0, gzip: 0 };
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
        try {
          for (const file of Object.values(files)) file.close();
        } finally {
          for (const file of Object.values(files)) file.discard();
        }
      }
    },
    async abort() {
      await pool.close();
      for (const file of Object.values(files)) file.discard();
    },
  };
}
