// Top lists: the best matches of common one-word queries, ranked at build time, must be exactly
// what ranking the word at query time gives (ids, scores to the last bit, and the total), on a
// seeded catalogue, before and after the snapshot round trip.
import { describe, expect, it } from 'vitest';
import { seededModel } from '../support/seeded-model.ts';
import { SEARCH_KINDS } from '../../../src/search/documents.ts';
import { KEPT_MATCHES, rankWords, type Ranking } from '../../../src/search/rank.ts';
import { searchAll, searchKind } from '../../../src/search/run-search.ts';
import { buildSearchIndex, loadSearchIndex, serialiseSearchIndex, TOP_LIST_POSTINGS } from '../../../src/search/search-index.ts';
import { findTerm } from '../../../src/search/vocabulary.ts';

const model = seededModel(3000, 42);
// a low bound, so that a small catalogue has many top lists; and an index with none to compare with
const index = buildSearchIndex(model, { topListPostings: 150 });
const plain = buildSearchIndex(model, { topListPostings: Number.POSITIVE_INFINITY });
const loaded = loadSearchIndex(serialiseSearchIndex(index));

const plainOf = (r: Ranking) => ({ ids: Array.from(r.ids), scores: Array.from(r.scores), total: r.total });

describe('top lists', () => {
  const words = [...index.videos.tops.keys()];

  it('are made for common terms and prefixes, short and long, and for nothing in an index built without them', () => {
    expect(words.length).toBeGreaterThan(100);
    expect(words.some((w) => w.length <= 3)).toBe(true);
    expect(words.some((w) => w.length > 3 && findTerm(index.videos.terms, w) !== -1)).toBe(true);
    expect(words.some((w) => w.length > 3 && findTerm(index.videos.terms, w) === -1)).toBe(true);
    for (const kind of SEARCH_KINDS) expect(plain[kind].tops.size).toBe(0);
    expect(TOP_LIST_POSTINGS).toBeGreaterThan(150);
  });

  it('hold exactly the best matches of ranking the word in full at query time: ids, scores and total', () => {
    // channels and playlists are few: a lower bound gives them top lists too
    const lower = buildSearchIndex(model, { topListPostings: 10 });
    for (const kind of SEARCH_KINDS) expect(lower[kind].tops.size, kind).toBeGreaterThan(10);
    for (const kind of SEARCH_KINDS) {
      for (const [word, top] of [...index[kind].tops, ...lower[kind].tops]) {
        const full = rankWords(plain[kind], [word], Number.POSITIVE_INFINITY);
        expect(top.total, word).toBe(full.total);
        expect(plainOf(top), word).toEqual(plainOf({ ids: full.ids.subarray(0, KEPT_MATCHES), scores: full.scores.subarray(0, KEPT_MATCHES), total: full.total }));
      }
    }
  });

  it('answer searchKind and searchAll as an index without them does, after the snapshot round trip too', () => {
    const asked = [...words, ...words.map((w) => w.toUpperCase()), ...words.slice(0, 40).map((w) => `${w} video`)];
    for (const q of asked) {
      const expected = plainOf(searchKind(plain, 'videos', q));
      expect(plainOf(searchKind(index, 'videos', q)), q).toEqual(expected);
      expect(plainOf(searchKind(loaded, 'videos', q)), q).toEqual(expected);
      const deep = plainOf(searchKind(plain, 'videos', q, Number.POSITIVE_INFINITY));
      expect(plainOf(searchKind(loaded, 'videos', q, Number.POSITIVE_INFINITY)), q).toEqual(deep);
    }
    for (const q of words.slice(0, 60)) {
      const a = searchAll(plain, q);
      const b = searchAll(loaded, q);
      expect({ ...plainOf(b), kinds: Array.from(b.kinds) }, q).toEqual({ ...plainOf(a), kinds: Array.from(a.kinds) });
    }
  });
});

describe('rankWords', () => {
  it('keeps exactly the first matches of the full ranking, ties and all, for words typed, misspelt and cut short', () => {
    const titles = model.orders.latest.slice(0, 300).map((e) => e.video.title.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 2));
    const queries = titles.flatMap((words, i) => {
      const last = words.at(-1) ?? 'video';
      const typo = last.length > 4 ? `${last.slice(0, 2)}${last[3]}${last[2]}${last.slice(4)}` : last;
      return [words.slice(0, 1 + (i % 3)), [typo], [last.slice(0, 2 + (i % 3))]];
    });
    for (const words of queries) {
      for (const keep of [1, 20, KEPT_MATCHES]) {
        const full = rankWords(plain.videos, words, Number.POSITIVE_INFINITY);
        const kept = rankWords(plain.videos, words, keep);
        expect(kept.total, words.join(' ')).toBe(full.total);
        expect(Array.from(kept.ids), words.join(' ')).toEqual(Array.from(full.ids.subarray(0, keep)));
        expect(Array.from(kept.scores), words.join(' ')).toEqual(Array.from(full.scores.subarray(0, keep)));
      }
    }
  });
});
