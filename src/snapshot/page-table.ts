// The served snapshot's pages as an incremental build holds them (docs/architecture.md,
// "Incremental builds"): not a Map of 310,000 parsed entries (about six objects a page, all alive
// for the whole build, copied by every scavenge until promoted), but a page table of a few typed
// arrays, packed from the manifest's bytes on a worker thread while the main thread reads the
// catalogue (previous-snapshot.ts) and handed over as transferred buffers: no object is made for a
// page until it is asked for, then from the table's numbers and texts. A lookup hashes the key's
// UTF-8 bytes (FNV-1a) into an open-addressing table of page numbers. The table is read-only and
// answers as a ReadonlyMap (the page writer and the purge list's diff ask it as they asked the Map).
// A line of the page writer's form is packed straight from its bytes; any other is parsed as JSON
// (page-index.ts parsePageLine) and packed from its entry.
//
// An entry is rebuilt with its fields in the order the page writer makes them (etag, body, link,
// noindex, br, gzip), so the manifest written from it is the bytes the served one had; a line whose
// entry is not of that form (another order, another field, a string needing other escapes) is kept
// as its JSON text and parsed when asked: the same object JSON.parse made before.
import type { PageEntry, Range } from './manifest.ts';
import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COMMA, NINE, QUOTE, ZERO } from './json-bytes.ts';

/** What the table is made of: typed arrays only, sent from the worker with their buffers transferred. */
export interface PackedPages {
  readonly count: number;
  /** every key's UTF-8 bytes, one after another */
  readonly keys: Uint8Array;
  /** where each key ends in `keys` (it starts where the previous one ends) */
  readonly keyEnds: Uint32Array;
  /** each page's etag then its link as UTF-8 (or its entry's JSON text, for a page kept as text) */
  readonly texts: Uint8Array;
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

const FNV_START = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a of bytes. */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let hash = FNV_START;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i]!, FNV_PRIME);
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


/** The bytes of an ASCII text, to compare a line with. */
const bytesOf = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));
const KEY_TO_ETAG = bytesOf(':{"etag":"');
const TO_BODY = bytesOf(',"body":[');
const TO_LINK = bytesOf(',"link":"');
const NOINDEX_TRUE = bytesOf(',"noindex":true');
const TO_BR = bytesOf(',"br":[');
const TO_GZIP = bytesOf(',"gzip":[');

const startsAt = (bytes: Uint8Array, at: number, end: number, expected: Uint8Array): boolean => {
  if (at + expected.length > end) return false;
  for (let i = 0; i < expected.length; i++) if (bytes[at + i] !== expected[i]) return false;
  return true;
};

/** A buffer bytes are appended to, grown by doubling. */
class Bytes {
  buffer: Uint8Array;
  length = 0;

  constructor(size = 0) {
    this.buffer = new Uint8Array(Math.max(1 << 20, size));
  }

  /** room for `more` bytes after `length` */
  reserve(more: number): void {
    if (this.length + more <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < this.length + more) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
  }

  /** the bytes, in a buffer of their own (to be transferred) */
  take(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }
}

/** Where the last copyString's copy ended in its output, and the FNV-1a hash of what it copied (globals: no tuple a string, millions a build). */
let copiedTo = 0;
let copiedHash = 0;

/**
 * Copies a JSON string's text from `bytes` (`at`: after its opening quote) to `out` from `to`,
 * unescaped; the place after its closing quote (where the copy ended: `copiedTo`, its FNV-1a hash:
 * `copiedHash`), or -1 when the string holds anything but printable ASCII and the escapes \" and \\
 * (it is then parsed as JSON). The caller reserved room (a string's text is never longer than its JSON).
 */
function copyString(bytes: Uint8Array, at: number, end: number, out: Uint8Array, to: number): number {
  let hash = FNV_START;
  for (; at < end; at++) {
    let byte = bytes[at]!;
    if (byte === QUOTE) {
      copiedTo = to;
      copiedHash = hash >>> 0;
      return at + 1;
    }
    if (byte < 0x20 || byte >= 0x7f) return -1;
    if (byte === BACKSLASH) {
      byte = bytes[++at]!;
      if (byte !== QUOTE && byte !== BACKSLASH) return -1;
    }
    out[to++] = byte;
    hash = Math.imul(hash ^ byte, FNV_PRIME);
  }
  return -1;
}

/**
 * Reads the four numbers of a range (`at`: after its `[`) into `into` from `slot`; the place after
 * its `]`, or -1 when it is not four integers of JSON's form (no sign, no leading zero, at most 15
 * digits) with the last three at most 0xffffffff.
 */
function readRange(bytes: Uint8Array, at: number, end: number, into: Float64Array, slot: number): number {
  for (let n = 0; n < 4; n++) {
    const first = at;
    let value = 0;
    for (; at < end; at++) {
      const byte = bytes[at]!;
      if (byte < ZERO || byte > NINE) break;
      value = value * 10 + (byte - ZERO);
    }
    const digits = at - first;
    if (digits === 0 || digits > 15 || (digits > 1 && bytes[first] === ZERO) || (n > 0 && value > 0xffffffff)) return -1;
    into[slot + n] = value;
    if (bytes[at] !== (n === 3 ? CLOSE_BRACKET : COMMA)) return -1;
    at++;
  }
  return at;
}

export interface PagePacker {
  /** adds a page */
  add(key: string, entry: PageEntry): void;
  /**
   * Adds the page of a manifest line (`"key":{...}`, after the first with a leading comma) read
   * straight from its bytes, when the line is of the form the page writer writes (printable
   * ASCII, no escapes but \" and \\); false, adding nothing, for any other line (the caller then
   * parses it as JSON: page-index.ts parsePageLine, and adds its entry).
   */
  addLine(bytes: Uint8Array, start: number, end: number): boolean;
  finish(): PackedPages;
}

/** Manifest bytes a page's line takes, at least (an estimate of the pages from the file's size: fewer arrays grown). */
const LEAST_LINE_BYTES = 128;

/**
 * Collects pages (in any order, each key once) into a PackedPages; `bytes`, the size of the
 * manifest they are read from when known, sizes its arrays from the start.
 */
export function createPagePacker(bytes = 0): PagePacker {
  let count = 0;
  let capacity = Math.max(1024, Math.ceil(bytes / LEAST_LINE_BYTES));
  let keyEnds = new Uint32Array(capacity);
  let hashes = new Uint32Array(capacity);
  let textEnds = new Uint32Array(capacity * 2);
  let offsets = new Float64Array(capacity * 3);
  let numbers = new Uint32Array(capacity * 9);
  let flags = new Uint8Array(capacity);
  // a key and an etag (and a link) take less than half of a line each
  const keys = new Bytes(Math.floor(bytes / 2));
  const texts = new Bytes(Math.floor(bytes / 2));
  /** the ranges of the page being added: body, br, gzip, four numbers each */
  const ranges = new Float64Array(12);
  const grow = () => {
    capacity *= 2;
    const more = <T extends Uint32Array | Float64Array | Uint8Array>(old: T, make: (n: number) => T, per: number): T => {
      const next = make(capacity * per);
      next.set(old);
      return next;
    };
    keyEnds = more(keyEnds, (n) => new Uint32Array(n), 1);
    hashes = more(hashes, (n) => new Uint32Array(n), 1);
    textEnds = more(textEnds, (n) => new Uint32Array(n), 2);
    offsets = more(offsets, (n) => new Float64Array(n), 3);
    numbers = more(numbers, (n) => new Uint32Array(n), 9);
    flags = more(flags, (n) => new Uint8Array(n), 1);
  };
  /** Records a page whose key ends at `keyEnd` in `keys` (its FNV-1a hash `hash`) and whose texts end at `etagEnd`, `textEnd`. */
  const commit = (keyEnd: number, hash: number, etagEnd: number, textEnd: number, flag: number) => {
    if (count === capacity) grow();
    const i = count++;
    hashes[i] = hash;
    keys.length = keyEnd;
    keyEnds[i] = keyEnd;
    textEnds[2 * i] = etagEnd;
    textEnds[2 * i + 1] = textEnd;
    texts.length = textEnd;
    flags[i] = flag;
    if (flag & KEPT_AS_TEXT) return;
    for (let r = 0; r < 3; r++) {
      if ((r === 1 && !(flag & HAS_BR)) || (r === 2 && !(flag & HAS_GZIP))) continue;
      offsets[3 * i + r] = ranges[4 * r]!;
      numbers[9 * i + 3 * r] = ranges[4 * r + 1]!;
      numbers[9 * i + 3 * r + 1] = ranges[4 * r + 2]!;
      numbers[9 * i + 3 * r + 2] = ranges[4 * r + 3]!;
    }
  };
  const encoder = new TextEncoder();
  /** Appends a string's UTF-8 after `to` in `into`; where it ends. */
  const append = (into: Bytes, to: number, text: string): number => {
    into.reserve(to - into.length + text.length * 3);
    return to + encoder.encodeInto(text, into.buffer.subarray(to)).written;
  };
  return {
    add(key, entry) {
      const keyEnd = append(keys, keys.length, key);
      const hash = hashBytes(keys.buffer, keys.length, keyEnd);
      if (!isPlain(entry as unknown as Record<string, unknown>)) {
        commit(keyEnd, hash, texts.length, append(texts, texts.length, JSON.stringify(entry)), KEPT_AS_TEXT);
        return;
      }
      let flag = entry.noindex ? NOINDEX : 0;
      const given = [entry.body, entry.br, entry.gzip];
      for (let r = 0; r < 3; r++) {
        const range = given[r];
        if (range === undefined) continue;
        if (r === 1) flag |= HAS_BR;
        if (r === 2) flag |= HAS_GZIP;
        for (let n = 0; n < 4; n++) ranges[4 * r + n] = range[n]!;
      }
      const etagEnd = append(texts, texts.length, entry.etag);
      let textEnd = etagEnd;
      if (entry.link !== undefined) {
        flag |= HAS_LINK;
        textEnd = append(texts, etagEnd, entry.link);
      }
      commit(keyEnd, hash, etagEnd, textEnd, flag);
    },
    addLine(bytes, start, end) {
      keys.reserve(end - start);
      texts.reserve(end - start);
      let at = start + (bytes[start] === COMMA ? 1 : 0);
      if (bytes[at] !== QUOTE) return false;
      at = copyString(bytes, at + 1, end, keys.buffer, keys.length);
      if (at === -1 || !startsAt(bytes, at, end, KEY_TO_ETAG)) return false;
      const keyEnd = copiedTo;
      const hash = copiedHash;
      at = copyString(bytes, at + KEY_TO_ETAG.length, end, texts.buffer, texts.length);
      if (at === -1 || !startsAt(bytes, at, end, TO_BODY)) return false;
      const etagEnd = copiedTo;
      at = readRange(bytes, at + TO_BODY.length, end, ranges, 0);
      if (at === -1) return false;
      let flag = 0;
      let textEnd = etagEnd;
      if (startsAt(bytes, at, end, TO_LINK)) {
        at = copyString(bytes, at + TO_LINK.length, end, texts.buffer, textEnd);
        if (at === -1) return false;
        flag |= HAS_LINK;
        textEnd = copiedTo;
      }
      if (startsAt(bytes, at, end, NOINDEX_TRUE)) {
        flag |= NOINDEX;
        at += NOINDEX_TRUE.length;
      }
      if (startsAt(bytes, at, end, TO_BR)) {
        flag |= HAS_BR;
        at = readRange(bytes, at + TO_BR.length, end, ranges, 4);
        if (at === -1) return false;
      }
      if (startsAt(bytes, at, end, TO_GZIP)) {
        flag |= HAS_GZIP;
        at = readRange(bytes, at + TO_GZIP.length, end, ranges, 8);
        if (at === -1) return false;
      }
      if (at !== end - 1 || bytes[at] !== CLOSE_BRACE) return false;
      commit(keyEnd, hash, etagEnd, textEnd, flag);
      return true;
    },
    finish() {
      let size = 1;
      while (size < count * 2) size *= 2;
      const slots = new Int32Array(size);
      const bytes = keys.buffer;
      for (let i = 0; i < count; i++) {
        const hash = hashes[i]!;
        for (let slot = hash & (size - 1); ; slot = (slot + 1) & (size - 1)) {
          const held = slots[slot]!;
          if (held === 0) {
            slots[slot] = i + 1;
            break;
          }
          const j = held - 1;
          const [start, end] = [i === 0 ? 0 : keyEnds[i - 1]!, keyEnds[i]!];
          if (hashes[j] === hash && Buffer.compare(bytes.subarray(j === 0 ? 0 : keyEnds[j - 1]!, keyEnds[j]!), bytes.subarray(start, end)) === 0) {
            throw new Error(`it names the page ${Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('utf8')} twice`);
          }
        }
      }
      return {
        count,
        keys: keys.take(),
        keyEnds: keyEnds.slice(0, count),
        texts: texts.take(),
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
  [p.keys.buffer, p.keyEnds.buffer, p.texts.buffer, p.textEnds.buffer, p.offsets.buffer, p.numbers.buffer, p.flags.buffer, p.slots.buffer] as ArrayBuffer[];

const bufferOf = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The pages of a PackedPages as a read-only map: entries made when asked for (a new object each time). */
export class PageTable implements ReadonlyMap<string, PageEntry> {
  readonly #p: PackedPages;
  readonly #keys: Buffer;
  readonly #texts: Buffer;

  constructor(packed: PackedPages) {
    this.#p = packed;
    this.#keys = bufferOf(packed.keys);
    this.#texts = bufferOf(packed.texts);
  }

  get size(): number {
    return this.#p.count;
  }

  /** the page number last found: the next looked up is often beside it (see #find) */
  #last = -1;

  /**
   * The page number of `key`, or -1. The build looks the pages up in its plan's order, which is
   * nearly the table's (key order: a video's page, its comments, its playback, the next video's),
   * so the pages just after and before the last one found are compared first, byte for byte
   * (keyIs: no hash, no probe of the slots), then the key is hashed.
   */
  #find(key: string): number {
    const last = this.#last;
    const count = this.#p.count;
    if (last + 1 < count && this.keyIs(last + 1, key)) return (this.#last = last + 1);
    if (last + 2 < count && this.keyIs(last + 2, key)) return (this.#last = last + 2);
    if (last >= 1 && this.keyIs(last - 1, key)) return (this.#last = last - 1);
    const found = this.#hashFind(key);
    if (found !== -1) this.#last = found;
    return found;
  }

  #hashFind(key: string): number {
    const { slots, keyEnds } = this.#p;
    const keys = this.#keys;
    let hash = FNV_START;
    let ascii = true;
    for (let i = 0; i < key.length; i++) {
      const unit = key.charCodeAt(i);
      if (unit >= 0x80) {
        ascii = false;
        break;
      }
      hash = Math.imul(hash ^ unit, FNV_PRIME);
    }
    // a key of other characters is compared as its UTF-8 bytes
    const utf8 = ascii ? undefined : Buffer.from(key, 'utf8');
    if (utf8) hash = hashBytes(utf8, 0, utf8.length);
    const length = utf8 ? utf8.length : key.length;
    const mask = slots.length - 1;
    for (let slot = (hash >>> 0) & mask; ; slot = (slot + 1) & mask) {
      const held = slots[slot]!;
      if (held === 0) return -1;
      const i = held - 1;
      const start = i === 0 ? 0 : keyEnds[i - 1]!;
      if (keyEnds[i]! - start !== length) continue;
      if (utf8) {
        if (keys.compare(utf8, 0, length, start, start + length) === 0) return i;
        continue;
      }
      let same = true;
      for (let c = 0; c < length; c++) {
        if (keys[start + c] !== key.charCodeAt(c)) {
          same = false;
          break;
        }
      }
      if (same) return i;
    }
  }

  /** The page number of `key` (the pages in the manifest's order), or -1: found as `get` finds it. */
  indexOf(key: string): number {
    return this.#find(key);
  }

  /** The entry of page number `i` (a new object, as `get` makes it). */
  entryAt(i: number): PageEntry {
    return this.#entryAt(i);
  }

  /**
   * Whether page number `i` has range `r` (0: body, 1: br, 2: gzip); if so its offset, length and
   * shard are put in `into` (no object made: the page writer asks this of every page it takes in
   * place, page-writer.ts).
   */
  rangeInto(i: number, r: number, into: Float64Array): boolean {
    const flag = this.#p.flags[i]!;
    if (flag & KEPT_AS_TEXT) {
      const entry = this.#entryAt(i);
      const range = r === 0 ? entry.body : r === 1 ? entry.br : entry.gzip;
      if (range === undefined) return false;
      into[0] = range[0];
      into[1] = range[1];
      into[2] = range[3];
      return true;
    }
    if ((r === 1 && !(flag & HAS_BR)) || (r === 2 && !(flag & HAS_GZIP))) return false;
    const n = 9 * i + 3 * r;
    into[0] = this.#p.offsets[3 * i + r]!;
    into[1] = this.#p.numbers[n]!;
    into[2] = this.#p.numbers[n + 2]!;
    return true;
  }

  /** The key of page number `i` (the pages in the manifest's order). */
  keyAt(i: number): string {
    return this.#keyAt(i);
  }

  #keyAt(i: number): string {
    const { keyEnds } = this.#p;
    return this.#keys.toString('utf8', i === 0 ? 0 : keyEnds[i - 1]!, keyEnds[i]!);
  }

  #range(i: number, r: number): Range {
    const { offsets, numbers } = this.#p;
    const n = 9 * i + 3 * r;
    return [offsets[3 * i + r]!, numbers[n]!, numbers[n + 1]!, numbers[n + 2]!];
  }

  #entryAt(i: number): PageEntry {
    const { textEnds, flags } = this.#p;
    const texts = this.#texts;
    const flag = flags[i]!;
    const start = i === 0 ? 0 : textEnds[2 * i - 1]!;
    if (flag & KEPT_AS_TEXT) return JSON.parse(texts.toString('utf8', start, textEnds[2 * i + 1]!)) as PageEntry;
    const etagEnd = textEnds[2 * i]!;
    const entry: { -readonly [K in keyof PageEntry]: PageEntry[K] } = { etag: texts.toString('utf8', start, etagEnd), body: this.#range(i, 0) };
    if (flag & HAS_LINK) entry.link = texts.toString('utf8', etagEnd, textEnds[2 * i + 1]!);
    if (flag & NOINDEX) entry.noindex = true;
    if (flag & HAS_BR) entry.br = this.#range(i, 1);
    if (flag & HAS_GZIP) entry.gzip = this.#range(i, 2);
    return entry;
  }

  /** The shard of page number `i`'s body range (the pages in the manifest's order). */
  shardAt(i: number): number {
    return this.#p.flags[i]! & KEPT_AS_TEXT ? this.#entryAt(i).body[3] : this.#p.numbers[9 * i + 2]!;
  }

  /** Whether page number `i` is `key`'s, compared with the table's bytes (no string made). */
  keyIs(i: number, key: string): boolean {
    const { keyEnds } = this.#p;
    const keys = this.#keys;
    const start = i === 0 ? 0 : keyEnds[i - 1]!;
    const end = keyEnds[i]!;
    if (end - start !== key.length) return Buffer.byteLength(key) === end - start && keys.toString('utf8', start, end) === key;
    for (let c = 0; c < key.length; c++) {
      const unit = key.charCodeAt(c);
      if (unit >= 0x80) return keys.toString('utf8', start, end) === key;
      if (keys[start + c] !== unit) return false;
    }
    return true;
  }

  get(key: string): PageEntry | undefined {
    const i = this.#find(key);
    return i === -1 ? undefined : this.#entryAt(i);
  }

  /** The ETag of `key`'s page, without making its entry (the purge list's diff: diff-manifests.ts). */
  etagOf(key: string): string | undefined {
    const i = this.#find(key);
    if (i === -1) return undefined;
    const { textEnds, flags } = this.#p;
    if (flags[i]! & KEPT_AS_TEXT) return this.#entryAt(i).etag;
    return this.#texts.toString('utf8', i === 0 ? 0 : textEnds[2 * i - 1]!, textEnds[2 * i]!);
  }

  /**
   * Whether `key`'s page has the ETag `etag` (undefined when there is no such page), compared with
   * the table's bytes: no entry, no string made (the purge list's diff, for every page).
   */
  sameEtag(key: string, etag: string): boolean | undefined {
    const i = this.#find(key);
    if (i === -1) return undefined;
    const { textEnds, flags } = this.#p;
    if (flags[i]! & KEPT_AS_TEXT) return this.#entryAt(i).etag === etag;
    const start = i === 0 ? 0 : textEnds[2 * i - 1]!;
    const end = textEnds[2 * i]!;
    const texts = this.#texts;
    if (end - start !== etag.length) return Buffer.byteLength(etag) === end - start && texts.toString('utf8', start, end) === etag;
    for (let c = 0; c < etag.length; c++) {
      const unit = etag.charCodeAt(c);
      if (unit >= 0x80) return texts.toString('utf8', start, end) === etag;
      if (texts[start + c] !== unit) return false;
    }
    return true;
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

/** A table of `pages` (any ReadonlyMap of entries; a PageTable is itself): what the page writer reads the served pages from. */
export function pageTableOf(pages: ReadonlyMap<string, PageEntry>): PageTable {
  if (pages instanceof PageTable) return pages;
  const packer = createPagePacker();
  for (const [key, entry] of pages) packer.add(key, entry);
  return new PageTable(packer.finish());
}
