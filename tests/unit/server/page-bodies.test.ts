import { describe, expect, it } from 'vitest';
import { createPageBodies } from '../../../src/server/page-bodies.ts';
import type { Range } from '../../../src/snapshot/manifest.ts';
import { PageReadError, type PageSource } from '../../../src/snapshot/page-files.ts';

/** A page file in memory whose reads are counted and copied (as a disk read's are), and which can be damaged. */
function countedSource(bytes: Buffer) {
  let reads = 0;
  let broken = false;
  const source: PageSource = {
    read([offset, length]) {
      reads++;
      if (broken || offset + length > bytes.length) throw new PageReadError('pages-000.bin', 'damaged');
      return Buffer.from(bytes.subarray(offset, offset + length));
    },
    close: () => {},
  };
  return { source, reads: () => reads, break: () => { broken = true; }, mend: () => { broken = false; } };
}

const file = Buffer.from(Array.from({ length: 64 * 1024 }, (_, i) => (i * 7 + 3) & 0xff));
const rangeAt = (offset: number, length: number): Range => [offset, length, 0, 0];

describe('createPageBodies', () => {
  it('answers exactly the bytes of each range; keeps a body at its second read, then reads it no more', () => {
    const disk = countedSource(file);
    const bodies = createPageBodies(16 * 1024, 4 * 1024);
    const range = rangeAt(100, 900);
    for (let i = 0; i < 5; i++) expect(bodies.read(disk.source, range).equals(file.subarray(100, 1000))).toBe(true);
    expect(disk.reads()).toBe(2);
  });

  it('never keeps a read that failed: it throws again, and a damaged body is never answered', () => {
    const disk = countedSource(file);
    const bodies = createPageBodies(16 * 1024, 4 * 1024);
    const range = rangeAt(0, 500);
    disk.break();
    for (let i = 0; i < 3; i++) expect(() => bodies.read(disk.source, range)).toThrow(PageReadError);
    disk.mend();
    expect(bodies.read(disk.source, range).equals(file.subarray(0, 500))).toBe(true);
  });

  it('tells ranges apart by their own array: another representation or snapshot at the same offsets is read from its own file', () => {
    const other = Buffer.alloc(file.length, 0x2a);
    const [a, b] = [countedSource(file), countedSource(other)];
    const bodies = createPageBodies(16 * 1024, 4 * 1024);
    const [ra, rb] = [rangeAt(10, 100), rangeAt(10, 100)];
    for (let i = 0; i < 3; i++) {
      expect(bodies.read(a.source, ra).equals(file.subarray(10, 110))).toBe(true);
      expect(bodies.read(b.source, rb).equals(other.subarray(10, 110))).toBe(true);
    }
  });

  it('stays within its bound, and never writes again the bytes it has given out', () => {
    const disk = countedSource(file);
    const bodies = createPageBodies(16 * 1024, 4 * 1024);
    const given: { bytes: Buffer; copy: Buffer }[] = [];
    const ranges = Array.from({ length: 60 }, (_, i) => rangeAt(i * 1000, 700 + (i % 5) * 50));
    for (let round = 0; round < 4; round++) {
      for (const range of ranges) {
        const bytes = bodies.read(disk.source, range);
        expect(bytes.equals(file.subarray(range[0], range[0] + range[1]))).toBe(true);
        given.push({ bytes, copy: Buffer.from(bytes) });
        expect(bodies.size).toBeLessThanOrEqual(16 * 1024);
      }
    }
    // 60 bodies of ~800 bytes do not fit 16 KB: the slabs went round several times
    expect(disk.reads()).toBeGreaterThan(120);
    for (const { bytes, copy } of given) expect(bytes.equals(copy)).toBe(true);
  });

  it('keeps nothing with a bound below one slab (SNAPSHOT_CACHE_MB=0), nor a body larger than a slab', () => {
    const disk = countedSource(file);
    const none = createPageBodies(0, 4 * 1024);
    for (let i = 0; i < 3; i++) none.read(disk.source, rangeAt(0, 100));
    expect(disk.reads()).toBe(3);
    expect(none.size).toBe(0);
    const small = createPageBodies(16 * 1024, 4 * 1024);
    const large = rangeAt(0, 5000);
    for (let i = 0; i < 3; i++) expect(small.read(disk.source, large).equals(file.subarray(0, 5000))).toBe(true);
    expect(disk.reads()).toBe(6);
  });
});
