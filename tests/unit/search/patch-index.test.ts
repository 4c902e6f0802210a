// A rebuild's search index patched from the served one (patch-index.ts) must be the full build's,
// byte for byte, after every kind of change a catalogue sees: a title, tags, a description, a
// creator's name, documents added (ids moving), removed, and moved in the order (the kind indexed
// whole); and it must index only the documents that changed.
import { describe, expect, it } from 'vitest';
import { seededModel } from '../support/seeded-model.ts';
import { documentDigests, keysDigestOf, parseDigests, serialiseDigests } from '../../../src/search/document-digests.ts';
import { searchDocuments, SEARCH_KINDS, type SearchDocument, type SearchKind } from '../../../src/search/documents.ts';
import { mayStandFor, patchSearchIndex, standsForAny } from '../../../src/search/patch-index.ts';
import { buildSearchIndexOf, documentSources, loadSearchIndex, serialiseSearchIndex, type KindDocuments } from '../../../src/search/search-index.ts';
import { searchKind } from '../../../src/search/run-search.ts';

const model = seededModel(1500, 11);
// a low bound, so that many words have top lists to keep or rank again
const options = { topListPostings: 40 };

type Docs = Record<SearchKind, { keys: string[]; documents: SearchDocument[] }>;
const base: Docs = searchDocuments(model);
const copy = (docs: Docs): Docs => Object.fromEntries(SEARCH_KINDS.map((k) => [k, { keys: [...docs[k].keys], documents: docs[k].documents.map((d) => ({ ...d })) }])) as Docs;

/** The served side as a rebuild's worker has it: search.json read back, and the digests file read back. */
function served(docs: Docs) {
  const sources = documentSources(docs as KindDocuments);
  const digests = documentDigests(sources);
  const text = serialiseSearchIndex(buildSearchIndexOf(documentSources(docs as KindDocuments), options));
  const index = loadSearchIndex(text);
  return { index, digests: parseDigests(serialiseDigests(digests)), text };
}

function patched(before: Docs, after: Docs) {
  const old = served(before);
  const sources = documentSources(after as KindDocuments);
  const digests = documentDigests(sources);
  const { index, patch } = patchSearchIndex(old.index, old.digests, sources, digests, options);
  const full = serialiseSearchIndex(buildSearchIndexOf(documentSources(after as KindDocuments), options));
  return { text: serialiseSearchIndex(index), full, patch, index };
}

const field = (docs: Docs, kind: SearchKind, d: number, name: string, value: string) => {
  docs[kind].documents[d] = { ...docs[kind].documents[d]!, [name]: value };
};

describe('the search index patched from the served one', () => {
  it('is the full build after a title changed, and indexes that document alone', () => {
    const after = copy(base);
    field(after, 'videos', 7, 'title', 'Quantum sourdough keynote');
    const { text, full, patch } = patched(base, after);
    expect(text).toBe(full);
    expect(patch.videos).toMatchObject({ indexed: 1, dropped: 1 });
    expect(patch.channels).toMatchObject({ indexed: 0, dropped: 0, ranked: 0 });
  });

  it('keeps the top lists of words whose terms did not change, and ranks again those that did', () => {
    const after = copy(base);
    const word = [...served(base).index.videos.tops.keys()].find((w) => w.length >= 5)!;
    field(after, 'videos', 3, 'title', `${word} ${word} extra`);
    const { text, full, patch } = patched(base, after);
    expect(text).toBe(full);
    expect(patch.videos.ranked).toBeGreaterThan(0);
    expect(patch.videos.ranked).toBeLessThan(served(base).index.videos.tops.size);
  });

  it('is the full build after tags, a description and a creator changed, and when nothing did', () => {
    const after = copy(base);
    field(after, 'videos', 0, 'tags', 'brand new tags');
    field(after, 'videos', 100, 'description', 'A description rewritten: café, naïve, 開発チーム運営.');
    field(after, 'videos', 200, 'creator', 'Someone Else someone');
    field(after, 'channels', 2, 'displayName', 'Renamed Channel');
    field(after, 'playlists', 1, 'description', '');
    const { text, full, patch } = patched(base, after);
    expect(text).toBe(full);
    expect(patch.videos.indexed).toBe(3);
    expect(patch.channels.indexed).toBe(1);
    expect(patch.playlists.indexed).toBe(1);
    const same = patched(base, copy(base));
    expect(same.text).toBe(same.full);
    expect(same.patch.videos).toEqual({ indexed: 0, dropped: 0, ranked: 0 });
  });

  it('is the full build after documents were added first, removed, and a term vanished', () => {
    const after = copy(base);
    after.videos.keys.unshift('new-video-1', 'new-video-2');
    after.videos.documents.unshift({ id: 0, title: 'Zyzzyva unheardof', tags: '', creator: 'New Person np', description: 'fresh words only here' }, { id: 1, title: 'Second new one', tags: 'x', creator: 'B b', description: '' });
    after.videos.keys.splice(500, 3);
    after.videos.documents.splice(500, 3);
    after.playlists.keys.pop();
    after.playlists.documents.pop();
    const { text, full, patch } = patched(base, after);
    expect(text).toBe(full);
    expect(patch.videos).toMatchObject({ indexed: 2, dropped: 3 });
    const again = copy(after);
    again.videos.keys.splice(0, 1);
    again.videos.documents.splice(0, 1); // 'zyzzyva' and 'unheardof' are in no document any more
    const removed = patched(after, again);
    expect(removed.text).toBe(removed.full);
  });

  it('indexes a kind whole when a document moved in the order, and is the full build; refuses to when not every text is at hand', () => {
    const after = copy(base);
    const [key] = after.videos.keys.splice(10, 1);
    const [doc] = after.videos.documents.splice(10, 1);
    after.videos.keys.splice(900, 0, key!);
    after.videos.documents.splice(900, 0, doc!);
    const { text, full, patch } = patched(base, after);
    expect(text).toBe(full);
    expect(patch.videos.indexed).toBe(after.videos.keys.length);
    const old = served(base);
    const sources = documentSources(after as KindDocuments);
    expect(() => patchSearchIndex(old.index, old.digests, sources, documentDigests(sources), { ...options, complete: false })).toThrow(/videos documents moved in the order/);
  });

  it('answers queries as the full build does', () => {
    const after = copy(base);
    field(after, 'videos', 5, 'title', 'Tutorial on sourdough starters');
    const { index, full } = patched(base, after);
    const fullIndex = loadSearchIndex(full);
    for (const q of ['tutorial', 'sourdough', 'tut', 'sourdoguh', 'tutorial sourdough']) {
      expect(Array.from(searchKind(index, 'videos', q).ids), q).toEqual(Array.from(searchKind(fullIndex, 'videos', q).ids));
    }
  });
});

describe('standsForAny', () => {
  it('says of every word what asking mayStandFor of each changed term says, in every script and length', () => {
    const terms = served(base).index.videos.terms;
    const changed = terms.filter((_, i) => i % 37 === 0);
    // typos of changed terms: a letter swapped, dropped, changed, and two edits
    const typos = changed.filter((t) => t.length >= 5).slice(0, 80).flatMap((t) => [t[1]! + t[0]! + t.slice(2), t.slice(0, 2) + t.slice(3), `${t.slice(0, -1)}q`, `q${t.slice(1, -1)}z`, `${t}xyz`]);
    const words = [...terms.filter((_, i) => i % 11 === 0), ...terms.slice(0, 300).map((t) => t.slice(0, 2)), ...typos, 'tutorail', 'pyhton', 'x', 'a'.repeat(30)];
    const asked = standsForAny(changed);
    let typoMatches = 0;
    for (const word of words) {
      const expected = changed.some((term) => mayStandFor(word, term));
      if (expected && !changed.some((term) => term.startsWith(word))) typoMatches++;
      expect(asked(word), word).toBe(expected);
    }
    expect(typoMatches).toBeGreaterThan(50);
  });
});

describe('mayStandFor', () => {
  it('holds for the word itself, its completions, and its typos within two edits, and not for others', () => {
    expect(mayStandFor('tut', 'tutorial')).toBe(true);
    expect(mayStandFor('tutorial', 'tutorial')).toBe(true);
    expect(mayStandFor('tutorial', 'tutorail')).toBe(true); // a swap
    expect(mayStandFor('python', 'pyhton')).toBe(true);
    expect(mayStandFor('sourdough', 'sourdoughs')).toBe(true);
    expect(mayStandFor('tutorial', 'tutor')).toBe(false);
    expect(mayStandFor('abc', 'abd')).toBe(false); // too short for a typo
    expect(mayStandFor('python', 'django')).toBe(false);
  });
});

describe('the digests file', () => {
  it('is read back as written, and refused when it does not hold one digest per key', () => {
    const digests = documentDigests(documentSources(base as KindDocuments));
    expect(parseDigests(serialiseDigests(digests))).toEqual(digests);
    const short = { ...digests, videos: { ...digests.videos, digests: digests.videos.digests.slice(1) } };
    expect(() => parseDigests(serialiseDigests(short))).toThrow(/videos digests are damaged/);
    // the keys are read when asked for, and checked against their digest then
    const fewer = { ...digests, channels: { ...digests.channels, keys: digests.channels.keys.slice(1), digests: digests.channels.digests.slice(22) } };
    const read = parseDigests(serialiseDigests(fewer));
    expect(read.videos.keys).toEqual(digests.videos.keys);
    expect(() => read.channels.keys).toThrow(/channels digests do not match their keys/);
    expect(() => parseDigests('{"format":1}\n{}')).toThrow(/format/);
    expect(() => parseDigests('{"format":2}')).toThrow(/no line of keys/);
  });

  it('is refused by a patch when its keys are not the served index\'s', () => {
    const old = served(base);
    const sources = documentSources(base as KindDocuments);
    const other = { ...old.digests, channels: { keysDigest: keysDigestOf([...old.digests.channels.keys].reverse()), keys: [], digests: old.digests.channels.digests } };
    expect(() => patchSearchIndex(old.index, other, sources, documentDigests(sources), options)).toThrow(/channels digests are not of its index's documents/);
  });
});
