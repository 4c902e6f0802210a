// Bytes kept in a ring of slabs, for the answer cache (answer-cache.ts) and the fast path's page
// bodies (page-bodies.ts): bytes are copied into the current slab, at a place never written before;
// when they do not fit, the next slab's turn comes: everything held in it leaves (`leave` is told
// of each resident) and a new slab replaces it. A slab is never written again once bytes are in it,
// so bytes a slow socket still holds stay the bytes it was given, and a slab let go is freed once
// no socket holds a part of it (nothing here keeps a view of it). Slabs are allocated on demand;
// the old generation sees one slab die at a time (docs/performance.md, "Long tail").
export interface SlabRing<T> {
  /** Copies `bytes` into a slab (the next one when they do not fit in the current one): the copy, and the slab's number. */
  store(bytes: Buffer): { readonly copy: Buffer; readonly slab: number };
  /** Notes that `resident` holds bytes in slab `slab`: it leaves when that slab's turn comes again. */
  hold(slab: number, resident: T): void;
  /** bytes of the slabs allocated so far */
  readonly allocated: number;
}

/** A ring of `count` slabs of `slabBytes` each; `leave` is called for each resident of a slab replaced. */
export function createSlabRing<T>(count: number, slabBytes: number, leave: (resident: T) => void): SlabRing<T> {
  const slabs: (Buffer | undefined)[] = new Array<Buffer | undefined>(count).fill(undefined);
  const residents: T[][] = Array.from({ length: count }, () => []);
  let slab = 0;
  let offset = 0;
  let allocated = 0;
  return {
    get allocated() { return allocated; },
    store(bytes) {
      if (offset + bytes.length > slabBytes || slabs[slab] === undefined) {
        if (slabs[slab] !== undefined) slab = (slab + 1) % count;
        if (slabs[slab] === undefined) allocated += slabBytes;
        // the slab whose turn it is leaves with every resident holding bytes in it; a new one replaces it
        const leaving = residents[slab]!;
        residents[slab] = [];
        for (const resident of leaving) leave(resident);
        // uninitialised, but only what `bytes` fill is ever handed out
        slabs[slab] = Buffer.allocUnsafeSlow(slabBytes);
        offset = 0;
      }
      const copy = slabs[slab]!.subarray(offset, offset + bytes.length);
      bytes.copy(copy);
      offset += bytes.length;
      return { copy, slab };
    },
    hold(at, resident) {
      residents[at]!.push(resident);
    },
  };
}
