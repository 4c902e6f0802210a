// Ids as real platforms issue them (docs/catalogue.md "Ids"): YouTube ids starting with `-`, ids
// starting with `.`, Vimeo digits, Dailymotion, PeerTube UUIDs and short UUIDs, dotted slugs,
// through every layer: the API by id and in lists, Link headers and cursors, batch, the HTML
// pages, the player, pictures, oEmbed and search. With VPA_FRONT=nginx (npm run test:nginx) the
// same requests go through nginx, whose answers must equal the origin's.
import { describe, expect, it } from 'vitest';
import type { Truth } from './catalogue-truth.ts';
import { decoded, header, type Client } from './http-client.ts';
import { useServedCatalogue } from './harness.ts';
import { fetchPage, followChain, idsOf, nextLink } from './paging.ts';
import type { Fixture } from './server-fixture.ts';

let fx: Fixture;
let api: Client;
let truth: Truth;
useServedCatalogue({ ndjson: 'tests/fixtures/platform-ids.ndjson' }, (h) => ({ fx, api, truth } = h));

const enc = encodeURIComponent;
/** Public videos of the fixture named as their platforms name them. */
const PLATFORM_IDS = [
  '-OK9i1_YYYc', '-a1b2c3d4e5', '.dotted', '..x', '_underscore', '76979871', 'x8abc12',
  '9c9de5e8-0a1e-484a-b099-e80766180a6d', 'kkGMgK9ZtnKfYAgnEtQxbv', 'my-talk-slug.2024',
];

interface VideoBody { data: { id: string; watchUrl: string; embedUrl: string; thumbnailUrl: string; title: string } }

describe('videos whose ids start with - or . (and other platforms\' ids)', () => {
  it('are served by id, with URLs that name them as they are', async () => {
    for (const id of PLATFORM_IDS) {
      const { body } = await api.json<VideoBody>(`/v1/videos/${enc(id)}`);
      expect(body.data.id).toBe(id);
      expect(body.data.watchUrl).toBe(`${fx.base}/watch/${id}`);
      expect(body.data.embedUrl).toBe(`${fx.base}/embed/${id}`);
      expect(new URL(body.data.watchUrl).pathname).toBe(`/watch/${id}`);
    }
  });

  it('serve their playback, related videos and comments', async () => {
    for (const id of ['-OK9i1_YYYc', '.dotted', '..x']) {
      expect((await api.send(`/v1/videos/${id}/playback`)).status, id).toBe(200);
      expect((await api.send(`/v1/videos/${id}/related`)).status, id).toBe(200);
    }
    const { body } = await api.json<{ data: { id: string; replies?: { id: string }[] }[] }>('/v1/videos/-OK9i1_YYYc/comments');
    expect(body.data.map((c) => c.id)).toEqual(['-c1']);
    expect(JSON.stringify(body)).toContain('".c2"');
    expect((await api.json<{ data: { id: string }[] }>('/v1/videos/.dotted/comments')).body.data.map((c) => c.id)).toEqual(['_c3']);
  });

  it('keep a private dotted video out, and answer 404 for it and for ids that are only dots', async () => {
    for (const target of ['/v1/videos/.secret', '/v1/videos/%2E', '/v1/videos/%2E%2E', '/v1/videos/...', '/watch/.secret']) {
      expect((await api.send(target)).status, target).toBe(404);
    }
  });

  it('are found in batches, in the order asked', async () => {
    const { body } = await api.json<{ data: { id: string }[]; missing: string[] }>(`/v1/videos/batch?ids=${enc('..x,-OK9i1_YYYc,.secret,.dotted')}`);
    expect(body.data.map((v) => v.id)).toEqual(['..x', '-OK9i1_YYYc', '.dotted']);
    expect(body.missing).toEqual(['.secret']);
  });
});

describe('lists of channels, playlists and categories named with - or .', () => {
  it('page through a channel\'s videos by cursor and by Link header to the same, complete list', async () => {
    for (const username of ['-chan', '.chan']) {
      const expected = truth.publicVideos.filter((v) => v.channel === username).map((v) => v.id).sort();
      expect(expected.length).toBeGreaterThan(20);
      const byCursor = idsOf(await followChain<{ id: string }>(api, `/v1/channels/${username}/videos?limit=7`));
      expect([...byCursor].sort()).toEqual(expected);
      const byLink: string[] = [];
      let target: string | undefined = `/v1/channels/${username}/videos`;
      for (let pages = 0; target !== undefined && pages < 10; pages++) {
        const page = await fetchPage<{ id: string }>(api, target);
        byLink.push(...page.body.data.map((v) => v.id));
        const next = nextLink(page.res, fx.base);
        if (next !== undefined) expect(new URL(next).pathname).toBe(`/v1/channels/${username}/videos`);
        target = next === undefined ? undefined : new URL(next).pathname + new URL(next).search;
      }
      expect([...byLink].sort()).toEqual(expected);
    }
  });

  it('serve the channels, their playlists, a playlist\'s videos and a category\'s videos', async () => {
    expect((await api.json<{ data: { username: string } }>('/v1/channels/.chan')).body.data.username).toBe('.chan');
    expect((await api.json<{ data: { id: string }[] }>('/v1/channels/.chan/playlists')).body.data.map((p) => p.id)).toEqual(['-pl']);
    expect(idsOf(await followChain<{ id: string }>(api, '/v1/playlists/.pl/videos'))).toEqual(['-OK9i1_YYYc', '.dotted', '..x', '-unlisted1']);
    expect(idsOf(await followChain<{ id: string }>(api, '/v1/playlists/-pl/videos?limit=5'))).toHaveLength(22);
    for (const category of ['.cat', '-cat']) {
      const listed = idsOf(await followChain<{ id: string }>(api, `/v1/videos?category=${category}&limit=9`)).sort();
      expect(listed).toEqual(truth.publicVideos.filter((v) => v.category === category).map((v) => v.id).sort());
    }
  });
});

describe('pages, the player, pictures and oEmbed', () => {
  it('render the watch, embed, channel and playlist pages', async () => {
    for (const [target, text] of [
      ['/watch/-OK9i1_YYYc', 'Quasar opener'], ['/watch/.dotted', 'Dotted nebula'], ['/watch/..x', 'Two dots then x'],
      ['/embed/-OK9i1_YYYc', 'Quasar opener'], ['/embed/.dotted', 'Dotted nebula'],
      ['/channels/-chan', 'Dash Channel'], ['/channels/.chan', 'Dot Channel'], ['/playlists/.pl', 'Dotted playlist'],
      ['/channels/-chan/live', 'Live from a dashed channel'], ['/embed/live/-chan', 'Dash Channel'],
    ] as const) {
      const res = await api.send(target);
      expect(res.status, target).toBe(200);
      expect(decoded(res).toString('utf8'), target).toContain(text);
    }
  });

  it('the player page names its video for the player script', async () => {
    for (const id of ['.dotted', '-OK9i1_YYYc']) {
      const html = decoded(await api.send(`/embed/${id}`)).toString('utf8');
      const config = /<script type="application\/json" id="player-config">([^<]*)<\/script>/.exec(html);
      expect(JSON.parse(config![1]!).videoId).toBe(id);
    }
  });

  it('draw the generated pictures', async () => {
    for (const target of ['/thumbnails/-OK9i1_YYYc.svg', '/thumbnails/.dotted.svg', '/thumbnails/playlists/.pl.svg', '/avatars/.chan.svg', '/thumbnails/live/-chan.svg']) {
      const res = await api.send(target);
      expect(res.status, target).toBe(200);
      expect(header(res, 'content-type'), target).toMatch(/^image\/svg\+xml/);
    }
  });

  it('answer oEmbed for their watch and embed URLs and their ids', async () => {
    for (const query of [`url=${enc(`${fx.base}/watch/.dotted`)}`, `url=${enc(`${fx.base}/embed/-OK9i1_YYYc`)}`, 'id=..x', 'id=-OK9i1_YYYc']) {
      const { body } = await api.json<{ html: string; title: string }>(`/oembed?${query}`);
      expect(body.html, query).toMatch(new RegExp(`src="${fx.base}/embed/(\\.dotted|-OK9i1_YYYc|\\.\\.x)"`));
    }
  });
});

describe('search', () => {
  type Hits = { data: { item: { id?: string; username?: string } }[] };
  const found = async (target: string) => (await api.json<Hits>(target)).body.data.map((r) => r.item.id ?? r.item.username);

  it('finds videos, channels and playlists with such ids', async () => {
    expect(await found('/v1/search?q=quasar')).toEqual(['-OK9i1_YYYc']);
    expect(await found('/v1/search?q=nebula')).toEqual(['.dotted']);
    expect(await found('/v1/search?q=dot+channel&type=channels')).toEqual(['.chan']);
    expect(await found('/v1/search?q=dotted+playlist&type=playlists')).toEqual(['.pl']);
    expect((await api.json<{ data: { id: string }[] }>('/v1/videos?q=walkthrough')).body.data.map((v) => v.id)).toEqual(['.dotted']);
  });
});

describe('route words', () => {
  it('keep /v1/videos/batch for the batch endpoint (the importer refuses a video named batch)', async () => {
    expect((await api.send('/v1/videos/batch')).status).toBe(400);
  });
});
