// Page bodies the fast path has sent more than once, kept in memory (fast-path.ts): a hot page is
// then answered without a read of its page file, its CRC-32 or a new buffer per request
// (docs/performance.md, "The fast path's CPU per request"). What is kept is only ever bytes a
// checked read returned (page-files.ts diskSource: length and CRC-32), copied whole into a slab at
// a place never written before; a read that fails is not kept and throws as before. A slab is
// never written again once a body is in it: when its turn comes round, a new one replaces it
// (first in, first out, as the answer cache's slabs: answer-cache.ts), so bytes a slow socket
// still holds stay the bytes it was given. Memory: at most `bytes` of slabs, allocated on demand,
// and a slab let go is freed once no socket holds a part of it (nothing here keeps a view of it).
//
// A body is kept at its second read, not its first: a long tail of pages asked once each would
// otherwise make and drop a slab every few hundred requests for nothing.
import type { Range } from '../snapshot/manifest.ts';
import type { PageSource } from '../snapshot/page-files.ts';

/** The bound by default (the server passes min(this, SNAPSHOT_CACHE_MB)): the hot pages of a mix fit many times over. */
export const PAGE_BODY_BYTES = 16 * 1024 * 1024;
export const PAGE_SLAB_BYTES = 1024 * 1024;

export interface PageBodies {
  /** The bytes of `range` in `source`: kept ones, or those of a checked read (kept from its second time on). */
  read(source: PageSource, range: Range): Buffer;
  /** bytes of slabs allocated now */
  readonly size: number;
}


export function createPageBodies(bytes: number = PAGE_BODY_BYTES, slabBytes: number = PAGE_SLAB_BYTES): PageBodies {
  const slabCount = Math.floor(bytes / slabBytes);
  if (slabCount < 1) return { read: (source, range) => source.read(range), size: 0 };
  const slabs: (Buffer | undefined)[] = new Array<Buffer | undefined>(slabCount).fill(undefined);
  /** the ranges whose bodies each slab holds: they leave with it */
  const residents: Range[][] = Array.from({ length: slabCount }, () => []);
  // by the range's own array (a page entry's, kept with it: page-index.ts), so a range of another
  // snapshot or another representation is never taken for this one
  const kept = new WeakMap<Range, Buffer>();
  const seen = new WeakSet<Range>();
  let slab = 0;
  let offset = 0;
  let size = 0;

  /** Copies `body` into the current slab, or into the next one, made anew, when it does not fit. */
  const keep = (range: Range, body: Buffer): Buffer => {
    if (offset + body.length > slabBytes || slabs[slab] === undefined) {
      if (slabs[slab] !== undefined) slab = (slab + 1) % slabCount;
      // the slab whose turn it is is let go whole, its bodies with it (a kept view would keep it
      // alive: only sockets still sending parts of it may); a new one replaces it
      if (slabs[slab] === undefined) size += slabBytes;
      for (const range of residents[slab]!) kept.delete(range);
      residents[slab] = [];
      slabs[slab] = Buffer.allocUnsafeSlow(slabBytes);
      offset = 0;
    }
    const copy = slabs[slab]!.subarray(offset, offset + body.length);
    body.copy(copy);
    offset += body.length;
    kept.set(range, copy);
    residents[slab]!.push(range);
    return copy;
  };

  return {
    get size() { return size; },
    read(source, range) {
      const hit = kept.get(range);
      if (hit !== undefined) return hit;
      const body = source.read(range);
      if (body.length > slabBytes) return body;
      if (!seen.has(range)) {
        seen.add(range);
        return body;
      }
      return keep(range, body);
    },
  };
}
