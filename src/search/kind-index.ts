// The search index's shape: one index per kind of resource (videos, channels, playlists), and a
// ranking. Declared apart so the modules that build, store and rank an index can all name it
// without importing each other.
import type { SearchKind } from './documents.ts';
import type { TypoIndex } from './typo-index.ts';

/** The best matches of a query, best first, with the number of all matches. */
export interface Ranking {
  readonly ids: Int32Array;
  readonly scores: Float64Array;
  readonly total: number;
}

export interface KindIndex {
  /** document id → key (video id, username, playlist id) */
  readonly keys: readonly string[];
  /**
   * every term, in code-unit order: a term's id is its position, so the terms a word starts are
   * one run of ids (vocabulary.ts)
   */
  readonly terms: readonly string[];
  /** term id → number of documents holding it */
  readonly frequency: Int32Array;
  /** term id → start of its postings (and the end, at id + 1) */
  readonly starts: Int32Array;
  /** term id → end of its postings in the short fields, which come first in its list */
  readonly looseEnds: Int32Array;
  /** postings, term by term: those in the short fields, then those in descriptions only, each part by document id ascending */
  readonly docs: Int32Array;
  /** each posting's score over every field */
  readonly scoreAll: Float32Array;
  /** term id → where the scores of its short-field postings start in scoreLoose */
  readonly looseScoreStarts: Int32Array;
  /** the short-field postings' scores over the short fields, term by term (the other postings score 0 there) */
  readonly scoreLoose: Float32Array;
  /**
   * the terms that may stand for a typo: in a short field (typos match nowhere else) and of a
   * script that takes typos (text.ts allowsTypos: not Chinese, Japanese, Korean, Thai…)
   */
  readonly typos: TypoIndex;
  /** a word typed alone (a frequent term or prefix) → its ranking's best KEPT_MATCHES, made at build time */
  readonly tops: ReadonlyMap<string, Ranking>;
}

export type SearchIndex = Readonly<Record<SearchKind, KindIndex>>;
