// derived.bin (src/snapshot/derived-file.ts): a rebuild takes trending, related and the sort orders
// from the served snapshot only when the file is the one its manifest records, of this format, and
// computed from fields of the same fingerprint for as many videos; otherwise the numbers are
// computed again. What is taken must be exactly what was computed.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runSteps } from '../../../src/model/steps.ts';
import { computeRelated } from '../../../src/model/related.ts';
import { trendingScores } from '../../../src/model/trending.ts';
import { sortVideoOrdersInSteps } from '../../../src/model/video-orders.ts';
import { fingerprintAndDigests, type DerivedPacked } from '../../../src/snapshot/derive-on-worker.ts';
import { decodeDerivedFile, derivedFrom, encodeDerived, linkDerivedFile, readServedDerived, recordedDerived, writeDerivedFile, DERIVED_FILE } from '../../../src/snapshot/derived-file.ts';

/** The numbers of a derived.bin when they may be used for fields of `fingerprint` and `videos` videos, as the derive worker decides. */
const usable = (decoded: { packed: DerivedPacked; fingerprint: string } | undefined, fingerprint: string, videos: number) =>
  decoded && derivedFrom(decoded, fingerprint, videos) ? decoded.packed : undefined;
const decodeDerived = (bytes: Buffer, record: { size: number; sha256: string }, fingerprint: string, videos: number) => usable(decodeDerivedFile(bytes, record), fingerprint, videos);
const readDerivedFile = (file: string, record: { size: number; sha256: string }, fingerprint: string, videos: number) => usable(readServedDerived(file, record), fingerprint, videos);
import { MANIFEST_FILE } from '../../../src/snapshot/layout.ts';
import { prng, tempDirs, video } from '../support/fixtures.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

function packedOf(count: number): { packed: DerivedPacked; fingerprint: string } {
  const random = prng(count);
  const videos = Array.from({ length: count }, (_, i) => video(`v${i}`, {
    tags: [['a', 'b', 'c'][i % 3]!], channel: ['alice', 'bob'][i % 2]!, views: Math.floor(random() * 1000), privacy: i % 9 === 0 ? 'unlisted' : 'public',
  }));
  const trending = trendingScores(videos);
  const related = computeRelated(videos, trending);
  const offsets = new Int32Array(count + 1);
  related.forEach((list, i) => { offsets[i + 1] = offsets[i]! + list.length; });
  const pool = new Int32Array(offsets[count]!);
  related.forEach((list, i) => pool.set(list, offsets[i]!));
  const { fingerprint, digests } = fingerprintAndDigests(videos);
  return { packed: { trending: Float64Array.from(trending), offsets, pool, orders: runSteps(sortVideoOrdersInSteps(videos, trending)), digests }, fingerprint };
}

const recordOf = (bytes: Buffer) => ({ size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });

describe('derived.bin', () => {
  it('gives back exactly the numbers written, the arrays after its head aligned', () => {
    for (const count of [0, 1, 7, 500]) {
      const { packed, fingerprint } = packedOf(count);
      const bytes = Buffer.concat(encodeDerived(packed, fingerprint));
      expect((bytes.indexOf(0x0a) + 1) % 8).toBe(0);
      const back = decodeDerived(bytes, recordOf(bytes), fingerprint, count)!;
      expect(back).toBeDefined();
      expect(back.trending).toEqual(packed.trending);
      expect(back.offsets).toEqual(packed.offsets);
      expect(back.pool).toEqual(packed.pool);
      expect(back.orders).toEqual(packed.orders);
      expect(back.digests).toEqual(packed.digests);
    }
  });

  it('is refused when it is not the file recorded, of other fields, of another count of videos, or cut short', () => {
    const { packed, fingerprint } = packedOf(300);
    const bytes = Buffer.concat(encodeDerived(packed, fingerprint));
    const record = recordOf(bytes);
    const flipped = Buffer.from(bytes);
    flipped[flipped.length - 9] = flipped[flipped.length - 9]! ^ 0x10;
    expect(decodeDerived(flipped, record, fingerprint, 300)).toBeUndefined();
    expect(decodeDerived(bytes, record, `${fingerprint}x`, 300)).toBeUndefined();
    expect(decodeDerived(bytes, record, fingerprint, 299)).toBeUndefined();
    const short = bytes.subarray(0, bytes.length - 4);
    expect(decodeDerived(short, record, fingerprint, 300)).toBeUndefined();
    // recorded as it is: the size and SHA-256 pass, the layout does not
    expect(decodeDerived(short, recordOf(short), fingerprint, 300)).toBeUndefined();
  });

  it('is written with its record, and read through the record its snapshot\'s manifest head gives', () => {
    const { packed, fingerprint } = packedOf(120);
    const dir = dirs.make();
    const record = writeDerivedFile(dir, packed, fingerprint);
    writeFileSync(join(dir, MANIFEST_FILE), `{"format":3,"files":{"${DERIVED_FILE}":${JSON.stringify(record)}},"pages":{\n"/a":{}\n}}`);
    expect(recordedDerived(dir)).toEqual(record);
    expect(readDerivedFile(join(dir, DERIVED_FILE), record, fingerprint, 120)?.pool).toEqual(packed.pool);
    expect(readDerivedFile(join(dir, 'missing.bin'), record, fingerprint, 120)).toBeUndefined();
    expect(recordedDerived(dirs.make())).toBeUndefined();
  });

  it('is linked from the served snapshot when its numbers were taken from it, with the served record; not when the file is not of the size recorded', () => {
    const { packed, fingerprint } = packedOf(60);
    const served = dirs.make();
    const record = writeDerivedFile(served, packed, fingerprint);
    const dir = dirs.make();
    expect(linkDerivedFile(dir, served, record)).toEqual(record);
    expect(statSync(join(dir, DERIVED_FILE)).ino).toBe(statSync(join(served, DERIVED_FILE)).ino);
    expect(readFileSync(join(dir, DERIVED_FILE))).toEqual(Buffer.concat(encodeDerived(packed, fingerprint)));
    const other = dirs.make();
    truncateSync(join(served, DERIVED_FILE), record.size - 8);
    expect(linkDerivedFile(other, served, record)).toBeUndefined();
    expect(existsSync(join(other, DERIVED_FILE))).toBe(false);
    expect(linkDerivedFile(other, dirs.make(), record)).toBeUndefined();
    expect(existsSync(join(other, DERIVED_FILE))).toBe(false);
  });
});
