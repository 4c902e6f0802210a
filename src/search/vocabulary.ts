// A kind's vocabulary (docs/search.md): its terms in code-unit order, a term's id being its rank,
// so a word's completions (the terms it is a prefix of) are one run of ids found by two binary
// searches. An array of strings instead of a radix tree of Maps: 80,000 terms in a few MB of heap
// and no objects for the collector to trace.
import { lowerBound } from '../lib/lower-bound.ts';

/** The id of `word` in `terms`, or -1 when it is no term. */
export function findTerm(terms: readonly string[], word: string): number {
  const at = lowerBound(terms, word);
  return at < terms.length && terms[at] === word ? at : -1;
}

/** The ids of the terms `word` is a prefix of (itself included when a term): [from, to). */
export function prefixRun(terms: readonly string[], word: string): [from: number, to: number] {
  const from = lowerBound(terms, word);
  let lo = from;
  let hi = terms.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (terms[mid]!.startsWith(word)) lo = mid + 1;
    else hi = mid;
  }
  return [from, lo];
}

/** Whether `terms` is in code-unit order without repeats (a loaded index's check). */
export function isVocabulary(terms: readonly unknown[]): terms is string[] {
  for (let i = 0; i < terms.length; i++) {
    if (typeof terms[i] !== 'string') return false;
    if (i > 0 && !((terms[i - 1] as string) < (terms[i] as string))) return false;
  }
  return true;
}
