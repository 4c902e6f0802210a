// Memory the pages phase reuses for the bytes of the pages waiting for their variants (bodies to
// compress, variants made or taken from the served snapshot), shared with the compress workers
// (compress-pool.ts). Every ArrayBuffer the main thread allocates counts towards V8's external
// memory, and each 64 MB of it that outlives a young-generation collection starts a full
// collection of the whole heap (the model: ~1.3 GB at one million videos). Bytes copied into these
// chunks allocate nothing: the chunks are made once and reused, and the workers read the bodies
// and write the variants in place, so nothing is posted or transferred per page
// (docs/architecture.md, "Buffers of the pages phase"; docs/performance.md, "The pages phase,
// ninth round").
//
// Slots are taken from the current chunk; a chunk is reused once every slot taken from it is
// released (slots are released in about the order they were taken: delivered in page order).

/** Bytes of a chunk: larger requests get a chunk of their own, dropped once released. */
export const CHUNK_BYTES = 4 << 20;

/** A place in the arena: the chunk's id, where it starts and its length. */
export interface Slot {
  readonly chunk: number;
  readonly offset: number;
  readonly length: number;
}

interface Chunk {
  readonly id: number;
  readonly bytes: Buffer;
  /** slots taken and not released */
  live: number;
  /** where the next slot starts */
  used: number;
  /** made for one large request: dropped, not reused, once released */
  readonly single: boolean;
}

export interface PageArena {
  /** A slot of `length` bytes (its contents are whatever was there: write all of it before reading). */
  take(length: number): Slot;
  /** `bytes` copied into a new slot. */
  hold(bytes: Uint8Array): Slot;
  /** The bytes of a slot, or of part of it: a view, valid until the slot is released. */
  view(slot: Slot, start?: number, length?: number): Buffer;
  release(slot: Slot): void;
  /** Bytes of chunks made so far (for progress lines and tests). */
  readonly bytes: number;
}

export interface ArenaEvents {
  /** a chunk was made: the workers are told before any slot of it is posted */
  made(id: number, buffer: SharedArrayBuffer): void;
  /** a chunk made for one request was released: the workers can forget it */
  dropped(id: number): void;
}

export function createPageArena(events: ArenaEvents): PageArena {
  const chunks = new Map<number, Chunk>();
  /** chunks whose slots are all released, ready to be reused */
  const free: Chunk[] = [];
  let current: Chunk | undefined;
  let nextId = 0;
  let total = 0;

  const make = (size: number, single: boolean): Chunk => {
    const buffer = new SharedArrayBuffer(size);
    const chunk: Chunk = { id: nextId++, bytes: Buffer.from(buffer), live: 0, used: 0, single };
    chunks.set(chunk.id, chunk);
    total += size;
    events.made(chunk.id, buffer);
    return chunk;
  };
  const chunkOf = (id: number): Chunk => {
    const chunk = chunks.get(id);
    if (chunk === undefined) throw new Error(`page arena: no chunk ${id} (a slot used after it was released)`);
    return chunk;
  };

  const arena: PageArena = {
    take(length) {
      if (length > CHUNK_BYTES / 2) {
        const chunk = make(length, true);
        chunk.live = 1;
        chunk.used = length;
        return { chunk: chunk.id, offset: 0, length };
      }
      if (current === undefined || current.used + length > CHUNK_BYTES) {
        // the full chunk still holds slots (one that held none was taken again from its start):
        // it is reused once its last one is released (see release)
        current = free.pop() ?? make(CHUNK_BYTES, false);
        current.used = 0;
      }
      const slot: Slot = { chunk: current.id, offset: current.used, length };
      current.used += length;
      current.live++;
      return slot;
    },
    hold(bytes) {
      const slot = arena.take(bytes.length);
      chunkOf(slot.chunk).bytes.set(bytes, slot.offset);
      return slot;
    },
    view(slot, start = 0, length = slot.length - start) {
      return chunkOf(slot.chunk).bytes.subarray(slot.offset + start, slot.offset + start + length);
    },
    release(slot) {
      const chunk = chunkOf(slot.chunk);
      if (--chunk.live > 0) return;
      if (chunk === current) {
        current.used = 0; // nothing of it is held: taken again from its start
      } else if (chunk.single) {
        chunks.delete(chunk.id);
        total -= chunk.bytes.length;
        events.dropped(chunk.id);
      } else {
        free.push(chunk);
      }
    },
    get bytes() {
      return total;
    },
  };
  return arena;
}
