// Loading search.json in two halves (src/search/search-index.ts): decodeSearchIndex, which the
// server runs on a worker thread, and assembleSearchIndex, run in steps on the event loop. An index
// decoded, moved as postMessage moves it (its buffers transferred) and assembled must be the index
// that was built: every array equal, every ranking equal to the last bit.
import { describe, expect, it } from 'vitest';
import { seededModel } from '../support/seeded-model.ts';
import { SEARCH_KINDS } from '../../../src/search/documents.ts';
import { searchAll, searchKind } from '../../../src/search/run-search.ts';
import {
  assembleSearchIndex, buildSearchIndex, decodedBuffers, decodeSearchIndex, packStrings, serialiseSearchIndex, unpackStrings, type DecodedSearchIndex,
} from '../../../src/search/search-index.ts';
import { runSteps } from '../../../src/model/steps.ts';

const model = seededModel(2000);
const index = buildSearchIndex(model, { topListPostings: 150 });
const text = serialiseSearchIndex(index);

/** What a worker's postMessage(decoded, decodedBuffers(decoded)) hands the main thread. */
const moved = (decoded: DecodedSearchIndex): DecodedSearchIndex => structuredClone(decoded, { transfer: decodedBuffers(decoded) });

describe('decodeSearchIndex and assembleSearchIndex', () => {
  it('give, through a transfer like a worker thread makes, the index that was built', () => {
    const decoded = decodeSearchIndex(Buffer.from(text));
    const copy = moved(decoded);
    // the transfer moved the buffers: the decoder's arrays are emptied, not copied
    expect(decoded.videos.docs.length).toBe(0);
    const loaded = runSteps(assembleSearchIndex(copy));
    for (const k of SEARCH_KINDS) {
      const a = index[k];
      const b = loaded[k];
      expect(b.keys).toEqual(a.keys);
      expect(b.terms).toEqual(a.terms);
      for (const name of ['frequency', 'starts', 'looseEnds', 'docs', 'scoreAll', 'looseScoreStarts', 'scoreLoose'] as const) {
        expect(Array.from(b[name]), `${k} ${name}`).toEqual(Array.from(a[name]));
      }
      expect(Array.from(b.typos.buckets)).toEqual(Array.from(a.typos.buckets));
      expect(Array.from(b.typos.entries)).toEqual(Array.from(a.typos.entries));
      expect(Array.from(b.typos.byLength)).toEqual(Array.from(a.typos.byLength));
      expect([...b.tops.keys()]).toEqual([...a.tops.keys()]);
      for (const [word, r] of a.tops) {
        const s = b.tops.get(word)!;
        expect({ ids: Array.from(s.ids), scores: Array.from(s.scores), total: s.total }, word).toEqual({ ids: Array.from(r.ids), scores: Array.from(r.scores), total: r.total });
      }
    }
    expect(index.videos.tops.size).toBeGreaterThan(0);
    for (const q of ['video', 'vid', 'tutorial', 'tutoral', 'the', 'a b', 'live music', 'zzzz']) {
      for (const k of SEARCH_KINDS) {
        const a = searchKind(index, k, q);
        const b = searchKind(loaded, k, q);
        expect({ ids: Array.from(b.ids), scores: Array.from(b.scores), total: b.total }, `${k} ${q}`).toEqual({ ids: Array.from(a.ids), scores: Array.from(a.scores), total: a.total });
      }
      expect(Array.from(searchAll(loaded, q).ids), q).toEqual(Array.from(searchAll(index, q).ids));
    }
  });

  it('refuse a decoded index whose arrays do not fit its vocabulary', () => {
    const decoded = decodeSearchIndex(text);
    const damaged = { ...decoded, videos: { ...decoded.videos, docs: decoded.videos.docs.subarray(1) } };
    expect(() => runSteps(assembleSearchIndex(damaged))).toThrow(/search index: the decoded videos index is damaged/);
  });
});

describe('packStrings and unpackStrings', () => {
  it('round-trip any strings, empty ones and characters outside the BMP included', () => {
    const strings = ['', 'a', '運営', '開発チーム運営', '', 'ünïcødé', '😀x', 'a'.repeat(5000), ...Array.from({ length: 9000 }, (_, i) => `w${i}`)];
    expect(runSteps(unpackStrings(packStrings(strings)))).toEqual(strings);
  });

  it('unpack in steps of a few thousand strings, not in one piece', () => {
    const steps = unpackStrings(packStrings(Array.from({ length: 10_000 }, (_, i) => `w${i}`)));
    let pauses = 0;
    for (let step = steps.next(); !step.done; step = steps.next()) pauses++;
    expect(pauses).toBe(2);
  });

  it('refuse ends that run backwards or past the text', () => {
    expect(() => runSteps(unpackStrings({ text: 'abc', ends: Int32Array.of(2, 1) }))).toThrow(/packed strings are damaged/);
    expect(() => runSteps(unpackStrings({ text: 'abc', ends: Int32Array.of(4) }))).toThrow(/packed strings are damaged/);
  });
});
