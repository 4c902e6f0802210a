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
import { createSlabRing } from './slab-ring.ts';

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
  // by the range's own array (a page entry's, kept with it: page-index.ts), so a range of another
  // snapshot or another representation is never taken for this one
  const kept = new WeakMap<Range, Buffer>();
  const seen = new WeakSet<Range>();
  // a slab whose turn comes is let go whole, its bodies with it (slab-ring.ts)
  const ring = createSlabRing<Range>(slabCount, slabBytes, (range) => kept.delete(range));

  return {
    get size() { return ring.allocated; },
    read(source, range) {
      const hit = kept.get(range);
      if (hit !== undefined) return hit;
      const body = source.read(range);
      if (body.length > slabBytes) return body;
      if (!seen.has(range)) {
        seen.add(range);
        return body;
      }
      const { copy, slab } = ring.store(body);
      kept.set(range, copy);
      ring.hold(slab, range);
      return copy;
    },
  };
}
