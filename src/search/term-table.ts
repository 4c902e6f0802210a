// The terms of the texts being indexed, as ids (search-index.ts buildKind): the same terms as
// text.ts termsOf, in the same order, without making a string per word. Most words of most
// catalogues are ASCII letters and digits: such a word is found by scanning the text's code
// units (lower-cased and hashed as they are read) and looked up in an open-addressed table of the
// terms' code units, and only a term never seen before becomes a string. Any other word (one with
// a letter, digit or mark outside ASCII) takes termsOf's own steps (text.ts termsOfToken): the
// words it splits into are the same, since a text's words are its maximal runs of letters,
// digits and marks whatever their script. Splitting every text with a regular expression, a
// string per word and a Map from each to its id cost most of the index build's CPU (docs/performance.md,
// "Search index build without a string per word").
import { isAscii } from 'node:buffer';
import { isWordCodePoint, STOPWORDS, termsOfToken } from './text.ts';

/** The ids of a text's terms, appended (a growable array of ids). */
export interface TermIdList {
  ids: Int32Array;
  length: number;
}

/**
 * ASCII code units that are part of a word, letters and digits (ASCII has no other letters, digits
 * or marks), as lower-cased (what toLowerCase makes of them); 0 for the others.
 */
const ASCII_LOWER = new Uint8Array(128);
for (let c = 0; c < 128; c++) ASCII_LOWER[c] = (c >= 48 && c <= 57) || (c >= 97 && c <= 122) ? c : c >= 65 && c <= 90 ? c + 32 : 0;

/** The classes of the code units outside ASCII that are no surrogate, as found (0: not yet, 1: word, 2: not). */
const BMP_CLASS = new Uint8Array(0x10000);

const isWordUnit = (c: number): boolean => {
  let known = BMP_CLASS[c]!;
  if (known === 0) BMP_CLASS[c] = known = isWordCodePoint(c) ? 1 : 2;
  return known === 1;
};

/** The same for code points outside the BMP (emoji, mathematical letters…), as found. */
const ASTRAL_CLASS = new Map<number, boolean>();

const isWordAstral = (codePoint: number): boolean => {
  let known = ASTRAL_CLASS.get(codePoint);
  if (known === undefined) ASTRAL_CLASS.set(codePoint, (known = isWordCodePoint(codePoint)));
  return known;
};

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** Code units of the code point at `i` of `units` (before `end`) when it is part of a word (1 or 2), else 0. */
function wordUnitsAt(units: Uint16Array, i: number, end: number): number {
  const c = units[i]!;
  if (c < 0x80) return ASCII_LOWER[c]! === 0 ? 0 : 1;
  if (isHigh(c)) {
    const next = i + 1 < end ? units[i + 1]! : 0;
    // a lone surrogate is a code point of its own, and no letter, digit or mark
    return isLow(next) && isWordAstral(((c - 0xd800) << 10) + (next - 0xdc00) + 0x10000) ? 2 : 0;
  }
  if (isLow(c)) return 0;
  return isWordUnit(c) ? 1 : 0;
}

/** FNV-1a's step over one code unit: the same hash for a term read from a text or from a string. */
const mix = (hash: number, unit: number) => Math.imul(hash ^ unit, 0x01000193);
const HASH_SEED = 0x811c9dc5 | 0;

/** A word of 5 ASCII letters or digits or fewer as a number (7 bits a letter), lower-cased: stopwords are checked without a string. */
function keyOf(units: ArrayLike<number>, from: number, length: number): number {
  let key = 0;
  for (let i = from; i < from + length; i++) key = key * 128 + ASCII_LOWER[units[i]!]!;
  return key * 8 + length;
}
const LONGEST_STOPWORD = Math.max(...[...STOPWORDS].map((w) => w.length));
if (LONGEST_STOPWORD > 5 || [...STOPWORDS].some((w) => !/^[a-z]+$/.test(w))) throw new Error('stopwords must be at most 5 ASCII letters');
const STOP_KEYS = new Set([...STOPWORDS].map((w) => keyOf(Array.from(w, (c) => c.charCodeAt(0)), 0, w.length)));

/** Every term met, its id being the order it was first met in. */
export class TermTable {
  /** id → term */
  readonly terms: string[] = [];
  /**
   * open addressing, two numbers a slot: id + 1 (0 for an empty slot) and the term's hash, so that
   * a probe meets the hash where it meets the id (a term's hash looked up by its id was a cache
   * miss of its own per word)
   */
  private slots = new Int32Array(2 << 16);
  private hashes = new Int32Array(1 << 12);
  /** id → where its code units start in `units` (and end, at id + 1) */
  private starts = new Int32Array(1 << 12);
  private units = new Uint16Array(1 << 16);
  /** a term given as a string (idOfTerm), as code units */
  private word = new Uint16Array(256);
  /** the code units of a text given as a string (scan) */
  private text = new Uint16Array(1 << 12);
  /**
   * each word outside ASCII met, as it is written (its code units looked up as a term's are: no
   * string made of each word read, no Map of strings) → the ids of its terms (termsOf's steps are
   * costly: NFKD, NFC, ICU's dictionaries)
   */
  private words: TermTable | undefined;
  private readonly wordTerms: number[][] = [];

  get size(): number {
    return this.terms.length;
  }

  /**
   * Appends the ids of `text`'s terms (termsOf(text), each as its id, a term met first given the
   * next id) to `out`; returns how many.
   */
  scan(text: string, out: TermIdList): number {
    if (text.length > this.text.length) this.text = grow16(this.text, text.length);
    const units = this.text;
    for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
    return this.scanUnits(units, 0, text.length, out);
  }

  /**
   * The same for the text that the UTF-8 `bytes` from `from` to `to` hold, cut to its first `most`
   * code units, when they are all ASCII (each byte is then a code unit: no string is decoded);
   * -1, appending nothing, when they are not.
   */
  scanAscii(bytes: Uint8Array, from: number, to: number, most: number, out: TermIdList): number {
    const text = bytes.subarray(from, Math.min(to, from + most));
    // (a byte of a character outside ASCII is 0x80 or more: a cut character is no ASCII either)
    if (!isAscii(text)) return -1;
    if (text.length > this.text.length) this.text = grow16(this.text, text.length);
    this.text.set(text);
    return this.scanUnits(this.text, 0, text.length, out);
  }

  /** The same for the text in `units` from `from` to `to` (a packed document's field: no string made of it). */
  scanUnits(units: Uint16Array, from: number, to: number, out: TermIdList): number {
    const before = out.length;
    // a term is at least one code unit of the text: room for them all, once
    if (out.length + to - from > out.ids.length) {
      const grown = new Int32Array(Math.max(out.ids.length * 2, out.length + to - from));
      grown.set(out.ids.subarray(0, out.length));
      out.ids = grown;
    }
    const ids = out.ids;
    let count = out.length;
    let i = from;
    while (i < to) {
      const c = units[i]!;
      if (c < 0x80 ? ASCII_LOWER[c] === 0 : wordUnitsAt(units, i, to) === 0) {
        i++; // (the low half of a pair that is no letter is then no letter either)
        continue;
      }
      // a word starts at i: hashed lower-cased while it is ASCII
      const start = i;
      let hash = HASH_SEED;
      let ascii = true;
      for (; i < to; i++) {
        const unit = units[i]!;
        const lower = unit < 0x80 ? ASCII_LOWER[unit]! : 0;
        if (lower === 0) {
          // the word ends here, or goes on outside ASCII
          if (unit >= 0x80) ascii = wordUnitsAt(units, i, to) === 0;
          break;
        }
        hash = mix(hash, lower);
      }
      if (ascii) {
        const length = i - start;
        if (length <= LONGEST_STOPWORD && STOP_KEYS.has(keyOf(units, start, length))) continue;
        ids[count++] = this.idOf(hash, units, start, length, true, undefined);
        continue;
      }
      // not ASCII: the whole word as a string, through termsOf's own steps (once per distinct word)
      while (i < to) {
        const step = wordUnitsAt(units, i, to);
        if (step === 0) break;
        i += step;
      }
      let raw = HASH_SEED;
      for (let k = start; k < i; k++) raw = mix(raw, units[k]!);
      const words = (this.words ??= new TermTable());
      const word = words.idOf(raw, units, start, i - start, false, undefined);
      let termIds = this.wordTerms[word];
      if (termIds === undefined) this.wordTerms[word] = termIds = termsOfToken(words.terms[word]!).map((term) => this.idOfTerm(term));
      for (const id of termIds) ids[count++] = id;
    }
    out.length = count;
    return count - before;
  }

  /** The id of a term given as a string (a word outside ASCII, after termsOf's steps). */
  private idOfTerm(term: string): number {
    let hash = HASH_SEED;
    const length = term.length;
    if (length > this.word.length) this.word = grow16(this.word, length);
    for (let i = 0; i < length; i++) {
      const unit = term.charCodeAt(i);
      this.word[i] = unit;
      hash = mix(hash, unit);
    }
    return this.idOf(hash, this.word, 0, length, false, term);
  }

  /**
   * The id of the term in `source` from `from` (`length` units, lower-cased first when `fold`:
   * ASCII letters and digits), hashed to `hash`, added when new: its string is `term`, or made
   * from its units when not given.
   */
  private idOf(hash: number, source: Uint16Array, from: number, length: number, fold: boolean, term: string | undefined): number {
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const held = slots[2 * slot]!;
      if (held === 0) return this.add(hash, source, from, length, fold, term, slot);
      if (slots[2 * slot + 1] !== hash) continue;
      const id = held - 1;
      const at = this.starts[id]!;
      if (this.starts[id + 1]! - at !== length) continue;
      let same = true;
      for (let k = 0; k < length; k++) {
        const unit = source[from + k]!;
        if (this.units[at + k] !== (fold ? ASCII_LOWER[unit] : unit)) {
          same = false;
          break;
        }
      }
      if (same) return id;
    }
  }

  private add(hash: number, source: Uint16Array, from: number, length: number, fold: boolean, term: string | undefined, slot: number): number {
    const id = this.terms.length;
    if (id + 2 > this.hashes.length) {
      this.hashes = grow32(this.hashes, id + 2);
      this.starts = grow32(this.starts, id + 2);
    }
    this.hashes[id] = hash;
    const at = this.starts[id]!;
    if (at + length > this.units.length) this.units = grow16(this.units, at + length);
    for (let k = 0; k < length; k++) {
      const unit = source[from + k]!;
      this.units[at + k] = fold ? ASCII_LOWER[unit]! : unit;
    }
    this.starts[id + 1] = at + length;
    this.terms.push(term ?? stringOf(this.units, at, at + length));
    this.slots[2 * slot] = id + 1;
    this.slots[2 * slot + 1] = hash;
    if ((id + 1) * 2 > this.slots.length >> 1) this.rehash();
    return id;
  }

  /** Twice the slots, every term placed again (a table at most half full keeps probes short). */
  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = (slots.length >> 1) - 1;
    for (let id = 0; id < this.terms.length; id++) {
      const hash = this.hashes[id]!;
      let slot = hash & mask;
      while (slots[2 * slot] !== 0) slot = (slot + 1) & mask;
      slots[2 * slot] = id + 1;
      slots[2 * slot + 1] = hash;
    }
    this.slots = slots;
  }
}

/** The code units from `from` to `to` as a string (in pieces: a call takes so many arguments at most). */
function stringOf(units: Uint16Array, from: number, to: number): string {
  let text = '';
  for (let at = from; at < to; at += 4096) text += String.fromCharCode.apply(null, units.subarray(at, Math.min(to, at + 4096)) as unknown as number[]);
  return text;
}

function grow16(array: Uint16Array<ArrayBuffer>, least: number): Uint16Array<ArrayBuffer> {
  const grown = new Uint16Array(Math.max(least, array.length * 2));
  grown.set(array);
  return grown;
}

function grow32(array: Int32Array<ArrayBuffer>, least: number): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(Math.max(least, array.length * 2));
  grown.set(array);
  return grown;
}
