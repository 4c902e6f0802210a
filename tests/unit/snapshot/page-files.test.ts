// src/snapshot/page-files.ts: the one reader of page files returns exactly a range's bytes or throws.
import { closeSync, openSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import type { Range } from '../../../src/snapshot/manifest.ts';
import { checksumOf, diskSource, memorySource, PageReadError, readExactlyInto, shardedSource } from '../../../src/snapshot/page-files.ts';
import { tempDirs } from '../support/fixtures.ts';

const dirs = tempDirs();
afterAll(() => dirs.cleanup());

const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7) % 251));
const range = (offset: number, length: number): Range => [offset, length, crc32(bytes.subarray(offset, offset + length)), 0];

function fileOf(content: Buffer): string {
  const file = join(dirs.make(), 'pages.bin');
  writeFileSync(file, content);
  return file;
}

describe('readExactlyInto', () => {
  it('reads a range into the start of a reused buffer, its view exactly the range, and throws past the end of the file', () => {
    const file = fileOf(bytes);
    const fd = openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(4096);
      expect(readExactlyInto(fd, buffer, 4096, 0, 'pages.bin').equals(bytes.subarray(0, 4096))).toBe(true);
      const view = readExactlyInto(fd, buffer, 100, 4900, 'pages.bin');
      expect(view.length).toBe(100);
      expect(view.buffer).toBe(buffer.buffer);
      expect(view.equals(bytes.subarray(4900))).toBe(true);
      expect(() => readExactlyInto(fd, buffer, 200, 4900, 'pages.bin')).toThrow(/^pages\.bin: ends at byte 5000, before the 200 bytes at 4900/);
      expect(() => readExactlyInto(fd, buffer, 5000, 0, 'pages.bin')).toThrow(RangeError);
    } finally {
      closeSync(fd);
    }
  });
});

describe('diskSource', () => {
  it('reads exactly the bytes of each range', () => {
    const source = diskSource(fileOf(bytes));
    for (const [offset, length] of [[0, 1], [10, 4000], [4999, 1], [0, 5000]] as const) {
      expect(source.read(range(offset, length)).equals(bytes.subarray(offset, offset + length))).toBe(true);
    }
    source.close();
  });

  it('throws for a range past the end of a truncated file, naming the file and not its folder', () => {
    const file = fileOf(bytes);
    const source = diskSource(file);
    truncateSync(file, 3000);
    expect(source.read(range(0, 3000)).equals(bytes.subarray(0, 3000))).toBe(true);
    expect(() => source.read(range(2000, 2000))).toThrow(PageReadError);
    expect(() => source.read(range(2000, 2000))).toThrow(/^pages\.bin: ends at byte 3000, before the 2000 bytes at 2000 the manifest names/);
    expect(() => source.read(range(4000, 10))).toThrow(PageReadError);
    source.close();
  });

  it('throws when the bytes do not match their checksum', () => {
    const damaged = Buffer.from(bytes);
    damaged[100] = damaged[100]! ^ 1;
    const source = diskSource(fileOf(damaged));
    expect(() => source.read(range(50, 100))).toThrow(/do not match their checksum/);
    expect(source.read(range(200, 100)).equals(bytes.subarray(200, 300))).toBe(true);
    source.close();
  });
});

describe('memorySource', () => {
  it('serves ranges within the bytes and refuses one beyond them', () => {
    const source = memorySource('pages.br.bin', bytes.subarray(0, 1000));
    expect(source.read(range(10, 20)).equals(bytes.subarray(10, 30))).toBe(true);
    expect(() => source.read(range(990, 20))).toThrow(/^pages\.br\.bin: holds 1000 bytes, not the 1010/);
  });
});

describe('shardedSource', () => {
  it('reads each range from the shard it names, and refuses a shard the snapshot does not have', () => {
    const other = Buffer.from(bytes).reverse();
    const source = shardedSource('gzip', [memorySource('pages-000.gz.bin', bytes), memorySource('pages-001.gz.bin', other)]);
    expect(source.read(range(10, 20)).equals(bytes.subarray(10, 30))).toBe(true);
    expect(source.read([10, 20, crc32(other.subarray(10, 30)), 1]).equals(other.subarray(10, 30))).toBe(true);
    expect(() => source.read([10, 20, 0, 2])).toThrow(/^pages-002\.gz\.bin: is not one of the 2 shards of this snapshot/);
    expect(() => source.read([10, 20, 0, -1])).toThrow(PageReadError);
  });
});

describe('checksumOf', () => {
  it('is the CRC-32 the manifest records for a range', () => {
    expect(checksumOf(bytes.subarray(5, 50))).toBe(range(5, 45)[2]);
  });
});
