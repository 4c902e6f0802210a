// Running a query against one kind's index (CONTRACT §2 Search: typo-tolerant, prefix-aware,
// best first). Every word must match (AND). A word matches its own term in every field (title over
// tags over description, by the boosts), and in the short fields also its typos (one edit from 4
// letters, two from 8, a swap of two letters counting as one) and, for the last word, as a user is still typing it, its completions: the
// 8 most frequent for a prefix of up to 3 letters, the 64 most frequent for a longer one. That
// bound keeps short prefixes fast. A document's score is the sum over words of the best score of
// the word's variants (typos weigh 0.45, completions 0.5). Rankings are cached per query (LRU),
// since real query streams repeat a lot.
import { SHORT_PREFIX, type KindIndex, type SearchIndex } from './search-index.ts';
import type { SearchKind } from './documents.ts';
import { termsOf } from './text.ts';

/**
 * Matches, best first: document ids of the kind and their scores, for the first `ids.length` of
 * `total` matches. Cached rankings keep the best KEPT_MATCHES only (10 pages of 20): a word found
 * in 35,000 videos would otherwise keep 400 KB per query, and buffers that outlive the young
 * generation are what drove the major garbage collections. Deeper pages are ranked again in full,
 * uncached.
 */
export interface Ranking {
  readonly ids: Int32Array;
  readonly scores: Float64Array;
  readonly total: number;
}

export const KEPT_MATCHES = 200;

export const CACHED_QUERIES = 2000;
export const MAX_COMPLETIONS = 64;
const COMPLETION_WEIGHT = 0.5;
const TYPO_WEIGHT = 0.45;
const EMPTY: Ranking = { ids: new Int32Array(0), scores: new Float64Array(0), total: 0 };

const caches = new WeakMap<KindIndex, Map<string, Ranking>>();

const typos = (term: string): number => (term.length >= 8 ? 2 : term.length >= 4 ? 1 : 0);

const idfOf = (index: KindIndex, id: number) => {
  const df = index.frequency[id]!;
  return Math.log(1 + (index.keys.length - df + 0.5) / (df + 0.5));
};

/**
 * A word's variants: term id, whether it scores over every field, and its weight. A variant's
 * scores carry its own rarity (idf); when the word itself is a term, variants are weighed with the
 * word's rarity instead, so a rare completion never outranks the word as typed.
 */
function variantsOf(index: KindIndex, word: string, last: boolean): { id: number; all: boolean; weight: number }[] {
  const variants = new Map<number, { id: number; all: boolean; weight: number }>();
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

/** Per-index working memory, reused by every query: typed arrays only, so a query makes no garbage for the collector to trace. */
interface Scratch {
  readonly total: Float64Array;
  readonly word: Float64Array;
  readonly matched: Uint8Array;
  readonly candidates: Int32Array;
  readonly touched: Int32Array;
  readonly ranked: Float64Array;
}
const scratches = new WeakMap<KindIndex, Scratch>();

function rank(index: KindIndex, words: readonly string[], keep: number): Ranking {
  const n = index.keys.length;
  let scratch = scratches.get(index);
  if (!scratch) {
    scratch = { total: new Float64Array(n), word: new Float64Array(n), matched: new Uint8Array(n), candidates: new Int32Array(n), touched: new Int32Array(n), ranked: new Float64Array(n) };
    scratches.set(index, scratch);
  }
  const { total, word, matched, candidates, touched, ranked } = scratch;
  let candidateCount = 0;
  words.forEach((w, wi) => {
    let count = 0;
    for (const variant of variantsOf(index, w, wi === words.length - 1)) {
      const scores = variant.all ? index.scoreAll : index.scoreLoose;
      for (let p = index.starts[variant.id]!, end = index.starts[variant.id + 1]!; p < end; p++) {
        const score = scores[p]! * variant.weight;
        if (score === 0) continue;
        const doc = index.docs[p]!;
        if (wi > 0 && matched[doc] !== wi) continue;
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
    if (wi === 0) {
      candidates.set(touched.subarray(0, count));
      candidateCount = count;
    }
  });
  let found = 0;
  for (let i = 0; i < candidateCount; i++) {
    const doc = candidates[i]!;
    if (matched[doc] === words.length) touched[found++] = doc;
  }
  const byScore = (a: number, b: number) => total[b]! - total[a]! || a - b;
  let ids: Int32Array;
  if (found > keep) {
    // Only the best `keep` are wanted: find the keep-th best score with a native numeric sort of
    // the scores, then sort just the documents at or above it.
    for (let i = 0; i < found; i++) ranked[i] = total[touched[i]!]!;
    const threshold = ranked.subarray(0, found).sort()[found - keep]!;
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

/**
 * The ranking of `q` in one kind's index, with at least its first `depth` matches (all of them
 * for Infinity). Terms are normalised as at index time. The best KEPT_MATCHES are cached.
 */
export function searchKind(search: SearchIndex, kind: SearchKind, q: string, depth = KEPT_MATCHES): Ranking {
  const terms = termsOf(q);
  if (terms.length === 0) return EMPTY;
  const index = search[kind];
  if (depth > KEPT_MATCHES) {
    const cached = caches.get(index)?.get(terms.join(' '));
    return cached && cached.ids.length === cached.total ? cached : rank(index, terms, Number.POSITIVE_INFINITY);
  }
  let cache = caches.get(index);
  if (!cache) caches.set(index, (cache = new Map()));
  const key = terms.join(' ');
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const ranking = rank(index, terms, KEPT_MATCHES);
  cache.set(key, ranking);
  if (cache.size > CACHED_QUERIES) cache.delete(cache.keys().next().value!);
  return ranking;
}

/** Matches of every kind, best first; ties by kind (videos, channels, playlists), then document id. */
export interface MixedRanking extends Ranking {
  /** index into SEARCH_KINDS per match */
  readonly kinds: Uint8Array;
}

const mixedCaches = new WeakMap<SearchIndex, Map<string, MixedRanking>>();
const KIND_ORDER: readonly SearchKind[] = ['videos', 'channels', 'playlists'];

export function searchAll(search: SearchIndex, q: string, depth = KEPT_MATCHES): MixedRanking {
  if (depth > KEPT_MATCHES) return mix(KIND_ORDER.map((kind) => searchKind(search, kind, q, depth)));
  let cache = mixedCaches.get(search);
  if (!cache) mixedCaches.set(search, (cache = new Map()));
  const key = termsOf(q).join(' ');
  const hit = cache.get(key);
  if (hit) return hit;
  const mixed = mix(KIND_ORDER.map((kind) => searchKind(search, kind, q)));
  cache.set(key, mixed);
  if (cache.size > CACHED_QUERIES) cache.delete(cache.keys().next().value!);
  return mixed;
}

/** Rankings of each kind merged, best first: the first min(kept) positions are exact. */
function mix(parts: readonly Ranking[]): MixedRanking {
  const size = parts.reduce((sum, r) => sum + r.ids.length, 0);
  const kinds = new Uint8Array(size);
  const ids = new Int32Array(size);
  const scores = new Float64Array(size);
  let at = 0;
  parts.forEach((ranking, kind) => {
    kinds.fill(kind, at, at + ranking.ids.length);
    ids.set(ranking.ids, at);
    scores.set(ranking.scores, at);
    at += ranking.ids.length;
  });
  const order = new Int32Array(size);
  for (let i = 0; i < size; i++) order[i] = i;
  order.sort((a, b) => scores[b]! - scores[a]! || kinds[a]! - kinds[b]! || ids[a]! - ids[b]!);
  // Past the shortest incomplete part, a kind's unkept matches could come first: keep only what is exact.
  const exact = Math.min(size, ...parts.filter((r) => r.ids.length < r.total).map((r) => r.ids.length));
  const kept = order.subarray(0, exact);
  return {
    kinds: Uint8Array.from(kept, (i) => kinds[i]!),
    ids: Int32Array.from(kept, (i) => ids[i]!),
    scores: Float64Array.from(kept, (i) => scores[i]!),
    total: parts.reduce((sum, r) => sum + r.total, 0),
  };
}
