// Appends prerendered pages to a snapshot's pages.bin, each with br and gzip variants when worth
// it, and records the manifest entry the server answers from. One file written sequentially: a
// file per page costs ~60 µs of file-system time each here, which would dominate the build.
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { compress, MIN_COMPRESSIBLE } from '../api/encoding.ts';
import type { Rendered } from '../api/respond.ts';
import { PAGES_FILE } from './layout.ts';
import type { PageEntry, Range } from './manifest.ts';

const FLUSH_BYTES = 8 << 20;

export interface PageWriter {
  write(key: string, rendered: Rendered): void;
  close(): void;
  readonly entries: Map<string, PageEntry>;
  readonly bytes: { identity: number; br: number; gzip: number };
}

export function createPageWriter(dir: string): PageWriter {
  const fd = openSync(join(dir, PAGES_FILE), 'w');
  const entries = new Map<string, PageEntry>();
  const bytes = { identity: 0, br: 0, gzip: 0 };
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let offset = 0;
  const flush = () => {
    if (pendingBytes > 0) writeSync(fd, Buffer.concat(pending, pendingBytes));
    pending = [];
    pendingBytes = 0;
  };
  const append = (data: Buffer): Range => {
    const range: Range = [offset, data.length];
    pending.push(data);
    pendingBytes += data.length;
    offset += data.length;
    if (pendingBytes >= FLUSH_BYTES) flush();
    return range;
  };

  return {
    entries,
    bytes,
    write(key, rendered) {
      if (entries.has(key)) throw new Error(`page ${key} was rendered twice`);
      const entry: { -readonly [K in keyof PageEntry]: PageEntry[K] } = { etag: rendered.headers['etag']!, body: append(rendered.body) };
      bytes.identity += rendered.body.length;
      if (rendered.body.length >= MIN_COMPRESSIBLE) {
        for (const encoding of ['br', 'gzip'] as const) {
          const packed = compress(rendered.body, encoding, 'build');
          if (packed.length >= rendered.body.length) continue;
          entry[encoding] = append(packed);
          bytes[encoding] += packed.length;
        }
      }
      if (rendered.headers['link']) entry.link = rendered.headers['link'];
      if (rendered.headers['x-robots-tag']) entry.noindex = true;
      entries.set(key, entry);
    },
    close() {
      flush();
      closeSync(fd);
    },
  };
}
