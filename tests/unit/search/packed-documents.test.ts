// Search documents packed for the build's worker thread (src/search/packed-documents.ts): what the
// worker reads is what was packed, value for value (any string, lone surrogates included), the
// index made from it is the index made from the documents, and damaged packing is refused.
import { describe, expect, it } from 'vitest';
import { DESCRIPTION_CHARS, KIND_SPECS, SEARCH_KINDS, searchDocuments, searchSources } from '../../../src/search/documents.ts';
import { documentDigests, parseDigests, serialiseDigests } from '../../../src/search/document-digests.ts';
import { DESCRIPTION_BYTES, packDocuments, packedBuffers, packSources, sourcesOf, type PackedDocuments, type PackedField } from '../../../src/search/packed-documents.ts';
import { buildSearchIndex, buildSearchIndexOf, serialiseSearchIndex } from '../../../src/search/search-index.ts';
import { catalogueOf, channel, modelOf, playlist, video } from '../support/fixtures.ts';

const model = modelOf(catalogueOf({
  channels: [channel('alice', { displayName: 'Alice Ŀ 東京', description: 'emoji 🎉 and café' }), channel('bob')],
  videos: [
    video('v1', { title: 'Jazz 🎷 piano', tags: ['jazz', 'naïve'], description: '' }),
    video('v2', { title: 'lone \ud800 surrogate', channel: 'bob', tags: [] }),
    video('v3', { title: 'Москва: données', description: 'd'.repeat(1500) }),
  ],
}));

/** A field packed as UTF-16 (the documents held as objects are packed so, every field). */
function utf16Of(field: PackedField): Uint8Array {
  if (!('utf16' in field)) throw new Error('a field packed as UTF-8');
  return field.utf16;
}

describe('packDocuments and sourcesOf', () => {
  it('give back every key and every indexed field as buildKind reads it, after a trip through a worker\'s structured clone', () => {
    const docs = searchDocuments(model);
    const packed = packDocuments(docs);
    const sources = sourcesOf(structuredClone(packed, { transfer: packedBuffers(packed) }));
    for (const k of SEARCH_KINDS) {
      const source = sources[k];
      expect(source.keys).toEqual(docs[k].keys);
      expect(source.count).toBe(docs[k].documents.length);
      const fields = KIND_SPECS[k].fields;
      for (const [d, doc] of docs[k].documents.entries()) fields.forEach((field, f) => expect(source.text(d, f)).toBe(String(doc[field] ?? '')));
    }
    expect(sources.videos.text(1, 0)).toBe('lone \ud800 surrogate');
    const again = packDocuments(docs);
    expect(serialiseSearchIndex(buildSearchIndexOf(sourcesOf(again)))).toBe(serialiseSearchIndex(buildSearchIndex(model)));
  });

  it('give each field\'s code units for the index to read in place, or none when they cannot be read so (the index is the same either way)', () => {
    const docs = searchDocuments(model);
    const sources = sourcesOf(packDocuments(docs));
    for (const k of SEARCH_KINDS) {
      KIND_SPECS[k].fields.forEach((field, f) => {
        const { units, ends } = sources[k].codeUnits!(f)!;
        docs[k].documents.forEach((doc, d) => expect(String.fromCharCode(...units.subarray(d === 0 ? 0 : ends[d - 1]!, ends[d]!))).toBe(String(doc[field] ?? '')));
      });
    }
    // a field's bytes at an odd offset are no Uint16Array: read as strings instead
    const packed = packDocuments(docs);
    const odd = {
      ...packed,
      videos: {
        ...packed.videos,
        fields: packed.videos.fields.map((field) => {
          const utf16 = utf16Of(field);
          const ends = field.ends;
          const shifted = new Uint8Array(utf16.length + 1);
          shifted.set(utf16, 1);
          return { utf16: shifted.subarray(1), ends };
        }),
      },
    };
    const oddSources = sourcesOf(odd);
    expect(oddSources.videos.codeUnits!(0)).toBeUndefined();
    expect(serialiseSearchIndex(buildSearchIndexOf(oddSources))).toBe(serialiseSearchIndex(buildSearchIndex(model)));
    const released = sourcesOf(packDocuments(docs));
    released.videos.release!();
    expect(released.videos.codeUnits!(0)).toBeUndefined();
  });

  it('names each buffer once, for transfer: the text moves to the worker, no copy stays', () => {
    const packed = packDocuments(searchDocuments(model));
    const buffers = packedBuffers(packed);
    expect(new Set(buffers).size).toBe(buffers.length);
    expect(buffers.length).toBe(SEARCH_KINDS.reduce((n, k) => n + 1 + 2 * KIND_SPECS[k].fields.length, 0));
    structuredClone(packed, { transfer: buffers });
    expect(utf16Of(packed.videos.fields[3]!).byteLength).toBe(0); // detached here
  });

  it('refuses packing whose offsets run past the text or whose fields do not fit the kind', () => {
    const packed = packDocuments(searchDocuments(model));
    const title = { utf16: utf16Of(packed.videos.fields[0]!), ends: packed.videos.fields[0]!.ends };
    const past = { ...packed, videos: { ...packed.videos, fields: [{ utf16: title.utf16, ends: title.ends.map((e) => e + 1000) }, ...packed.videos.fields.slice(1)] } };
    expect(() => sourcesOf(past)).toThrow(/damaged/);
    const backwards = { ...packed, videos: { ...packed.videos, fields: [{ utf16: title.utf16, ends: Int32Array.from([5, 2, 9]) }, ...packed.videos.fields.slice(1)] } };
    expect(() => sourcesOf(backwards)).toThrow(/damaged/);
    const missing = { ...packed, videos: { ...packed.videos, fields: packed.videos.fields.slice(1) } };
    expect(() => sourcesOf(missing)).toThrow(/packed videos do not have 4 fields of 3 values/);
  });

  it('packs straight from the model what the documents hold: public videos newest first, channels, public playlists, each field as searched', () => {
    const withPlaylists = modelOf(catalogueOf({
      channels: [channel('alice', { displayName: 'Alice Ŀ', description: 'x'.repeat(1200) }), channel('bob', { displayName: 'Bob' })],
      videos: [
        video('old', { title: 'Old one', tags: ['a', 'b c'], publishedAt: '2026-01-01T00:00:00Z', description: 'é'.repeat(1500) }),
        video('new', { title: 'New one', channel: 'bob', publishedAt: '2026-03-01T00:00:00Z' }),
        video('hidden', { title: 'Hidden', privacy: 'unlisted', publishedAt: '2026-02-01T00:00:00Z' }),
      ],
      playlists: [playlist('open', ['old'], { title: 'Open list', description: 'about' }), playlist('shut', ['old'], { title: 'Shut', privacy: 'unlisted' })],
    }));
    const sources = sourcesOf(packSources(searchSources(withPlaylists)));
    const texts = (k: (typeof SEARCH_KINDS)[number]) => Array.from({ length: sources[k].count }, (_, d) => KIND_SPECS[k].fields.map((_, f) => sources[k].text(d, f)));
    expect(sources.videos.keys).toEqual(['new', 'old']);
    expect(texts('videos')).toEqual([['New one', '', 'Bob bob', ''], ['Old one', 'a b c', 'Alice Ŀ alice', 'é'.repeat(DESCRIPTION_CHARS)]]);
    expect(sources.channels.keys).toEqual(['alice', 'bob']);
    expect(texts('channels')).toEqual([['Alice Ŀ', 'alice', 'x'.repeat(DESCRIPTION_CHARS)], ['Bob', 'bob', '']]);
    expect(sources.playlists.keys).toEqual(['open']);
    expect(texts('playlists')).toEqual([['Open list', 'about']]);
    // the same bytes as packing the documents held as objects
    const objects = packDocuments(searchDocuments(withPlaylists));
    const direct = packSources(searchSources(withPlaylists));
    for (const k of SEARCH_KINDS) {
      expect(direct[k].keys).toEqual(objects[k].keys);
      direct[k].fields.forEach((field, f) => {
        // the videos' descriptions go as UTF-8 (read back above as the same texts)
        if ('utf8' in field) return expect([k, KIND_SPECS[k].fields[f]]).toEqual(['videos', 'description']);
        expect(Buffer.from(field.utf16).equals(Buffer.from(utf16Of(objects[k].fields[f]!)))).toBe(true);
        expect(field.ends).toEqual(objects[k].fields[f]!.ends);
      });
    }
  });

  it('sends the videos\' descriptions as their UTF-8, cut at a character\'s start, and the worker reads back each one\'s first characters exactly', () => {
    // descriptions whose first DESCRIPTION_CHARS code units end in, or DESCRIPTION_BYTES cuts
    // through, characters of 1 to 4 bytes; a lone surrogate (the model holds U+FFFD for it)
    const descriptions = [
      '€'.repeat(2000),
      `a${'€'.repeat(1200)}`,
      `ab${'€'.repeat(1200)}`,
      '🎉'.repeat(900),
      `x${'🎉'.repeat(900)}`,
      `${'é'.repeat(999)}🎉 and more`,
      'short: ok',
      `lone \udc00 surrogate ${'y'.repeat(3000)}`,
      'z'.repeat(DESCRIPTION_BYTES + 10),
    ];
    const many = modelOf(catalogueOf({
      channels: [channel('alice')],
      videos: [...descriptions.map((description, i) => video(`d${i}`, { description, publishedAt: `2026-01-${String(10 + i)}T00:00:00Z` })), video('none', { publishedAt: '2026-02-01T00:00:00Z' })],
    }));
    const packed = packSources(searchSources(many));
    const field = packed.videos.fields[KIND_SPECS.videos.fields.indexOf('description')]!;
    expect('utf8' in field).toBe(true);
    const sent = 'utf8' in field ? field.utf8 : new Uint8Array(0);
    // no more than DESCRIPTION_BYTES of any description, never a character cut in two: what is
    // sent decodes to the start of the description as the model holds it
    const held = many.orders.latest.map((e) => e.video.description ?? '');
    field.ends.forEach((to, d) => {
      const from = d === 0 ? 0 : field.ends[d - 1]!;
      expect(to - from).toBeLessThanOrEqual(DESCRIPTION_BYTES);
      const decoded = Buffer.from(sent.subarray(from, to)).toString('utf8');
      expect(held[d]!.startsWith(decoded)).toBe(true);
      expect(decoded.length).toBeGreaterThanOrEqual(Math.min(held[d]!.length, DESCRIPTION_CHARS));
    });
    const sources = sourcesOf(structuredClone(packed, { transfer: packedBuffers(packed) }));
    const f = KIND_SPECS.videos.fields.indexOf('description');
    const read = Array.from({ length: sources.videos.count }, (_, d) => sources.videos.text(d, f));
    const expected = searchDocuments(many).videos.documents.map((doc) => doc.description);
    expect(read).toEqual(expected);
    expect(expected).toContain('€'.repeat(DESCRIPTION_CHARS));
    expect(expected).toContain('🎉'.repeat(DESCRIPTION_CHARS / 2));
    expect(expected).toContain(`${'é'.repeat(999)}\ud83c`); // cut inside a surrogate pair, as slice cuts it
    expect(expected).toContain('');
    expect(serialiseSearchIndex(buildSearchIndexOf(sourcesOf(packSources(searchSources(many)))))).toBe(serialiseSearchIndex(buildSearchIndex(many)));
  });

  it('index a description of ASCII alone from its bytes (its first DESCRIPTION_CHARS) as the description itself, and any other from its text', () => {
    const descriptions = [
      // ASCII whose cut falls inside a word, on a space, after it; ASCII up to the cut and more after it
      `${'Word and pandas '.repeat(62)}abcdefghijkl more`,
      `${'x'.repeat(DESCRIPTION_CHARS - 1)} tail`,
      `${'Pytest '.repeat(142)}ab ${'Москва '.repeat(50)}`,
      `${'a1 '.repeat(333)}z${'é'.repeat(20)}`,
      // outside ASCII before the cut: read as text
      `café ${'DATA the of '.repeat(100)}`,
      `${'typing '.repeat(100)}東京の会議 ${'asyncio '.repeat(100)}`,
      'THE AND OF',
      '',
    ];
    const many = modelOf(catalogueOf({
      channels: [channel('alice')],
      videos: descriptions.map((description, i) => video(`a${i}`, { description, publishedAt: `2026-01-${String(10 + i)}T00:00:00Z` })),
    }));
    const packed = packSources(searchSources(many));
    const sources = sourcesOf(structuredClone(packed, { transfer: packedBuffers(packed) }));
    const f = KIND_SPECS.videos.fields.indexOf('description');
    expect(sources.videos.descriptionUtf8!(f)).toBeDefined();
    expect(sources.videos.descriptionUtf8!(0)).toBeUndefined();
    const index = buildSearchIndexOf(sources);
    expect(serialiseSearchIndex(index)).toBe(serialiseSearchIndex(buildSearchIndex(many)));
    // the word the cut fell in is indexed as cut, the words past the cut are not
    expect(index.videos.terms).toContain('abcdefgh'.slice(0, DESCRIPTION_CHARS - 62 * 16));
    expect(index.videos.terms).not.toContain('abcdefghijkl');
    expect(index.videos.terms).not.toContain('tail');
    expect(index.videos.terms).not.toContain('москва');
    expect(index.videos.terms).toContain('東京');
  });
});

describe('the documents\' digests (document-digests.ts), of the packed documents', () => {
  const digestsOfPacked = (packed: PackedDocuments) => serialiseDigests(documentDigests(sourcesOf(packed)));
  const digestOf = (videos: readonly ReturnType<typeof video>[], channels = [channel('alice'), channel('bob')]) =>
    digestsOfPacked(packSources(searchSources(modelOf(catalogueOf({ channels, videos })))));
  const base = () => [
    video('v1', { title: 'Jazz piano', tags: ['jazz', 'piano'], description: 'An hour of jazz.', views: 10 }),
    video('v2', { title: 'Python', channel: 'bob', tags: ['python'], description: 'd'.repeat(DESCRIPTION_BYTES + 200), views: 20 }),
  ];

  it('is the same for the same documents, packed again or from a model of other counts, and the one of the very buffers the worker is handed', () => {
    const digest = digestOf(base());
    expect(parseDigests(digest).videos.keys).toEqual(['v1', 'v2']);
    expect(digestOf(base())).toBe(digest);
    expect(digestOf(base().map((v) => ({ ...v, views: v.views + 1000, likes: 7 })))).toBe(digest);
    // taken before the buffers are transferred: after, they are detached, and the worker's copy is those bytes
    const packed = packSources(searchSources(modelOf(catalogueOf({ channels: [channel('alice'), channel('bob')], videos: base() }))));
    const before = digestsOfPacked(packed);
    const received = structuredClone(packed, { transfer: packedBuffers(packed) });
    expect(digestsOfPacked(received)).toBe(before);
    expect(before).toBe(digest);
  });

  it('changes with any indexed text, a key, a document in or out, or a lone surrogate against its replacement; not with a description\'s bytes past the ones packed', () => {
    const digest = digestOf(base());
    const seen = new Set([digest]);
    const other = (videos: ReturnType<typeof base>, channels?: ReturnType<typeof channel>[]) => {
      const d = digestOf(videos, channels);
      expect(seen.has(d)).toBe(false);
      seen.add(d);
    };
    const edit = (i: number, patch: Partial<ReturnType<typeof base>[number]>) => base().map((v, j) => (j === i ? { ...v, ...patch } : v));
    other(edit(0, { title: 'Jazz  piano' }));
    other(edit(0, { tags: ['jazz', 'pian'] }));
    // a character moved from one tag to the next
    other(edit(0, { tags: ['jaz', 'zpiano'] }));
    other(edit(0, { description: 'An hour of jazz!' }));
    other(edit(1, { description: `x${'d'.repeat(DESCRIPTION_BYTES + 199)}` }));
    other(edit(0, { title: 'Jazz \ud800 piano' }));
    other(edit(0, { title: 'Jazz \ufffd piano' }));
    other(edit(0, { id: 'v0' }));
    // unlisted: out of the search documents
    other(edit(0, { privacy: 'unlisted' }));
    other(base(), [channel('alice', { displayName: 'Alice Renamed' }), channel('bob')]);
    // the packed bytes of a description are its first DESCRIPTION_BYTES: what follows is not indexed
    expect(digestOf(edit(1, { description: `${'d'.repeat(DESCRIPTION_BYTES + 100)}tail` }))).toBe(digest);
  });
});
