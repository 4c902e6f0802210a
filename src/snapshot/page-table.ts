// The served snapshot's pages as an incremental build holds them (docs/architecture.md,
// "Incremental builds"): not a Map of 310,000 parsed entries (about six objects a page, all alive
// for the whole build, copied by every scavenge until promoted), but a page table of a few typed
// arrays and two strings, packed from the manifest's lines on a worker thread while the main
// thread reads the catalogue (previous-snapshot.ts) and handed over as transferred buffers. A
// page's entry is made when it is asked for, from the table's numbers and texts; a lookup hashes
// the key into an open-addressing table of page numbers. The table is read-only and answers as a
// ReadonlyMap (the page writer and the purge list's diff ask it as they asked the Map).
//
// An entry is rebuilt with its fields in the order the page writer makes them (etag, body, link,
// noindex, br, gzip), so the manifest written from it is the bytes the served one had; a line whose
// entry is not of that form (another order, another field, a string needing other escapes) is kept
// as its JSON text and parsed when asked: the same object JSON.parse made before.
import type { PageEntry, Range } from './manifest.ts';

/** What the table is made of: plain data, sent from the worker with its buffers transferred. */
export interface PackedPages {
  readonly count: number;
  /** every key, one after another */
  readonly keys: string;
  /** where each key ends in `keys` (it starts where the previous one ends) */
  readonly keyEnds: Uint32Array;
  /** each page's etag then its link (or its entry's JSON text, for a page kept as text) */
  readonly texts: string;
  /** per page: where its etag ends, where its link (or JSON text) ends, in `texts` */
  readonly textEnds: Uint32Array;
  /** per page: the offsets of its body, br and gzip ranges */
  readonly offsets: Float64Array;
  /** per page: length, CRC-32 and shard of its body, br and gzip ranges */
  readonly numbers: Uint32Array;
  /** per page: which fields it has (HAS_*), or KEPT_AS_TEXT */
  readonly flags: Uint8Array;
  /** open addressing: page number + 1 in the slot of its key's hash (0: empty); a power of two long */
  readonly slots: Int32Array;
}

const HAS_BR = 1;
const HAS_GZIP = 2;
const HAS_LINK = 4;
const NOINDEX = 8;
const KEPT_AS_TEXT = 16;

/** FNV-1a over a string's UTF-16 code units: the same on both threads. */
function hashKey(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

const isRange = (value: unknown): value is Range =>
  Array.isArray(value) && value.length === 4 && value.every((n) => Number.isSafeInteger(n) && n >= 0) && value[1]! <= 0xffffffff && value[2]! <= 0xffffffff && value[3]! <= 0xffffffff;

/** The fields of an entry in the order the page writer makes them. */
const FIELD_ORDER = ['etag', 'body', 'link', 'noindex', 'br', 'gzip'];

/** Whether an entry is of the form the table rebuilds byte for byte: the writer's fields, in its order, of their types. */
function isPlain(entry: Record<string, unknown>): boolean {
  let at = 0;
  for (const field of Object.keys(entry)) {
    const place = FIELD_ORDER.indexOf(field, at);
    if (place === -1) return false;
    at = place + 1;
  }
  return typeof entry['etag'] === 'string' && isRange(entry['body'])
    && (entry['link'] === undefined || typeof entry['link'] === 'string')
    && (entry['noindex'] === undefined || entry['noindex'] === true)
    && (entry['br'] === undefined || isRange(entry['br']))
    && (entry['gzip'] === undefined || isRange(entry['gzip']));
}

/** Collects pages (in any order, each key once) into a PackedPages. */
export function createPagePacker(): { add(key: string, entry: PageEntry): void; finish(): PackedPages } {
  let count = 0;
  let capacity = 1024;
  let keyEnds = new Uint32Array(capacity);
  let textEnds = new Uint32Array(capacity * 2);
  let offsets = new Float64Array(capacity * 3);
  let numbers = new Uint32Array(capacity * 9);
  let flags = new Uint8Array(capacity);
  const keys: string[] = [];
  const texts: string[] = [];
  let keyLength = 0;
  let textLength = 0;
  const grow = () => {
    capacity *= 2;
    const more = <T extends Uint32Array | Float64Array | Uint8Array>(old: T, make: (n: number) => T, per: number): T => {
      const next = make(capacity * per);
      next.set(old);
      return next;
    };
    keyEnds = more(keyEnds, (n) => new Uint32Array(n), 1);
    textEnds = more(textEnds, (n) => new Uint32Array(n), 2);
    offsets = more(offsets, (n) => new Float64Array(n), 3);
    numbers = more(numbers, (n) => new Uint32Array(n), 9);
    flags = more(flags, (n) => new Uint8Array(n), 1);
  };
  const text = (value: string) => {
    texts.push(value);
    textLength += value.length;
  };
  return {
    add(key, entry) {
      if (count === capacity) grow();
      const i = count++;
      keys.push(key);
      keyLength += key.length;
      keyEnds[i] = keyLength;
      if (isPlain(entry as unknown as Record<string, unknown>)) {
        let flag = 0;
        text(entry.etag);
        textEnds[2 * i] = textLength;
        if (entry.link !== undefined) {
          flag |= HAS_LINK;
          text(entry.link);
        }
        textEnds[2 * i + 1] = textLength;
        if (entry.noindex) flag |= NOINDEX;
        const ranges = [entry.body, entry.br, entry.gzip];
        for (let r = 0; r < 3; r++) {
          const range = ranges[r];
          if (range === undefined) continue;
          if (r === 1) flag |= HAS_BR;
          if (r === 2) flag |= HAS_GZIP;
          offsets[3 * i + r] = range[0];
          numbers[9 * i + 3 * r] = range[1];
          numbers[9 * i + 3 * r + 1] = range[2];
          numbers[9 * i + 3 * r + 2] = range[3];
        }
        flags[i] = flag;
      } else {
        textEnds[2 * i] = textLength;
        text(JSON.stringify(entry));
        textEnds[2 * i + 1] = textLength;
        flags[i] = KEPT_AS_TEXT;
      }
    },
    finish() {
      let size = 1;
      while (size < count * 2) size *= 2;
      const slots = new Int32Array(size);
      for (let i = 0; i < count; i++) {
        const key = keys[i]!;
        for (let slot = hashKey(key) & (size - 1); ; slot = (slot + 1) & (size - 1)) {
          const held = slots[slot]!;
          if (held === 0) {
            slots[slot] = i + 1;
            break;
          }
          if (keys[held - 1] === key) throw new Error(`it names the page ${key} twice`);
        }
      }
      return {
        count,
        keys: keys.join(''),
        keyEnds: keyEnds.slice(0, count),
        texts: texts.join(''),
        textEnds: textEnds.slice(0, 2 * count),
        offsets: offsets.slice(0, 3 * count),
        numbers: numbers.slice(0, 9 * count),
        flags: flags.slice(0, count),
        slots,
      };
    },
  };
}

/** The buffers of a PackedPages, to transfer them to another thread. */
export const packedBuffers = (p: PackedPages): ArrayBuffer[] =>
  [p.keyEnds.buffer, p.textEnds.buffer, p.offsets.buffer, p.numbers.buffer, p.flags.buffer, p.slots.buffer] as ArrayBuffer[];

/** The pages of a PackedPages as a read-only map: entries made when asked for (a new object each time). */
export class PageTable implements ReadonlyMap<string, PageEntry> {
  readonly #p: PackedPages;

  constructor(packed: PackedPages) {
    this.#p = packed;
  }

  get size(): number {
    return this.#p.count;
  }

  /** The page number of `key`, or -1. */
  #find(key: string): number {
    const { slots, keys, keyEnds } = this.#p;
    const mask = slots.length - 1;
    for (let slot = hashKey(key) & mask; ; slot = (slot + 1) & mask) {
      const held = slots[slot]!;
      if (held === 0) return -1;
      const i = held - 1;
      const start = i === 0 ? 0 : keyEnds[i - 1]!;
      if (keyEnds[i]! - start === key.length && keys.startsWith(key, start)) return i;
    }
  }

  #keyAt(i: number): string {
    const { keys, keyEnds } = this.#p;
    return keys.slice(i === 0 ? 0 : keyEnds[i - 1]!, keyEnds[i]!);
  }

  #range(i: number, r: number): Range {
    const { offsets, numbers } = this.#p;
    const n = 9 * i + 3 * r;
    return [offsets[3 * i + r]!, numbers[n]!, numbers[n + 1]!, numbers[n + 2]!];
  }

  #entryAt(i: number): PageEntry {
    const { texts, textEnds, flags } = this.#p;
    const flag = flags[i]!;
    const start = i === 0 ? 0 : textEnds[2 * i - 1]!;
    if (flag & KEPT_AS_TEXT) return JSON.parse(texts.slice(start, textEnds[2 * i + 1]!)) as PageEntry;
    const etagEnd = textEnds[2 * i]!;
    const entry: { -readonly [K in keyof PageEntry]: PageEntry[K] } = { etag: texts.slice(start, etagEnd), body: this.#range(i, 0) };
    if (flag & HAS_LINK) entry.link = texts.slice(etagEnd, textEnds[2 * i + 1]!);
    if (flag & NOINDEX) entry.noindex = true;
    if (flag & HAS_BR) entry.br = this.#range(i, 1);
    if (flag & HAS_GZIP) entry.gzip = this.#range(i, 2);
    return entry;
  }

  get(key: string): PageEntry | undefined {
    const i = this.#find(key);
    return i === -1 ? undefined : this.#entryAt(i);
  }

  /** The ETag of `key`'s page, without making its entry (the purge list's diff: diff-manifests.ts). */
  etagOf(key: string): string | undefined {
    const i = this.#find(key);
    if (i === -1) return undefined;
    const { texts, textEnds, flags } = this.#p;
    if (flags[i]! & KEPT_AS_TEXT) return this.#entryAt(i).etag;
    return texts.slice(i === 0 ? 0 : textEnds[2 * i - 1]!, textEnds[2 * i]!);
  }

  has(key: string): boolean {
    return this.#find(key) !== -1;
  }

  *keys(): MapIterator<string> {
    for (let i = 0; i < this.#p.count; i++) yield this.#keyAt(i);
  }

  *values(): MapIterator<PageEntry> {
    for (let i = 0; i < this.#p.count; i++) yield this.#entryAt(i);
  }

  *entries(): MapIterator<[string, PageEntry]> {
    for (let i = 0; i < this.#p.count; i++) yield [this.#keyAt(i), this.#entryAt(i)];
  }

  [Symbol.iterator](): MapIterator<[string, PageEntry]> {
    return this.entries();
  }

  forEach(callback: (value: PageEntry, key: string, map: ReadonlyMap<string, PageEntry>) => void, thisArg?: unknown): void {
    for (const [key, entry] of this.entries()) callback.call(thisArg, entry, key, this);
  }
}
