// How a query matches and ranks in one kind's index (CONTRACT §2 Search: typo-tolerant,
// prefix-aware, best first). Every word must match (AND). A word matches its own term in every
// field (title over tags over description, by the boosts), and in the short fields also its typos
// (one edit from 4 letters, two from 8, a swap of two letters counting as one) and, for the last
// word, as a user is still typing it, its completions: the 8 most frequent for a prefix of up to 3
// letters, the 64 most frequent for a longer one. That bound keeps short prefixes fast. A
// document's score is the sum over words of the best score of the word's variants (typos weigh
// 0.45, completions 0.5); ties by document id.
import type { KindIndex } from './search-index.ts';

/** Prefixes up to this length stand for their most frequent completions. */
export const SHORT_PREFIX = 3;
/** Completions kept per short prefix. */
export const COMPLETIONS = 8;
export const MAX_COMPLETIONS = 64;
/** Matches a ranking keeps when not asked for more: 10 pages of 20. */
export const KEPT_MATCHES = 200;
const COMPLETION_WEIGHT = 0.5;
const TYPO_WEIGHT = 0.45;

/** Matches, best first: document ids of the kind and their scores, for the first `ids.length` of `total` matches. */
export interface Ranking {
  readonly ids: Int32Array;
  readonly scores: Float64Array;
  readonly total: number;
}

const typos = (term: string): number => (term.length >= 8 ? 2 : term.length >= 4 ? 1 : 0);

const idfOf = (index: KindIndex, id: number) => {
  const df = index.frequency[id]!;
  return Math.log(1 + (index.keys.length - df + 0.5) / (df + 0.5));
};

export interface Variant {
  readonly id: number;
  /** scores over every field (the word as typed), or over the short fields only */
  readonly all: boolean;
  readonly weight: number;
}

/** Words' variants remembered per index: the typo lookup takes 0.1–0.5 ms, and words recur across queries far more than whole queries do. */
export const CACHED_WORDS = 4096;
const variantCaches = new WeakMap<KindIndex, Map<string, readonly Variant[]>>();

/**
 * A word's variants. A variant's scores carry its own rarity (idf); when the word itself is a
 * term, variants are weighed with the word's rarity instead, so a rare completion never outranks
 * the word as typed.
 */
export function variantsOf(index: KindIndex, word: string, last: boolean): readonly Variant[] {
  let cache = variantCaches.get(index);
  if (!cache) variantCaches.set(index, (cache = new Map()));
  const key = last ? `${word}*` : word; // a term never holds '*'
  let variants = cache.get(key);
  if (variants) {
    cache.delete(key);
  } else {
    variants = findVariants(index, word, last);
    if (cache.size >= CACHED_WORDS) cache.delete(cache.keys().next().value!);
  }
  cache.set(key, variants);
  return variants;
}

function findVariants(index: KindIndex, word: string, last: boolean): Variant[] {
  const variants = new Map<number, Variant>();
  const exact = index.vocabulary.get(word);
  if (exact !== undefined) variants.set(exact, { id: exact, all: true, weight: 1 });
  const exactIdf = exact === undefined ? undefined : idfOf(index, exact);
  const add = (id: number, base: number) => {
    const weight = exactIdf === undefined ? base : base * Math.min(1, exactIdf / idfOf(index, id));
    const before = variants.get(id);
    if (!before || (!before.all && before.weight < weight)) variants.set(id, { id, all: false, weight });
  };
  if (last) {
    if (word.length <= SHORT_PREFIX) {
      for (const id of index.completions.get(word) ?? []) add(id, COMPLETION_WEIGHT);
    } else {
      const completions: number[] = [];
      for (const [, id] of index.vocabulary.atPrefix(word)) completions.push(id);
      completions.sort((a, b) => index.frequency[b]! - index.frequency[a]! || a - b);
      for (const id of completions.slice(0, MAX_COMPLETIONS)) add(id, COMPLETION_WEIGHT);
    }
  }
  const distance = typos(word);
  if (distance > 0) {
    for (const [, [id, edits]] of index.vocabulary.fuzzyGet(word, distance)) if (edits > 0) add(id, TYPO_WEIGHT / edits);
    // two letters swapped, the commonest typo, counts as one edit
    for (let i = 0; i < word.length - 1; i++) {
      if (word[i] === word[i + 1]) continue;
      const id = index.vocabulary.get(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2));
      if (id !== undefined) add(id, TYPO_WEIGHT);
    }
  }
  return [...variants.values()];
}

/** The postings a word's variants hold: what ranking it alone costs. */
export function postingsOf(index: KindIndex, variants: readonly Variant[]): number {
  let sum = 0;
  for (const v of variants) sum += index.starts[v.id + 1]! - index.starts[v.id]!;
  return sum;
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
  let candidateCount = 0;
  for (const variant of variantsOf(index, words[0]!, words.length === 1)) {
    const scores = variant.all ? index.scoreAll : index.scoreLoose;
    for (let p = index.starts[variant.id]!, end = index.starts[variant.id + 1]!; p < end; p++) {
      const score = scores[p]! * variant.weight;
      if (score === 0) continue;
      const doc = index.docs[p]!;
      if (total[doc] === 0) candidates[candidateCount++] = doc;
      if (score > total[doc]!) total[doc] = score;
    }
  }
  for (let wi = 1; wi < words.length; wi++) {
    if (wi === 1) for (let i = 0; i < candidateCount; i++) matched[candidates[i]!] = 1;
    let count = 0;
    for (const variant of variantsOf(index, words[wi]!, wi === words.length - 1)) {
      const scores = variant.all ? index.scoreAll : index.scoreLoose;
      for (let p = index.starts[variant.id]!, end = index.starts[variant.id + 1]!; p < end; p++) {
        const score = scores[p]! * variant.weight;
        if (score === 0) continue;
        const doc = index.docs[p]!;
        if (matched[doc] !== wi) continue;
        if (word[doc] === 0) touched[count++] = doc;
        if (score > word[doc]!) word[doc] = score;
      }
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
