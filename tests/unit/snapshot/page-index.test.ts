// Pages looked up in the manifest's own bytes (src/snapshot/page-index.ts): what the server serves
// prerendered pages from, without parsing every page line into a Map.
import { describe, expect, it } from 'vitest';
import { MANIFEST_FORMAT, manifestLines, type Manifest, type PageEntry } from '../../../src/snapshot/manifest.ts';
import { ENTRIES_KEPT, indexManifestLines, linePageLookup } from '../../../src/snapshot/page-index.ts';

const entry = (n: number, extra: Partial<PageEntry> = {}): PageEntry => ({ etag: `"e${n}"`, body: [n * 100, 100, n, 0], ...extra });

function manifestOf(pages: Record<string, PageEntry>): Buffer {
  const manifest: Manifest = {
    format: MANIFEST_FORMAT, apiVersion: '1', baseUrl: 'https://videos.example.test', counts: { videos: 1, pages: Object.keys(pages).length }, files: {}, pages,
  } as Manifest;
  return Buffer.from([...manifestLines(manifest)].join(''));
}

// keys in code-unit order, as the build writes them; some need JSON escapes, one is not ASCII
const keys = ['/v1/categories', '/v1/channels/a"b', '/v1/channels/a\\b', '/v1/videos/x', '/v1/videos/x?limit=20', '/v1/videos/é', '/watch/\u{1F600}'].sort();
const pages = Object.fromEntries(keys.map((k, i) => [k, entry(i, i === 3 ? { link: '<https://videos.example.test/v1/x>; rel="next"', br: [1, 2, 3, 0] } : {})]));

describe('indexManifestLines and linePageLookup', () => {
  const bytes = manifestOf(pages);
  const lines = indexManifestLines(bytes);
  const lookup = linePageLookup(bytes, lines);

  it('finds every page with the entry the manifest holds', () => {
    expect(lines.sorted).toBe(true);
    expect(lookup.size).toBe(keys.length);
    for (const key of keys) expect(lookup.get(key), key).toEqual(pages[key]);
  });

  it('finds nothing for URLs that are not pages: before, between and after the keys', () => {
    for (const key of ['', '/', '/v1/categorie', '/v1/categories/', '/v1/videos/y', '/zzz', '/v1/channels/a', '/v1/videos/x?limit=2']) {
      expect(lookup.get(key), key).toBeUndefined();
    }
  });

  it('gives the same entry object when a page is asked for again', () => {
    expect(lookup.get(keys[2]!)).toBe(lookup.get(keys[2]!));
  });

  it('iterates every page in key order', () => {
    expect([...lookup].map(([key]) => key)).toEqual(keys);
    expect(Object.fromEntries(lookup)).toEqual(pages);
  });

  it('says when the lines are not in key order, so the caller does not binary-search them', () => {
    const text = bytes.toString();
    // swap the first two page lines (keeping the commas where JSON wants them)
    const [head, first, second, ...rest] = text.split('\n');
    const unsorted = Buffer.from([head, second!.slice(1), `,${first}`, ...rest].join('\n'));
    expect(() => JSON.parse(unsorted.toString())).not.toThrow();
    expect(indexManifestLines(unsorted).sorted).toBe(false);
    expect(indexManifestLines(unsorted).starts).toHaveLength(keys.length);
  });

  it('indexes a manifest without pages', () => {
    const empty = manifestOf({});
    const none = indexManifestLines(empty);
    expect(none.starts).toHaveLength(0);
    expect(linePageLookup(empty, none).get('/v1/categories')).toBeUndefined();
  });

  it('keeps at most ENTRIES_KEPT parsed entries, and still finds the ones let go', () => {
    const many = Object.fromEntries(Array.from({ length: ENTRIES_KEPT + 10 }, (_, i) => [`/p/${String(i).padStart(6, '0')}`, entry(i)]));
    const big = manifestOf(many);
    const all = linePageLookup(big, indexManifestLines(big));
    for (const key of Object.keys(many)) all.get(key);
    expect(all.get('/p/000000')).toEqual(many['/p/000000']);
    expect(all.get(`/p/${String(ENTRIES_KEPT + 9).padStart(6, '0')}`)).toEqual(entry(ENTRIES_KEPT + 9));
  });
});
