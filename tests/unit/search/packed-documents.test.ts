// Search documents packed for the build's worker thread (src/search/packed-documents.ts): what is
// unpacked is what was packed, value for value, and damaged packing is refused, never indexed.
import { describe, expect, it } from 'vitest';
import { KIND_SPECS, SEARCH_KINDS, searchDocuments } from '../../../src/search/documents.ts';
import { packDocuments, packedBuffers, unpackDocuments } from '../../../src/search/packed-documents.ts';
import { buildSearchIndexOf, buildSearchIndex, serialiseSearchIndex } from '../../../src/search/search-index.ts';
import { catalogueOf, channel, modelOf, video } from '../support/fixtures.ts';

const model = modelOf(catalogueOf({
  channels: [channel('alice', { displayName: 'Alice Ŀ 東京', description: 'emoji 🎉 and café' }), channel('bob')],
  videos: [
    video('v1', { title: 'Jazz 🎷 piano', tags: ['jazz', 'naïve'], description: '' }),
    video('v2', { title: '', channel: 'bob', tags: [] }),
    video('v3', { title: 'Москва: données', description: 'd'.repeat(1500) }),
  ],
}));

describe('packDocuments and unpackDocuments', () => {
  it('give back every key and every indexed field as buildKind reads it, empty values and astral characters included', () => {
    const docs = searchDocuments(model);
    const unpacked = unpackDocuments(structuredClone(packDocuments(docs)));
    for (const k of SEARCH_KINDS) {
      expect(unpacked[k].keys).toEqual(docs[k].keys);
      expect(unpacked[k].documents.map((d) => KIND_SPECS[k].fields.map((f) => d[f]))).toEqual(docs[k].documents.map((d) => KIND_SPECS[k].fields.map((f) => String(d[f] ?? ''))));
    }
    expect(serialiseSearchIndex(buildSearchIndexOf(unpacked))).toBe(serialiseSearchIndex(buildSearchIndex(model)));
  });

  it('names each offset buffer once, for transfer', () => {
    const packed = packDocuments(searchDocuments(model));
    const buffers = packedBuffers(packed);
    expect(new Set(buffers).size).toBe(buffers.length);
    expect(buffers.length).toBe(SEARCH_KINDS.reduce((n, k) => n + 1 + KIND_SPECS[k].fields.length, 0));
  });

  it('refuses packing whose offsets run past the text or whose fields do not fit the kind', () => {
    const packed = packDocuments(searchDocuments(model));
    const title = packed.videos.fields[0]!;
    const past = { ...packed, videos: { ...packed.videos, fields: [{ text: title.text, ends: title.ends.map((e) => e + 1000) }, ...packed.videos.fields.slice(1)] } };
    expect(() => unpackDocuments(past)).toThrow(/damaged/);
    const missing = { ...packed, videos: { ...packed.videos, fields: packed.videos.fields.slice(1) } };
    expect(() => unpackDocuments(missing)).toThrow(/packed videos do not have 4 fields of 3 values/);
  });
});
