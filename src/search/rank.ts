// How a query matches and ranks in one kind's index (docs/search.md: typo-tolerant, prefix-aware,
// best first). Every word must match (AND). A word matches its own term in every field (title over
// tags over description, by the boosts), and in the short fields also its typos (one edit from 4
// letters, two from 8, a swap of two letters counting as one; none in scripts where a character is
// a syllable or a word) and, for the last word, as a user is still typing it, every indexed term it
// is a prefix of: no completion is left out, so `total` is the exact number of matches. A
// document's score is the sum over words of the best score of the word's variants (typos weigh
// 0.45, completions 0.5); ties by document id.
import type { KindIndex, Ranking } from './kind-index.ts';

export type { Ranking };
import { allowsTypos } from './text.ts';
import { forEachTypo } from './typo-index.ts';
import { findTerm, prefixRun } from './vocabulary.ts';

/** Matches a ranking keeps when not asked for more: 10 pages of 20. */
export const KEPT_MATCHES = 200;
const COMPLETION_WEIGHT = 0.5;
const TYPO_WEIGHT = 0.45;

/** Matches, best first: document ids of the kind and their scores, for the first `ids.length` of `total` matches. */

/** The edits a word of `length` code units may take, in scripts that take typos. */
export const editsFor = (length: number): number => (length >= 8 ? 2 : length >= 4 ? 1 : 0);
const typos = (term: string): number => (allowsTypos(term) ? editsFor(term.length) : 0);

const idfOf = (index: KindIndex, id: number) => {
  const df = index.frequency[id]!;
  return Math.log(1 + (index.keys.length - df + 0.5) / (df + 0.5));
};

/**
 * A word's variants: its own term (`exact`, scored over every field, weight 1; -1 when it is no
 * term) and the terms it may stand for (typos, completions), scored over the short fields only,
 * each with its weight. Typed arrays: a one-letter prefix stands for thousands of terms.
 */
export interface Variants {
  readonly exact: number;
  readonly ids: Int32Array;
  readonly weights: Float64Array;
}

/**
 * Words' variants remembered per index, up to this many variants in all (about 12 bytes each):
 * the typo lookup takes 0.1–0.5 ms, and words recur across queries far more than whole queries do.
 */
export const CACHED_VARIANTS = 1_000_000;
interface VariantCache { readonly words: Map<string, Variants>; size: number }
const variantCaches = new WeakMap<KindIndex, VariantCache>();

/**
 * A word's variants. A variant's scores carry its own rarity (idf); when the word itself is a
 * term, variants are weighed with the word's rarity instead, so a rare completion never outranks
 * the word as typed.
 */
export function variantsOf(index: KindIndex, word: string, last: boolean): Variants {
  let cache = variantCaches.get(index);
  if (!cache) variantCaches.set(index, (cache = { words: new Map(), size: 0 }));
  const key = last ? `${word}*` : word; // a term never holds '*'
  let variants = cache.words.get(key);
  if (variants) {
    cache.words.delete(key);
  } else {
    variants = findVariants(index, word, last);
    cache.size += variants.ids.length + 1;
    while (cache.size > CACHED_VARIANTS && cache.words.size > 0) {
      const [oldest, dropped] = cache.words.entries().next().value!;
      cache.words.delete(oldest);
      cache.size -= dropped.ids.length + 1;
    }
  }
  cache.words.set(key, variants);
  return variants;
}

function findVariants(index: KindIndex, word: string, last: boolean): Variants {
  const weights = new Map<number, number>();
  const exact = findTerm(index.terms, word);
  const add = (id: number, base: number, reference: number | undefined) => {
    if (id === exact) return;
    const weight = reference === undefined ? base : base * Math.min(1, reference / idfOf(index, id));
    if (!(weights.get(id)! >= weight)) weights.set(id, weight);
  };
  const exactIdf = exact === -1 ? undefined : idfOf(index, exact);
  // Completions and typos match in the short fields only: a term found in none of them (its
  // short-field postings are none) is skipped, as it would add nothing.
  const inShortFields = (id: number) => index.looseEnds[id]! > index.starts[id]!;
  if (last) {
    // Every completion counts. They are weighed with the rarity of the word as typed, or when it
    // is no term, of its commonest completion (in any field): a rare completion matches, but never
    // outranks the completion a user most likely means only for being rare.
    const [from, to] = prefixRun(index.terms, word);
    let commonest = -1;
    for (let id = from; id < to; id++) {
      if (id !== exact && (commonest === -1 || index.frequency[id]! > index.frequency[commonest]!)) commonest = id;
    }
    const reference = exactIdf ?? (commonest === -1 ? undefined : idfOf(index, commonest));
    for (let id = from; id < to; id++) if (inShortFields(id)) add(id, COMPLETION_WEIGHT, reference);
  }
  const distance = typos(word);
  if (distance > 0) {
    forEachTypo(index.typos, index.terms, word, distance, (id, edits) => add(id, TYPO_WEIGHT / edits, exactIdf));
    // two letters swapped, the commonest typo, counts as one edit
    for (let i = 0; i < word.length - 1; i++) {
      if (word[i] === word[i + 1]) continue;
      const id = findTerm(index.terms, word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2));
      if (id !== -1 && inShortFields(id)) add(id, TYPO_WEIGHT, exactIdf);
    }
  }
  return { exact, ids: Int32Array.from(weights.keys()), weights: Float64Array.from(weights.values()) };
}

/** The postings a word's variants hold: what ranking it alone costs. */
export function postingsOf(index: KindIndex, variants: Variants): number {
  let sum = variants.exact === -1 ? 0 : index.starts[variants.exact + 1]! - index.starts[variants.exact]!;
  for (const id of variants.ids) sum += index.looseEnds[id]! - index.starts[id]!;
  return sum;
}

/**
 * Scores the postings `start`..`end` (their scores at `shift` from them) into `total` (the query's first word): each document keeps
 * its best score, and is added to `candidates` the first time. Returns the candidates' count.
 * A plain function over arrays, not a closure, so the hot loop keeps its values in registers.
 */
function scoreFirst(docs: Int32Array, scores: Float32Array, shift: number, start: number, end: number, weight: number, total: Float64Array, candidates: Int32Array, count: number): number {
  for (let p = start; p < end; p++) {
    const score = scores[p + shift]! * weight;
    if (score === 0) continue;
    const doc = docs[p]!;
    if (total[doc] === 0) candidates[count++] = doc;
    if (score > total[doc]!) total[doc] = score;
  }
  return count;
}

/** Scores the postings `start`..`end` of a later word into `word`, for the documents still matching (`matched` = `wi`). Returns the touched count. */
function scoreLater(docs: Int32Array, scores: Float32Array, shift: number, start: number, end: number, weight: number, matched: Uint8Array, wi: number, word: Float64Array, touched: Int32Array, count: number): number {
  for (let p = start; p < end; p++) {
    const doc = docs[p]!;
    if (matched[doc] !== wi) continue;
    const score = scores[p + shift]! * weight;
    if (score === 0) continue;
    if (word[doc] === 0) touched[count++] = doc;
    if (score > word[doc]!) word[doc] = score;
  }
  return count;
}

/** Per-index working memory, reused by every query: typed arrays only, so a query makes no garbage for the collector to trace. */
interface Scratch {
  readonly total: Float64Array;
  readonly word: Float64Array;
  readonly matched: Uint8Array;
  readonly candidates: Int32Array;
  readonly touched: Int32Array;
  /** the best scores of a ranking, for its threshold */
  readonly heap: Float64Array;
}
const scratches = new WeakMap<KindIndex, Scratch>();

/**
 * The `keep`-th best of the totals of `docs` (`keep` ≤ `count`): the smallest of a min-heap of the
 * best `keep` seen so far, which most scores only compare with. A native sort of 35,000 scores
 * took 3.5 ms, most of the cost of ranking a word as common as "tutorial".
 */
function keepThreshold(heap: Float64Array, total: Float64Array, docs: Int32Array, count: number, keep: number): number {
  for (let i = 0; i < count; i++) {
    const score = total[docs[i]!]!;
    if (i < keep) {
      // sift up
      let at = i;
      while (at > 0) {
        const parent = (at - 1) >>> 1;
        if (heap[parent]! <= score) break;
        heap[at] = heap[parent]!;
        at = parent;
      }
      heap[at] = score;
    } else if (score > heap[0]!) {
      // replace the smallest, sift down
      let at = 0;
      for (;;) {
        let child = 2 * at + 1;
        if (child >= keep) break;
        if (child + 1 < keep && heap[child + 1]! < heap[child]!) child++;
        if (heap[child]! >= score) break;
        heap[at] = heap[child]!;
        at = child;
      }
      heap[at] = score;
    }
  }
  return heap[0]!;
}

/** Ranks `words` (already normalised terms) in full, keeping the best `keep` matches. */
export function rankWords(index: KindIndex, words: readonly string[], keep: number): Ranking {
  const n = index.keys.length;
  let scratch = scratches.get(index);
  if (!scratch) {
    scratch = { total: new Float64Array(n), word: new Float64Array(n), matched: new Uint8Array(n), candidates: new Int32Array(n), touched: new Int32Array(n), heap: new Float64Array(KEPT_MATCHES) };
    scratches.set(index, scratch);
  }
  const { total, word, matched, candidates, touched } = scratch;
  // The first word scores straight into the totals (0 + its score is its score) and names the
  // candidates; each later word keeps the candidates it matches, adding its score.
  // Each word's exact term scores over every field (its whole postings list), its other variants
  // over the short fields (the front of theirs).
  let candidateCount = 0;
  const first = variantsOf(index, words[0]!, words.length === 1);
  if (first.exact !== -1) candidateCount = scoreFirst(index.docs, index.scoreAll, 0, index.starts[first.exact]!, index.starts[first.exact + 1]!, 1, total, candidates, candidateCount);
  for (let v = 0; v < first.ids.length; v++) {
    const id = first.ids[v]!;
    candidateCount = scoreFirst(index.docs, index.scoreLoose, index.looseScoreStarts[id]! - index.starts[id]!, index.starts[id]!, index.looseEnds[id]!, first.weights[v]!, total, candidates, candidateCount);
  }
  for (let wi = 1; wi < words.length; wi++) {
    if (wi === 1) for (let i = 0; i < candidateCount; i++) matched[candidates[i]!] = 1;
    let count = 0;
    const later = variantsOf(index, words[wi]!, wi === words.length - 1);
    if (later.exact !== -1) count = scoreLater(index.docs, index.scoreAll, 0, index.starts[later.exact]!, index.starts[later.exact + 1]!, 1, matched, wi, word, touched, count);
    for (let v = 0; v < later.ids.length; v++) {
      const id = later.ids[v]!;
      count = scoreLater(index.docs, index.scoreLoose, index.looseScoreStarts[id]! - index.starts[id]!, index.starts[id]!, index.looseEnds[id]!, later.weights[v]!, matched, wi, word, touched, count);
    }
    for (let i = 0; i < count; i++) {
      const doc = touched[i]!;
      total[doc]! += word[doc]!;
      word[doc] = 0;
      matched[doc] = wi + 1;
    }
  }
  let found = 0;
  if (words.length === 1) {
    touched.set(candidates.subarray(0, candidateCount));
    found = candidateCount;
  } else {
    for (let i = 0; i < candidateCount; i++) {
      const doc = candidates[i]!;
      if (matched[doc] === words.length) touched[found++] = doc;
    }
  }
  const byScore = (a: number, b: number) => total[b]! - total[a]! || a - b;
  let ids: Int32Array;
  if (found > keep) {
    // Only the best `keep` are wanted: find the keep-th best score, then sort just the documents
    // at or above it.
    const heap = keep <= scratch.heap.length ? scratch.heap : new Float64Array(keep);
    const threshold = keepThreshold(heap, total, touched, found, keep);
    let kept = 0;
    for (let i = 0; i < found; i++) {
      const doc = touched[i]!;
      if (total[doc]! >= threshold) touched[kept++] = doc;
    }
    ids = touched.subarray(0, kept).sort(byScore).slice(0, keep);
  } else {
    ids = touched.subarray(0, found).sort(byScore).slice();
  }
  const scores = new Float64Array(ids.length);
  for (let i = 0; i < ids.length; i++) scores[i] = total[ids[i]!]!;
  for (let i = 0; i < candidateCount; i++) {
    const doc = candidates[i]!;
    total[doc] = 0;
    matched[doc] = 0;
  }
  return { ids, scores, total: found };
}
