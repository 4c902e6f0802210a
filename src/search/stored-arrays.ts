// Typed arrays as search.json stores them (docs/search.md, "Stored as search.json"): base64 of their
// bytes (little-endian, as every platform Node runs on), and posting lists as the gaps between
// ascending document ids in LEB128 bytes (about 1.3 bytes a posting instead of 4).

export type StoredArray = Int32Array | Float32Array | Float64Array | Uint8Array;
type ArrayType<T extends StoredArray> = { new (buffer: ArrayBuffer, offset?: number, length?: number): T; readonly BYTES_PER_ELEMENT: number };

export const encodeArray = (array: StoredArray): string => Buffer.from(array.buffer, array.byteOffset, array.byteLength).toString('base64');

/**
 * The array stored as `text` (base64) holding `length` elements, or an error naming `what`. Over
 * the decoded bytes themselves when they are aligned for it (no copy), else over a copy.
 */
export function decodeArray<T extends StoredArray>(text: string, Type: ArrayType<T>, length: number, what: string): T {
  const bytes = Buffer.from(text, 'base64');
  const size = Type.BYTES_PER_ELEMENT;
  if (bytes.length !== length * size) throw new Error(`search index: ${what} holds ${bytes.length} bytes, not ${length * size}`);
  if (bytes.byteOffset % size === 0 && bytes.buffer instanceof ArrayBuffer) return new Type(bytes.buffer, bytes.byteOffset, length);
  const copy = new ArrayBuffer(bytes.length);
  new Uint8Array(copy).set(bytes);
  return new Type(copy, 0, length);
}

/** Bytes of an unsigned LEB128 number. */
const sizeOf = (value: number) => (value < 0x80 ? 1 : value < 0x4000 ? 2 : value < 0x200000 ? 3 : value < 0x10000000 ? 4 : 5);

/**
 * `docs` as gaps: the runs ending at `ends` (ascending, the last equal to docs.length) each hold
 * ascending ids; each id is stored as its distance from the one before it in its run, less one
 * (the first from -1).
 */
export function writeDeltas(docs: Int32Array, ends: Int32Array): Uint8Array {
  let size = 0;
  let from = 0;
  for (const end of ends) {
    let previous = -1;
    for (let p = from; p < end; p++) {
      size += sizeOf(docs[p]! - previous - 1);
      previous = docs[p]!;
    }
    from = end;
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  from = 0;
  for (const end of ends) {
    let previous = -1;
    for (let p = from; p < end; p++) {
      let gap = docs[p]! - previous - 1;
      previous = docs[p]!;
      while (gap >= 0x80) {
        bytes[at++] = (gap & 0x7f) | 0x80;
        gap >>>= 7;
      }
      bytes[at++] = gap;
    }
    from = end;
  }
  return bytes;
}

/**
 * The ids `writeDeltas` stored, for runs ending at `ends` (`count` ids in all), each checked to be
 * a document below `documents`: a damaged file is refused, never read past.
 */
export function readDeltas(bytes: Uint8Array, ends: Int32Array, count: number, documents: number): Int32Array {
  const docs = new Int32Array(count);
  let at = 0;
  let p = 0;
  for (const end of ends) {
    if (end < p || end > count) throw new Error('search index: the postings are damaged');
    let previous = -1;
    for (; p < end; p++) {
      let gap = 0;
      let shift = 0;
      for (;;) {
        if (at >= bytes.length || shift > 28) throw new Error('search index: the postings are damaged');
        const byte = bytes[at++]!;
        gap += (byte & 0x7f) * 2 ** shift;
        shift += 7;
        if (byte < 0x80) break;
      }
      previous += gap + 1;
      if (previous >= documents) throw new Error('search index: a posting names no document');
      docs[p] = previous;
    }
  }
  if (p !== count || at !== bytes.length) throw new Error('search index: the postings are damaged');
  return docs;
}
