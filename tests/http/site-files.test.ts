// Sitemaps and Atom feeds over HTTP (docs/decisions.md, "Sitemaps and feeds"): the sitemap index
// and every sitemap it names are valid against sitemaps.org's schema (shipped by the `sitemap`
// package) and the video extension's (tests/fixtures/xsd), list exactly the public videos and
// pages, never an unlisted or private one; every channel and public playlist has an Atom feed an
// Atom parser reads, with the 50 newest public videos; pages point to their feed.
import { readFileSync } from 'node:fs';
import { parseFeed } from '@rowanmanning/feed-parser';
import { validateXML } from 'xmllint-wasm';
import { describe, expect, it } from 'vitest';
import type { Truth, TruthVideo } from './catalogue-truth.ts';
import { decoded, header, type Client } from './http-client.ts';
import { useServedCatalogue } from './harness.ts';
import type { Fixture } from './server-fixture.ts';

let fx: Fixture;
let api: Client;
let truth: Truth;
// more videos than one video sitemap holds (VIDEOS_PER_SITEMAP), so the index names two
useServedCatalogue({ seed: { videos: 1_300 } }, (h) => ({ fx, api, truth } = h));

const enc = encodeURIComponent;
const schema = (path: string) => ({ fileName: path.split('/').pop()!, contents: readFileSync(path, 'utf8') });
const SITEMAP_XSD = schema('node_modules/sitemap/schema/sitemap.xsd');
const VIDEO_XSD = schema('tests/fixtures/xsd/sitemap-video.xsd');
const INDEX_XSD = schema('tests/fixtures/xsd/siteindex.xsd');
/** sitemap.xsd with the video extension imported, as xmllint needs for urlset's strict wildcard */
const URLSET_XSD = {
  fileName: 'urlset.xsd',
  contents: `<?xml version="1.0"?><xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema">
<xsd:import namespace="http://www.sitemaps.org/schemas/sitemap/0.9" schemaLocation="sitemap.xsd"/>
<xsd:import namespace="http://www.google.com/schemas/sitemap-video/1.1" schemaLocation="sitemap-video.xsd"/></xsd:schema>`,
};

async function schemaErrors(xml: string, name: string, schemas: { fileName: string; contents: string }[]): Promise<string[]> {
  const result = await validateXML({ xml: [{ fileName: name, contents: xml }], schema: schemas[0]!, preload: schemas.slice(1) });
  return result.errors.map((e) => e.message);
}

async function xmlAt(path: string, type = /^application\/xml; charset=utf-8$/): Promise<string> {
  const res = await api.send(path, { headers: { 'accept-encoding': 'gzip' } });
  expect(res.status, path).toBe(200);
  expect(header(res, 'content-type'), path).toMatch(type);
  expect(header(res, 'cache-control'), path).toBe('public, max-age=60, s-maxage=300, stale-while-revalidate=60');
  expect(header(res, 'etag'), path).toMatch(/^"/);
  return decoded(res).toString('utf8');
}

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
const watchUrl = (id: string) => `${fx.base}/watch/${enc(id)}`;

describe('sitemaps', () => {
  it('robots.txt names the index, and the index, every page sitemap and every video sitemap are valid against the schemas', async () => {
    expect(decoded(await api.send('/robots.txt')).toString()).toContain(`Sitemap: ${fx.base}/sitemap.xml`);
    const index = await xmlAt('/sitemap.xml');
    expect(await schemaErrors(index, 'sitemap.xml', [INDEX_XSD])).toEqual([]);
    const files = locs(index);
    expect(files.filter((u) => /\/sitemaps\/videos-\d+\.xml$/.test(u)).length).toBe(Math.ceil(truth.publicVideos.length / 1_000));
    expect(files.some((u) => u.endsWith('/sitemaps/pages-1.xml'))).toBe(true);
    for (const file of files) {
      expect(file.startsWith(`${fx.base}/sitemaps/`), file).toBe(true);
      const xml = await xmlAt(new URL(file).pathname);
      expect(Buffer.byteLength(xml), file).toBeLessThanOrEqual(50 * 1024 * 1024);
      expect(locs(xml).length, file).toBeLessThanOrEqual(50_000);
      expect(await schemaErrors(xml, file.split('/').pop()!, [URLSET_XSD, SITEMAP_XSD, VIDEO_XSD]), file).toEqual([]);
    }
  });

  it('the video sitemaps list every public video once, with its facts, and no unlisted or private one', async () => {
    const files = locs(await xmlAt('/sitemap.xml')).filter((u) => u.includes('/sitemaps/videos-'));
    const listed: string[] = [];
    let sample = '';
    for (const file of files) {
      const xml = await xmlAt(new URL(file).pathname);
      if (!sample) sample = xml;
      listed.push(...[...xml.matchAll(/<url><loc>([^<]+)<\/loc>/g)].map((m) => m[1]!));
    }
    expect(listed.length).toBe(new Set(listed).size);
    expect(new Set(listed)).toEqual(new Set(truth.publicVideos.map((v) => watchUrl(v.id))));
    for (const id of [...truth.unlistedIds, ...truth.privateIds]) expect(listed, id).not.toContain(watchUrl(id));
    // one entry's facts against the catalogue
    const first = /<url><loc>([^<]+)<\/loc>[\s\S]*?<\/url>/.exec(sample)!;
    const video = truth.videos.get(decodeURIComponent(first[1]!.split('/watch/')[1]!)) as TruthVideo;
    const entry = first[0];
    expect(entry).toContain(`<video:player_loc>${fx.base}/embed/${enc(video.id)}</video:player_loc>`);
    expect(entry).toContain(`<video:publication_date>${video.publishedAt}</video:publication_date>`);
    expect(entry).toContain(`<video:thumbnail_loc>${video.thumbnailUrl ?? `${fx.base}/thumbnails/${enc(video.id)}.1280x720.png`}</video:thumbnail_loc>`);
    if (video.duration !== null && video.duration >= 1 && video.duration <= 28_800) expect(entry).toContain(`<video:duration>${video.duration}</video:duration>`);
    // oldest first: new videos land in the last file
    const dates = [...sample.matchAll(/<video:publication_date>([^<]+)</g)].map((m) => m[1]!);
    expect(dates).toEqual([...dates].sort());
  });

  it('the page sitemap lists the home page, every channel and the public playlists only', async () => {
    const pages = locs(await xmlAt('/sitemaps/pages-1.xml'));
    expect(pages).toContain(`${fx.base}/`);
    for (const username of truth.channels.keys()) expect(pages).toContain(`${fx.base}/channels/${enc(username)}`);
    for (const p of truth.playlists.values()) {
      const url = `${fx.base}/playlists/${enc(p.id)}`;
      if (p.privacy === 'public') expect(pages, p.id).toContain(url);
      else expect(pages, p.id).not.toContain(url);
    }
  });

  it('the schemas catch a broken entry (so a clean run means something)', async () => {
    const xml = await xmlAt('/sitemaps/videos-1.xml');
    for (const broken of [xml.replace(/<video:title>[^<]*<\/video:title>/, ''), xml.replace(/<video:view_count>\d+/, '<video:view_count>-1'), xml.replace(/<lastmod>[^<]*/, '<lastmod>yesterday')]) {
      expect(await schemaErrors(broken, 'broken.xml', [URLSET_XSD, SITEMAP_XSD, VIDEO_XSD])).not.toEqual([]);
    }
  });

  it('a sitemap past the last, or a name that is not one, is a 404 problem', async () => {
    for (const target of ['/sitemaps/videos-3.xml', '/sitemaps/videos-0.xml', '/sitemaps/pages-2.xml', '/sitemaps/videos-01.xml', '/sitemaps/other.xml', '/sitemaps/videos-99999999999.xml']) {
      const res = await api.send(target);
      expect(res.status, target).toBe(404);
      expect(header(res, 'content-type'), target).toMatch(/^application\/problem\+json/);
    }
  });
});

const ATOM = /^application\/atom\+xml; charset=utf-8$/;
const newestPublicIds = (ids: Iterable<string>) => [...new Set(ids)]
  .map((id) => truth.videos.get(id)!)
  .filter((v) => v && v.privacy === 'public')
  .sort((a, b) => (a.publishedAt < b.publishedAt ? 1 : a.publishedAt > b.publishedAt ? -1 : a.id < b.id ? -1 : 1))
  .slice(0, 50)
  .map((v) => watchUrl(v.id));

describe('Atom feeds', () => {
  it('every channel has a feed an Atom parser reads: its 50 newest public videos, newest first, and its page points to it', async () => {
    for (const channel of truth.channels.values()) {
      const path = `/feeds/channels/${enc(channel.username)}.xml`;
      const feed = parseFeed(await xmlAt(path, ATOM));
      expect(feed.meta.type).toBe('atom');
      expect(feed.title).toContain(channel.displayName);
      expect(feed.self).toBe(`${fx.base}${path}`);
      expect(feed.url).toBe(`${fx.base}/channels/${enc(channel.username)}`);
      const expected = newestPublicIds(truth.publicVideos.filter((v) => v.channel === channel.username).map((v) => v.id));
      expect(feed.items.map((i) => i.url), channel.username).toEqual(expected);
      expect(feed.items.length).toBeLessThanOrEqual(50);
      for (const item of feed.items) {
        expect(item.id).toBe(item.url);
        expect(item.published).toBeInstanceOf(Date);
        expect(item.title).toBe(truth.videos.get(decodeURIComponent(item.url!.split('/watch/')[1]!))!.title);
      }
      const page = decoded(await api.send(`/channels/${enc(channel.username)}`)).toString();
      expect(page).toContain(`<link rel="alternate" type="application/atom+xml" title="${channel.displayName.replace(/&/g, '&amp;')}: newest videos" href="${fx.base}${path}">`);
    }
  });

  it('every public playlist has a feed of its newest public videos; unlisted playlists have none', async () => {
    let unlisted = 0;
    for (const playlist of truth.playlists.values()) {
      const path = `/feeds/playlists/${enc(playlist.id)}.xml`;
      if (playlist.privacy !== 'public') {
        const res = await api.send(path);
        if (playlist.privacy === 'unlisted') unlisted++;
        expect(res.status, path).toBe(404);
        continue;
      }
      const feed = parseFeed(await xmlAt(path, ATOM));
      expect(feed.meta.type).toBe('atom');
      expect(feed.items.map((i) => i.url), playlist.id).toEqual(newestPublicIds(playlist.videoIds));
      const page = decoded(await api.send(`/playlists/${enc(playlist.id)}`)).toString();
      expect(page).toContain(`type="application/atom+xml"`);
      expect(page).toContain(`href="${fx.base}${path}"`);
    }
    expect(unlisted).toBeGreaterThan(0);
  });

  it('an unknown channel or playlist has no feed', async () => {
    for (const target of ['/feeds/channels/nobody-here.xml', '/feeds/playlists/nope.xml', '/feeds/channels/%E0%A4%A.xml']) {
      expect((await api.send(target)).status, target).toBe(404);
    }
  });
});
