// The one reader of a snapshot's page files (each shard's pages-NNN.bin, pages-NNN.br.bin,
// pages-NNN.gz.bin: layout.ts), for the server and for the static-file export alike: a read goes to
// the shard its range names. A read returns exactly the bytes of the range or
// throws: a file shorter than the manifest says, a failed read or (for files read from disk) bytes
// whose CRC-32 is not the manifest's are a PageReadError, never a buffer holding anything else
// (docs/reliability.md, "Snapshots").
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { basename, join } from 'node:path';
import { crc32 } from 'node:zlib';
import { stampAfterRead, type FileStamp, type FileSystemClock } from './file-stamps.ts';
import { PAGE_KINDS, pageFileName, type PageKind } from './layout.ts';
import type { Range } from './manifest.ts';

export class PageReadError extends Error {
  readonly file: string;
  constructor(file: string, message: string) {
    super(`${file}: ${message}`);
    this.name = 'PageReadError';
    this.file = file;
  }
}

/** Reads exactly `length` bytes at `position`, looping over short reads; throws at the end of the file. */
export function readExactly(fd: number, length: number, position: number, file: string): Buffer {
  // Zero-filled, never allocUnsafe: whatever happens below, no other request's memory is in it.
  return readExactlyInto(fd, Buffer.alloc(length), length, position, file);
}

/**
 * Reads exactly `length` bytes at `position` into the start of `buffer` (a buffer its owner reuses:
 * made zero-filled, then holding only bytes read into it), looping over short reads; the view of
 * them. Throws at the end of the file.
 */
export function readExactlyInto(fd: number, buffer: Buffer, length: number, position: number, file: string): Buffer {
  if (length > buffer.length) throw new RangeError(`${length} bytes do not fit a buffer of ${buffer.length}`);
  let done = 0;
  while (done < length) {
    let read: number;
    try {
      read = readSync(fd, buffer, done, length - done, position + done);
    } catch (error) {
      throw new PageReadError(file, `read failed (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
    if (read === 0) throw new PageReadError(file, `ends at byte ${position + done}, before the ${length} bytes at ${position} the manifest names (truncated?)`);
    done += read;
  }
  return length === buffer.length ? buffer : buffer.subarray(0, length);
}

export interface PageSource {
  /** The bytes of a range, exactly; throws PageReadError otherwise. */
  read(range: Range): Buffer;
  close(): void;
}

/** A page file held in memory (verified whole when it was loaded, so reads check bounds only). */
export function memorySource(file: string, bytes: Buffer): PageSource {
  return {
    read([offset, length]) {
      if (offset + length > bytes.length) throw new PageReadError(file, `holds ${bytes.length} bytes, not the ${offset + length} the manifest names`);
      return bytes.subarray(offset, offset + length);
    },
    close: () => {},
  };
}

/**
 * A page file read by range from disk: every read loops over short reads and checks the range's
 * CRC-32. Errors name the file by `name` (no server path).
 */
export function diskSource(path: string, file: string = basename(path)): PageSource {
  const fd = openSync(path, 'r');
  return {
    read([offset, length, checksum]) {
      const bytes = readExactly(fd, length, offset, file);
      if (crc32(bytes) !== checksum) throw new PageReadError(file, `the ${length} bytes at ${offset} do not match their checksum (the file changed or is damaged)`);
      return bytes;
    },
    close: () => closeSync(fd),
  };
}

/** The page files of one kind, a source per shard: a read goes to the shard its range names. */
export function shardedSource(kind: PageKind, shards: readonly PageSource[]): PageSource {
  return {
    read(range) {
      const shard = range[3];
      const source = Number.isInteger(shard) ? shards[shard] : undefined;
      if (source === undefined) throw new PageReadError(pageFileName(kind, shard), `is not one of the ${shards.length} shards of this snapshot`);
      return source.read(range);
    },
    close: () => {
      for (const source of shards) source.close();
    },
  };
}

export type PageSources = Readonly<Record<PageKind, PageSource>>;

/** Every page file of a snapshot of `shards` shards, read by range from disk (diskSource), by kind. */
export function openDiskSources(dir: string, shards: number): PageSources {
  const opened: PageSource[] = [];
  try {
    const sourcesOf = (kind: PageKind) => shardedSource(kind, Array.from({ length: shards }, (_, shard) => {
      const source = diskSource(join(dir, pageFileName(kind, shard)));
      opened.push(source);
      return source;
    }));
    return Object.fromEntries(PAGE_KINDS.map((kind) => [kind, sourcesOf(kind)])) as Record<PageKind, PageSource>;
  } catch (error) {
    for (const source of opened) source.close();
    throw error;
  }
}

/** CRC-32 of a page's bytes, as the manifest records it. */
export const checksumOf = (bytes: Buffer): number => crc32(bytes);

/**
 * Size and SHA-256 of a whole file, read a megabyte at a time; with `clock` (file-stamps.ts
 * fileSystemClock, read before), also its stamp when the bytes read are those of the stamp
 * (stampAfterRead).
 */
export function hashFile(file: string, clock?: FileSystemClock): { size: number; sha256: string; stamp?: FileStamp | undefined } {
  const fd = openSync(file, 'r');
  try {
    const before = clock === undefined ? undefined : fstatSync(fd, { bigint: true });
    const hash = createHash('sha256');
    const chunk = Buffer.allocUnsafe(1 << 20);
    let size = 0;
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      hash.update(chunk.subarray(0, read));
      size += read;
    }
    return { size, sha256: hash.digest('hex'), stamp: before && stampAfterRead(fd, before, clock) };
  } finally {
    closeSync(fd);
  }
}
