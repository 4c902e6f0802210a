// Sitemaps and feeds from the model (src/site/sitemaps.ts, feeds.ts): the 50 MB a file bound holds
// by construction for the worst entries the import format allows; text XML forbids is removed;
// unlisted videos never appear; the newest public videos make a feed.
import { describe, expect, it } from 'vitest';
import { channelFeed, FEED_ENTRIES, playlistFeed } from '../../../src/site/feeds.ts';
import { MAX_SITEMAP_BYTES, MAX_VIDEO_ENTRY_BYTES, sitemapIndex, videoEntryXml, videoSitemap, VIDEOS_PER_SITEMAP } from '../../../src/site/sitemaps.ts';
import { clip, xmlText } from '../../../src/site/xml.ts';
import { siteFile, siteFiles } from '../../../src/site/site-files.ts';
import { catalogueOf, channel, modelOf, playlist, video } from '../support/fixtures.ts';

describe('video sitemap bounds', () => {
  it('the worst entry the import format allows stays under MAX_VIDEO_ENTRY_BYTES, so a full file stays under 50 MB', () => {
    const id = 'x'.repeat(128);
    const worst = '"'.repeat(20_000);
    const catalogue = catalogueOf({
      channels: [channel('c'.repeat(128), { displayName: '&'.repeat(100) })],
      videos: [video(id, { channel: 'c'.repeat(128), title: '<'.repeat(500), description: worst, tags: Array.from({ length: 100 }, () => '>'.repeat(100)), duration: 100 })],
    });
    const model = modelOf(catalogue);
    const entry = videoEntryXml(model, model.videos.get(id)!);
    expect(Buffer.byteLength(entry)).toBeLessThanOrEqual(MAX_VIDEO_ENTRY_BYTES);
    expect(VIDEOS_PER_SITEMAP * MAX_VIDEO_ENTRY_BYTES + 1_000).toBeLessThanOrEqual(MAX_SITEMAP_BYTES);
    expect((entry.match(/<video:tag>/g) ?? []).length).toBe(32);
    expect(entry).toMatch(/<video:description>(&quot;){2047}…<\/video:description>/);
  });

  it('lists public videos only, oldest first, and splits them VIDEOS_PER_SITEMAP a file', () => {
    const videos = Array.from({ length: VIDEOS_PER_SITEMAP + 5 }, (_, i) => video(`v${String(i).padStart(5, '0')}`, { publishedAt: `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}Z` }));
    videos.push(video('secret', { privacy: 'unlisted', publishedAt: '2026-02-01T00:00:00Z' }));
    const model = modelOf(catalogueOf({ videos }));
    expect(sitemapIndex(model)).toContain('/sitemaps/videos-2.xml');
    expect(sitemapIndex(model)).not.toContain('/sitemaps/videos-3.xml');
    const first = videoSitemap(model, 1)!;
    const second = videoSitemap(model, 2)!;
    expect((first.match(/<url>/g) ?? []).length).toBe(VIDEOS_PER_SITEMAP);
    expect((second.match(/<url>/g) ?? []).length).toBe(5);
    expect(first + second).not.toContain('secret');
    expect(videoSitemap(model, 3)).toBeUndefined();
    expect(videoSitemap(model, 0)).toBeUndefined();
    const dates = [...(first + second).matchAll(/<video:publication_date>([^<]+)</g)].map((m) => m[1]!);
    expect(dates).toEqual([...dates].sort());
  });
});

describe('entries as the video resource shows them', () => {
  it('a sitemap entry and a feed entry show the resource\'s watch and embed URLs and creator', () => {
    const catalogue = catalogueOf({
      channels: [channel('c&d', { displayName: 'Cé & "D"' })],
      videos: [video('a b&c', { channel: 'c&d', title: 'T', description: 'D' })],
    });
    const model = modelOf(catalogue);
    const entry = model.videos.get('a b&c')!;
    const { resource } = entry;
    const xml = videoEntryXml(model, entry);
    expect(xml).toContain(`<loc>${xmlText(resource.watchUrl)}</loc>`);
    expect(xml).toContain(`<video:player_loc>${xmlText(resource.embedUrl)}</video:player_loc>`);
    expect(xml).toContain(`<video:uploader info="${xmlText(resource.creator.channelUrl!)}">${xmlText(resource.creator.displayName!)}</video:uploader>`);
    const feed = channelFeed(model, model.channels.get('c&d')!);
    expect(feed).toContain(`<id>${xmlText(resource.watchUrl)}</id>`);
    expect(feed).toContain(`<author><name>${xmlText(resource.creator.displayName!)}</name><uri>${xmlText(resource.creator.channelUrl!)}</uri></author>`);
  });
});

describe('xmlText', () => {
  it('escapes markup and drops characters XML 1.0 forbids, keeping tabs, line breaks and whole surrogate pairs', () => {
    expect(xmlText('a<b>&"\'')).toBe('a&lt;b&gt;&amp;&quot;&#39;');
    expect(xmlText('x\u0000\u0001\u000b\u001f\ufffe\uffffy\t\n\r')).toBe('xy\t\n\r');
    expect(xmlText('😀 \ud800 \udc00')).toBe('😀  ');
  });

  it('returns text with nothing to escape or remove as it is, and treats each character that needs it alike anywhere', () => {
    expect(xmlText('Plain text, with tabs\tand\nlines — é 日本')).toBe('Plain text, with tabs\tand\nlines — é 日本');
    const touched: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '\u0000': '', '\u0008': '', '\u000b': '', '\u000c': '', '\u000e': '', '\u001f': '', '\ufffe': '', '\uffff': '', '\ud800': '', '\udfff': '', '😀': '😀' };
    for (const [c, shown] of Object.entries(touched)) {
      expect(xmlText(c), JSON.stringify(c)).toBe(shown);
      expect(xmlText(`ab${c}cd`), JSON.stringify(c)).toBe(`ab${shown}cd`);
    }
  });

  it('clip cuts whole code points and marks the cut', () => {
    expect(clip('abc', 3)).toBe('abc');
    expect(clip('abcd', 3)).toBe('ab…');
    expect(clip('a😀b', 3)).toBe('a…');
  });
});

describe('feeds', () => {
  const videos = Array.from({ length: 60 }, (_, i) => video(`v${i}`, { channel: 'alice', publishedAt: `2026-01-${String(1 + (i % 28)).padStart(2, '0')}T00:00:00Z` }));
  videos.push(video('hidden', { channel: 'alice', privacy: 'unlisted', publishedAt: '2026-03-01T00:00:00Z' }));
  const model = modelOf(catalogueOf({
    channels: [channel('alice')],
    videos,
    playlists: [playlist('pub', ['v1', 'hidden', 'v2']), playlist('unl', ['v1'], { privacy: 'unlisted' })],
  }));

  it('a channel feed holds its FEED_ENTRIES newest public videos, newest first', () => {
    const xml = channelFeed(model, model.channels.get('alice')!);
    const published = [...xml.matchAll(/<published>([^<]+)</g)].map((m) => m[1]!);
    expect(published.length).toBe(FEED_ENTRIES);
    expect(published).toEqual([...published].sort().reverse());
    expect(xml).not.toContain('hidden');
  });

  it('a public playlist has a feed without its unlisted videos; an unlisted one has none', () => {
    const xml = playlistFeed(model, model.playlists.get('pub')!)!;
    expect((xml.match(/<entry>/g) ?? []).length).toBe(2);
    expect(xml).not.toContain('hidden');
    expect(playlistFeed(model, model.playlists.get('unl')!)).toBeUndefined();
    expect(siteFile(model, '/feeds/playlists/unl.xml')).toBeUndefined();
  });

  it('siteFiles lists the index, the sitemaps and every feed, each also served by siteFile', () => {
    const keys = [...siteFiles(model)].map((f) => f.key);
    expect(keys).toEqual(['/sitemap.xml', '/sitemaps/pages-1.xml', '/sitemaps/videos-1.xml', '/feeds/channels/alice.xml', '/feeds/playlists/pub.xml']);
    for (const key of keys) expect(siteFile(model, key)?.body.length, key).toBeGreaterThan(0);
  });
});
