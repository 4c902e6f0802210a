// Running a query against one kind's index, or all of them (docs/api-contract.md §2 Search; the matching and
// ranking rules are in rank.ts). A word typed alone that is common enough has a top list made at
// build time; other rankings are cached per query (LRU), since real query streams repeat a lot.
import { KEPT_MATCHES, rankWords, type Ranking } from './rank.ts';
import type { KindIndex, SearchIndex } from './search-index.ts';
import type { SearchKind } from './documents.ts';
import { termsOf } from './text.ts';

export { KEPT_MATCHES, type Ranking };

/**
 * Rankings are cached with their best KEPT_MATCHES only (10 pages of 20): a word found in 35,000
 * videos would otherwise keep 400 KB per query, and buffers that outlive the young generation are
 * what drove the major garbage collections. Deeper pages are ranked again in full, uncached.
 */
export const CACHED_QUERIES = 2000;
const EMPTY: Ranking = { ids: new Int32Array(0), scores: new Float64Array(0), total: 0 };

const caches = new WeakMap<KindIndex, Map<string, Ranking>>();

/**
 * The ranking of `q` in one kind's index, with at least its first `depth` matches (all of them
 * for Infinity). Terms are normalised as at index time. The best KEPT_MATCHES come from the word's
 * top list, or are cached.
 */
export function searchKind(search: SearchIndex, kind: SearchKind, q: string, depth = KEPT_MATCHES): Ranking {
  const terms = termsOf(q);
  if (terms.length === 0) return EMPTY;
  const index = search[kind];
  const key = terms.join(' ');
  const top = terms.length === 1 ? index.tops.get(key) : undefined;
  let cache = caches.get(index);
  if (!cache) caches.set(index, (cache = new Map()));
  if (depth > KEPT_MATCHES) {
    const known = top ?? cache.get(key);
    return known && known.ids.length === known.total ? known : rankWords(index, terms, Number.POSITIVE_INFINITY);
  }
  if (top) return top;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const ranking = rankWords(index, terms, KEPT_MATCHES);
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
