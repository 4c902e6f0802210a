// Typo lookups (docs/search.md, "The index and its speed"): every indexed term within a word's
// allowed edits (insertions, deletions, substitutions of UTF-16 code units: Levenshtein), found
// without walking the vocabulary. Two strings within k edits reach a common string by at most k
// deletions each (a substitution is a deletion on both sides), so the index files every term under
// each string its deletions reach (hashed into buckets), and a lookup hashes the word's own
// deletions, then checks the few terms filed there with the exact distance. A radix tree walked
// with a Levenshtein row (MiniSearch's fuzzy search) took 4–22 ms for a word of 8 letters or more
// (two edits) over PyVideo's 73,000 alphabetic terms; this takes a few hundredths of that.
// Words too long for their deletions to be worth listing (more than LONGEST_DELETED code units)
// are compared with every term of a near length instead: they are few.

export interface TypoIndex {
  /** bucket b's terms are entries[buckets[b]..buckets[b + 1]]; a power of two buckets */
  readonly buckets: Int32Array;
  /** term ids, bucket by bucket */
  readonly entries: Int32Array;
  /** the terms filed, and the longer ones, by length then id: for the words too long to delete from */
  readonly byLength: Int32Array;
}

/** The longest word whose deletions are listed (k = 2: 1 + 20 + 190 strings); longer ones are compared with the terms of a near length. */
export const LONGEST_DELETED = 20;

/** FNV-1a over a string's code units, leaving out positions `skip1` and `skip2` (-1 for none). */
function hashWithout(s: string, skip1: number, skip2: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    if (i === skip1 || i === skip2) continue;
    h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  }
  return h >>> 0;
}

/** Calls `visit` with the hash of every string `s` reaches by at most `k` (≤ 2) deletions (some more than once). */
function forEachDeletion(s: string, k: number, visit: (hash: number) => void): void {
  visit(hashWithout(s, -1, -1));
  if (k < 1) return;
  for (let i = 0; i < s.length; i++) {
    // deleting either of two equal neighbours gives the same string: list it once
    if (i > 0 && s.charCodeAt(i) === s.charCodeAt(i - 1)) continue;
    visit(hashWithout(s, i, -1));
    if (k < 2) continue;
    for (let j = i + 1; j < s.length; j++) {
      if (j > i + 1 && s.charCodeAt(j) === s.charCodeAt(j - 1)) continue;
      visit(hashWithout(s, i, j));
    }
  }
}

/**
 * The index of `ids` (the terms that may be found as a typo), for words allowed `editsFor(length)`
 * edits. A term is filed with as many deletions as the longest edits of a word it may be a typo of.
 */
export function buildTypoIndex(terms: readonly string[], ids: readonly number[], editsFor: (length: number) => number): TypoIndex {
  const deletionsFor = (length: number) => {
    let most = -1;
    for (let word = Math.max(1, length - 2); word <= length + 2; word++) {
      const k = editsFor(word);
      if (k >= Math.abs(word - length) && k > most && word <= LONGEST_DELETED) most = k;
    }
    return most;
  };
  // hashes and their terms, then a counting sort into buckets
  let hashes = new Int32Array(1024);
  let owners = new Int32Array(1024);
  let count = 0;
  const filed: number[] = [];
  for (const id of ids) {
    const term = terms[id]!;
    const k = deletionsFor(term.length);
    if (k < 1) {
      if (term.length > LONGEST_DELETED) filed.push(id);
      continue;
    }
    filed.push(id);
    forEachDeletion(term, k, (hash) => {
      if (count === hashes.length) {
        const h = new Int32Array(count * 2);
        h.set(hashes);
        hashes = h;
        const o = new Int32Array(count * 2);
        o.set(owners);
        owners = o;
      }
      hashes[count] = hash;
      owners[count++] = id;
    });
  }
  let size = 1;
  while (size < count) size *= 2;
  const buckets = new Int32Array(size + 1);
  for (let i = 0; i < count; i++) buckets[(hashes[i]! & (size - 1)) + 1]! += 1;
  for (let b = 0; b < size; b++) buckets[b + 1]! += buckets[b]!;
  const fill = buckets.slice(0, size);
  const entries = new Int32Array(count);
  for (let i = 0; i < count; i++) entries[fill[hashes[i]! & (size - 1)]!++] = owners[i]!;
  const byLength = Int32Array.from(filed).sort((a, b) => terms[a]!.length - terms[b]!.length || a - b);
  return { buckets, entries, byLength };
}

/** The Levenshtein distance of `a` and `b` (code units) when at most `k`, else k + 1. */
export function editDistance(a: string, b: string, k: number): number {
  if (Math.abs(a.length - b.length) > k) return k + 1;
  const n = b.length;
  let previous = new Int32Array(n + 1);
  let current = new Int32Array(n + 1);
  for (let j = 0; j <= n; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let least = i;
    const c = a.charCodeAt(i - 1);
    for (let j = 1; j <= n; j++) {
      const d = Math.min(previous[j - 1]! + (c === b.charCodeAt(j - 1) ? 0 : 1), previous[j]! + 1, current[j - 1]! + 1);
      current[j] = d;
      if (d < least) least = d;
    }
    if (least > k) return k + 1;
    [previous, current] = [current, previous];
  }
  return Math.min(previous[n]!, k + 1);
}

/** Per-index marks of the terms already checked in a lookup: a stamp per term, a new stamp per lookup. */
const marks = new WeakMap<TypoIndex, { stamps: Int32Array; stamp: number }>();

/**
 * Calls `found(id, edits)` for every filed term 1 to `k` edits away from `word` (`terms` as
 * filed), each once. Exactly the terms a Levenshtein walk of the same terms finds.
 */
export function forEachTypo(index: TypoIndex, terms: readonly string[], word: string, k: number, found: (id: number, edits: number) => void): void {
  if (k < 1) return;
  let mark = marks.get(index);
  if (!mark) marks.set(index, (mark = { stamps: new Int32Array(terms.length), stamp: 0 }));
  if (mark.stamp === 0x7fffffff) {
    mark.stamps.fill(0);
    mark.stamp = 0;
  }
  const stamp = ++mark.stamp;
  const { stamps } = mark;
  const check = (id: number) => {
    if (stamps[id] === stamp) return;
    stamps[id] = stamp;
    const edits = editDistance(word, terms[id]!, k);
    if (edits >= 1 && edits <= k) found(id, edits);
  };
  if (word.length > LONGEST_DELETED) {
    // the terms of lengths word ± k, a run of byLength
    const { byLength } = index;
    let lo = 0;
    let hi = byLength.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (terms[byLength[mid]!]!.length < word.length - k) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < byLength.length && terms[byLength[i]!]!.length <= word.length + k; i++) check(byLength[i]!);
    return;
  }
  const { buckets, entries } = index;
  const mask = buckets.length - 2;
  forEachDeletion(word, k, (hash) => {
    const b = hash & mask;
    for (let e = buckets[b]!; e < buckets[b + 1]!; e++) check(entries[e]!);
  });
}
