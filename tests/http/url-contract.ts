// docs/api-contract.md §1: every URL in every response is absolute and answers 200 on the same deployment
// (watch, embed and channel pages as HTML, generated pictures as images), except URLs the catalogue
// gave, which are served exactly as given. Defined once and run against each catalogue fixture.
import { describe, expect, it } from 'vitest';
import type { Truth } from './catalogue-truth.ts';
import { urlFields, type Channel, type Playlist, type Thread, type Video } from './contract-shapes.ts';
import { followChain } from './paging.ts';
import { decoded, header, mapConcurrent, type Client } from './http-client.ts';
import { useServedCatalogue } from './harness.ts';
import { type CatalogueSource, type Fixture } from './server-fixture.ts';

const enc = encodeURIComponent;

/** What a URL field must lead to, by its name. */
const KIND: Record<string, RegExp> = {
  watchUrl: /^text\/html/, embedUrl: /^text\/html/, channelUrl: /^text\/html/,
  thumbnailUrl: /^image\//, avatarUrl: /^image\//, bannerUrl: /^image\//,
};

export function defineUrlContract(label: string, source: CatalogueSource): void {
  let fx: Fixture;
  let api: Client;
  let truth: Truth;
  useServedCatalogue(source, (h) => ({ fx, api, truth } = h));

  /** Every URL the catalogue itself holds: these are served as given, wherever they point. */
  const givenUrls = () => new Set([
    ...[...truth.videos.values()].flatMap((v) => [v.thumbnailUrl, ...v.sources.map((s) => s.url)]),
    ...[...truth.channels.values()].flatMap((c) => [c.avatarUrl, c.bannerUrl]),
    ...truth.comments.map((c) => c.authorAvatarUrl),
  ].filter((u): u is string => u !== null));

  describe(`${label}: every URL in a response resolves`, () => {
    it('leads each URL field of every kind of response to a 200 of the right type on this deployment, or is the catalogue\'s own URL', async () => {
      const video = truth.publicVideos.find((v) => (truth.threads.get(v.id)?.length ?? 0) > 0) ?? truth.publicVideos[0]!;
      const unlisted = truth.unlistedIds[0];
      const channel = [...truth.channels.keys()][0]!;
      const playlist = [...truth.playlists.values()].find((p) => p.privacy !== 'private');
      const targets = [
        '/v1/videos?limit=50', '/v1/videos?sort=trending&limit=50', `/v1/videos/${enc(video.id)}`, `/v1/videos/${enc(video.id)}/related?limit=50`,
        `/v1/videos/${enc(video.id)}/comments?limit=50`, '/v1/channels?limit=50', `/v1/channels/${enc(channel)}`,
        `/v1/channels/${enc(channel)}/videos?limit=50`, `/v1/channels/${enc(channel)}/playlists?limit=50`,
        '/v1/discovery', '/v1/live?state=all&limit=50',
        ...(unlisted ? [`/v1/videos/${enc(unlisted)}`] : []),
        ...(playlist ? [`/v1/playlists/${enc(playlist.id)}`, `/v1/playlists/${enc(playlist.id)}/videos?limit=50`] : []),
      ];
      const found = new Map<string, string>();
      for (const target of targets) {
        const { body } = await api.json<unknown>(target);
        for (const { path, url } of urlFields(body)) found.set(url, `${target} ${path}`);
      }
      expect(found.size).toBeGreaterThan(50);
      const given = givenUrls();
      const failures = (await mapConcurrent([...found], 8, async ([url, where]) => {
        const field = /\.(\w+)$/.exec(where)![1]!;
        if (!url.startsWith(`${fx.base}/`)) return given.has(url) ? [] : [`${where}: ${url} is neither on ${fx.base} nor given by the catalogue`];
        const res = await api.send(url.slice(fx.base.length));
        const type = header(res, 'content-type') ?? '';
        if (res.status !== 200) return [`${where}: ${url} answered ${res.status}`];
        if (KIND[field] && !KIND[field].test(type)) return [`${where}: ${url} is ${type}`];
        if (!header(res, 'etag')) return [`${where}: ${url} has no ETag`];
        return decoded(res).length > 0 ? [] : [`${where}: ${url} has an empty body`];
      })).flat();
      expect(failures).toEqual([]);
    });

    it('serves catalogue-given thumbnails and avatars exactly as given, and generates the others under the base URL', async () => {
      const videos = (await followChain<Video>(api, '/v1/videos?limit=50')).flatMap((p) => p.body.data);
      const wrong = videos.flatMap((v) => {
        const given = truth.videos.get(v.id)!.thumbnailUrl;
        const avatar = truth.channels.get(v.creator.username!)!.avatarUrl;
        return [
          ...(given ? (v.thumbnailUrl === given ? [] : [`${v.id}: thumbnail ${v.thumbnailUrl}, given ${given}`]) : v.thumbnailUrl.startsWith(`${fx.base}/`) ? [] : [`${v.id}: thumbnail ${v.thumbnailUrl}`]),
          ...(avatar ? (v.creator.avatarUrl === avatar ? [] : [`${v.id}: avatar ${v.creator.avatarUrl}, given ${avatar}`]) : v.creator.avatarUrl!.startsWith(`${fx.base}/`) ? [] : [`${v.id}: avatar ${v.creator.avatarUrl}`]),
        ];
      });
      expect(wrong).toEqual([]);
    });

    it('marks the watch page of an unlisted video noindex, and not a public one, and 404s private and unknown ids', async () => {
      const unlisted = truth.unlistedIds[0]!;
      const res = await api.send(`/watch/${enc(unlisted)}`);
      expect(res.status).toBe(200);
      expect(header(res, 'x-robots-tag')).toMatch(/noindex/);
      const pub = await api.send(`/watch/${enc(truth.publicVideos[0]!.id)}`);
      expect(header(pub, 'x-robots-tag')).toBeUndefined();
      for (const id of [truth.privateIds[0]!, 'no-such-video']) {
        for (const prefix of ['/watch/', '/embed/', '/thumbnails/']) {
          const target = `${prefix}${enc(id)}${prefix === '/thumbnails/' ? '.svg' : ''}`;
          expect((await api.send(target)).status, target).toBe(404);
        }
      }
    });

    it('gives every listed channel, playlist and thread an avatar or picture that answers', async () => {
      const channels = (await api.json<{ data: Channel[] }>('/v1/channels?limit=50')).body.data;
      const playlists = [...truth.playlists.values()].filter((p) => p.privacy !== 'private').slice(0, 20);
      const pictures = [
        ...channels.map((c) => c.avatarUrl),
        ...(await Promise.all(playlists.map(async (p) => (await api.json<{ data: Playlist }>(`/v1/playlists/${enc(p.id)}`)).body.data.thumbnailUrl))),
      ];
      const withThreads = truth.publicVideos.filter((v) => (truth.threads.get(v.id)?.length ?? 0) > 0).slice(0, 5);
      for (const v of withThreads) {
        const threads = (await api.json<{ data: Thread[] }>(`/v1/videos/${enc(v.id)}/comments`)).body.data;
        pictures.push(...threads.flatMap((t) => [t.author.avatarUrl, ...t.replies.map((r) => r.author.avatarUrl)]));
      }
      const given = givenUrls();
      const ours = pictures.filter((u) => !given.has(u));
      for (const url of ours) expect(url.startsWith(`${fx.base}/`), url).toBe(true);
      const statuses = await mapConcurrent([...new Set(ours)], 8, async (url) => [url, (await api.send(url.slice(fx.base.length))).status] as const);
      expect(statuses.filter(([, status]) => status !== 200)).toEqual([]);
    });
  });
}
