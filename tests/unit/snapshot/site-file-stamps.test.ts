// The ETags a build records for the sitemaps and feeds (src/snapshot/site-file-stamps.ts): each is
// the ETag of the body the server answers for that path (site-files.ts siteFile), though the build
// hashes each file's text piece by piece; a file keeps the served snapshot's ETag, unrendered, only
// when its recorded input key is this build's.
import { describe, expect, it } from 'vitest';
import { etagOf } from '../../../src/http/etag.ts';
import { siteFile, siteFileKeys } from '../../../src/site/site-files.ts';
import { computeVideoInputs, siteGroup } from '../../../src/snapshot/page-inputs.ts';
import { etagOfPieces, stampSiteFiles } from '../../../src/snapshot/site-file-stamps.ts';
import { BASE_URL, catalogueOf, channel, modelOf, playlist, video } from '../support/fixtures.ts';

// text past Latin-1, astral characters, markup and a lone surrogate (removed from XML), over 1,000 videos: two video sitemaps
const catalogue = catalogueOf({
  channels: [channel('alice', { displayName: 'Alïce “quoted” 😀' }), channel('bob', { description: '<b>&</b>' })],
  videos: Array.from({ length: 1_003 }, (_, i) => video(`v${String(i).padStart(4, '0')}`, {
    channel: i % 3 === 0 ? 'bob' : 'alice',
    title: i % 2 === 0 ? `Vidéo ${i} — 日本語 😀` : `Video ${i} <&>`,
    description: i % 5 === 0 ? undefined : `Descr\u00e9ption ${'ü'.repeat(i % 40)} \ud800 end 🎉`,
    publishedAt: `2026-01-${String((i % 28) + 1).padStart(2, '0')}T00:00:${String(i % 60).padStart(2, '0')}Z`,
  })),
  playlists: [playlist('pl', ['v0001', 'v0002', 'v0500'], { title: 'Pläylist 😀' })],
});
const model = modelOf(catalogue);
const videoInputs = computeVideoInputs(catalogue, BASE_URL);

describe('site file stamps', () => {
  it('records for every sitemap and feed the ETag of the body the server answers', () => {
    const { stamps, rendered, carried } = stampSiteFiles(model, { videoInputs });
    const keys = siteFileKeys(model);
    expect(keys).toEqual(expect.arrayContaining(['/sitemap.xml', '/sitemaps/videos-2.xml', '/feeds/channels/alice.xml', '/feeds/playlists/pl.xml']));
    expect([...stamps.keys()].sort()).toEqual([...keys].sort());
    for (const key of keys) expect(stamps.get(key), key).toBe(etagOf(siteFile(model, key)!.body));
    expect([rendered, carried]).toEqual([keys.length, 0]);
  });

  it('hashes pieces as the UTF-8 of their text joined', () => {
    const pieces = ['<a>', 'é', '😀', '', '日本', '\n'];
    expect(etagOfPieces(pieces)).toBe(etagOf(Buffer.from(pieces.join(''))));
    expect(etagOfPieces([])).toBe(etagOf(Buffer.alloc(0)));
  });

  it('hashes pieces of any size alike: many that fill the block it encodes into, and ones larger than it', () => {
    // pieces of 3-byte characters and astral pairs about the block's edge (1 MB), a piece of 2 MB
    // of them, a lone surrogate, and a million small pieces
    const wide = '日'.repeat(349_525);
    const pieces = [wide, 'é', wide, '😀'.repeat(100), '\ud800', '日'.repeat(700_000), 'x', 'a'.repeat(1 << 20), '😀'];
    expect(etagOfPieces(pieces)).toBe(etagOf(Buffer.from(pieces.join(''))));
    const small = Array.from({ length: 1_000_000 }, (_, i) => (i % 7 === 0 ? '😀' : String(i)));
    expect(etagOfPieces(small)).toBe(etagOf(Buffer.from(small.join(''))));
    // the block is reused: an ETag does not depend on what was hashed before
    expect(etagOfPieces(['<a>', 'é'])).toBe(etagOf(Buffer.from('<a>é')));
  });

  it('carries a recorded ETag only for a file whose input key is the recorded one', () => {
    const first = stampSiteFiles(model, { videoInputs });
    // the sitemap index and page sitemaps have no input key: always rendered
    expect(first.inputs.has(siteGroup('/sitemap.xml'))).toBe(false);
    expect(first.inputs.has(siteGroup('/sitemaps/videos-1.xml'))).toBe(true);
    // a previous snapshot that recorded other ETags under the same keys for every file but alice's feed
    const fake = new Map([...first.stamps].map(([key]) => [key, '"1-1"']));
    const inputs = new Map(first.inputs);
    inputs.set(siteGroup('/feeds/channels/alice.xml'), 'another key');
    const again = stampSiteFiles(model, { videoInputs, previous: { inputs, stamps: fake } });
    for (const [key, etag] of again.stamps) {
      const keyed = first.inputs.has(siteGroup(key)) && key !== '/feeds/channels/alice.xml';
      expect(etag, key).toBe(keyed ? '"1-1"' : first.stamps.get(key));
    }
    expect(again.carried).toBe(first.inputs.size - 1);
    expect(again.rendered).toBe(first.stamps.size - again.carried);
  });
});
