// The typo index finds exactly the terms a full Levenshtein comparison finds, with their distances:
// on a vocabulary dense in near neighbours (three letters, repeated letters, words as long as 30),
// for words of every length the typo rules allow (one edit from 4 letters, two from 8), including
// words longer than those whose deletions are listed.
import { describe, expect, it } from 'vitest';
import { editsFor } from '../../../src/search/rank.ts';
import { buildTypoIndex, editDistance, forEachTypo, LONGEST_DELETED } from '../../../src/search/typo-index.ts';

/** The Levenshtein distance of a and b over UTF-16 code units, in full. */
function levenshtein(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1), row[j]! + 1, next[j - 1]! + 1);
    row = next;
  }
  return row[b.length]!;
}

function random(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
}

const r = random(3);
const wordOf = (length: number, letters: string) => Array.from({ length }, () => letters[Math.floor(r() * letters.length)]).join('');
// near neighbours everywhere: three letters (and one outside the BMP, two code units), lengths 1 to 30
const terms = [...new Set(Array.from({ length: 4000 }, () => wordOf(1 + Math.floor(r() * (r() < 0.9 ? 12 : 30)), 'aab\u{1d400}c')))].sort();
const filed = terms.map((_, id) => id).filter((id) => id % 7 !== 0); // some terms are not filed (as terms found in no short field)
const index = buildTypoIndex(terms, filed, editsFor);

describe('forEachTypo', () => {
  it('finds every filed term within the edits a word takes, each once, with its exact distance', () => {
    const words = [...terms.slice(0, 300), ...Array.from({ length: 300 }, () => wordOf(1 + Math.floor(r() * 28), 'abc'))];
    expect(words.some((w) => w.length > LONGEST_DELETED)).toBe(true);
    let found = 0;
    for (const word of words) {
      const k = editsFor(word.length);
      const expected = filed.filter((id) => { const d = levenshtein(word, terms[id]!); return d >= 1 && d <= k; }).map((id) => [id, levenshtein(word, terms[id]!)]);
      const actual: [number, number][] = [];
      forEachTypo(index, terms, word, k, (id, edits) => actual.push([id, edits]));
      expect(actual.sort((a, b) => a[0] - b[0]), word).toEqual(expected);
      found += actual.length;
    }
    expect(found).toBeGreaterThan(300);
  });

  it('finds nothing for words that take no typos', () => {
    const seen: number[] = [];
    forEachTypo(index, terms, 'aab', 0, (id) => seen.push(id));
    expect(seen).toEqual([]);
  });
});

describe('editDistance', () => {
  it('is the Levenshtein distance up to the bound, and the bound plus one past it', () => {
    for (let i = 0; i < 2000; i++) {
      const a = wordOf(Math.floor(r() * 10), 'abc');
      const b = wordOf(Math.floor(r() * 10), 'abc');
      const k = Math.floor(r() * 3);
      expect(editDistance(a, b, k), `${a} ${b} ${k}`).toBe(Math.min(levenshtein(a, b), k + 1));
    }
  });
});
