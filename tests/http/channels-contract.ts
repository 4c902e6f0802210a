// Channels and playlists (docs/api-contract.md §10, docs/api-contract.md §2–4), defined once and run against each catalogue
// fixture: every field and count computed from the catalogue by the rules of docs/api-contract.md, the sorts, q,
// paging, counts that agree across endpoints, 404s, and the unlisted and private rules.
import { describe, expect, it } from 'vitest';
import { byCodeUnits, instant, type Truth, type TruthPlaylist, type TruthVideo } from './catalogue-truth.ts';
import {
  CHANNEL_FIELDS, extraKeys, PLAYLIST_FIELDS, problemShapeProblems, videoProblems,
  type Category, type Channel, type Playlist, type Video,
} from './contract-shapes.ts';
import { header, mapConcurrent, type Client } from './http-client.ts';
import { useServedCatalogue } from './harness.ts';
import { followChain, idsOf } from './paging.ts';
import { type CatalogueSource, type Fixture } from './server-fixture.ts';

const enc = encodeURIComponent;
const EPOCH = '1970-01-01T00:00:00Z';
const CHANNEL_SORTS = ['subscribers', 'views', 'videos'] as const;

export function defineChannelsContract(label: string, source: CatalogueSource): void {
  let fx: Fixture;
  let api: Client;
  let truth: Truth;

  useServedCatalogue(source, (h) => ({ fx, api, truth } = h));

  // ---- expectations, from the catalogue by the rules of docs/api-contract.md ----

  const publicVideosOf = (username: string): TruthVideo[] => truth.publicVideos.filter((v) => v.channel === username);
  const newestFirst = (videos: readonly TruthVideo[]) =>
    [...videos].sort((a, b) => instant(b.publishedAt) - instant(a.publishedAt) || byCodeUnits(a.id, b.id)).map((v) => v.id);
  const visibleEntries = (p: TruthPlaylist) => p.videoIds.filter((id) => { const v = truth.videos.get(id); return v !== undefined && v.privacy !== 'private'; });
  const latestOf = (ids: readonly string[]) => ids.map((id) => truth.videos.get(id)!.publishedAt).sort((a, b) => instant(b) - instant(a))[0];
  const playlistDates = (p: TruthPlaylist) => ({
    createdAt: p.createdAt ?? latestOf(visibleEntries(p)) ?? EPOCH,
    updatedAt: p.updatedAt ?? latestOf(visibleEntries(p)) ?? EPOCH,
  });
  const publicPlaylistsOf = (username: string) => [...truth.playlists.values()]
    .filter((p) => p.channel === username && p.privacy === 'public')
    .sort((a, b) => instant(playlistDates(b).updatedAt) - instant(playlistDates(a).updatedAt) || byCodeUnits(a.id, b.id));

  function expectedChannel(username: string): Omit<Channel, 'avatarUrl'> {
    const c = truth.channels.get(username)!;
    const videos = publicVideosOf(username);
    const earliest = [...videos].sort((a, b) => instant(a.publishedAt) - instant(b.publishedAt))[0]?.publishedAt;
    return {
      username,
      displayName: c.displayName,
      description: c.description ?? '',
      ...(c.bannerUrl !== null && { bannerUrl: c.bannerUrl }),
      channelUrl: `${fx.base}/channels/${enc(username)}`,
      subscribers: c.subscribers,
      views: videos.reduce((n, v) => n + v.views, 0),
      videos: videos.length,
      playlists: publicPlaylistsOf(username).length,
      createdAt: c.createdAt ?? earliest ?? EPOCH,
      isLive: truth.live.some((l) => l.channel === username && l.state === 'live'),
    };
  }

  function expectedOrder(sort: (typeof CHANNEL_SORTS)[number]): string[] {
    const all = [...truth.channels.keys()].map(expectedChannel);
    return all.sort((a, b) => b[sort] - a[sort] || byCodeUnits(a.username, b.username)).map((c) => c.username);
  }

  /** Problems of a served channel against the expectation, avatar included. */
  function channelProblems(served: Channel, where: string): string[] {
    const out = extraKeys(served, CHANNEL_FIELDS, where);
    const { avatarUrl, ...rest } = served;
    const expected = expectedChannel(served.username);
    if (JSON.stringify(rest, Object.keys(expected).sort()) !== JSON.stringify(expected, Object.keys(expected).sort())) {
      out.push(`${where}: ${JSON.stringify(rest)} is not ${JSON.stringify(expected)}`);
    }
    const given = truth.channels.get(served.username)?.avatarUrl;
    if (given ? avatarUrl !== given : !avatarUrl.startsWith(`${fx.base}/`)) out.push(`${where}.avatarUrl ${avatarUrl} (catalogue: ${given})`);
    return out;
  }

  function playlistProblems(served: Playlist, where: string): string[] {
    const out = extraKeys(served, PLAYLIST_FIELDS, where);
    const p = truth.playlists.get(served.id);
    if (!p) return [...out, `${where}: no playlist ${served.id} in the catalogue`];
    const expected = {
      id: p.id, title: p.title, description: p.description ?? '', privacy: p.privacy, videoCount: visibleEntries(p).length,
      ...playlistDates(p),
    };
    const { thumbnailUrl, creator, ...rest } = served;
    if (JSON.stringify(rest, Object.keys(expected).sort()) !== JSON.stringify(expected, Object.keys(expected).sort())) {
      out.push(`${where}: ${JSON.stringify(rest)} is not ${JSON.stringify(expected)}`);
    }
    if (creator.username !== p.channel || creator.channelUrl !== `${fx.base}/channels/${enc(p.channel)}`) out.push(`${where}.creator is ${JSON.stringify(creator)}`);
    if (!/^https?:\/\//.test(thumbnailUrl)) out.push(`${where}.thumbnailUrl ${thumbnailUrl} is not absolute`);
    return out;
  }

  const chainOf = async <T>(target: string) => (await followChain<T>(api, target)).flatMap((p) => p.body.data);

  describe(`${label}: /v1/channels`, () => {
    it('lists every channel exactly once along the default chain, by subscribers, each with the fields docs/api-contract.md §2 derives', async () => {
      const pages = await followChain<Channel>(api, '/v1/channels?limit=50');
      const served = pages.flatMap((p) => p.body.data);
      expect(served.map((c) => c.username)).toEqual(expectedOrder('subscribers'));
      expect(pages.every((p) => p.body.paging.total === truth.channels.size)).toBe(true);
      expect(served.flatMap((c, i) => channelProblems(c, `channels[${i}]`))).toEqual([]);
    });

    for (const sort of ['views', 'videos'] as const) {
      it(`orders by ${sort}, highest first, ties by username`, async () => {
        const served = await chainOf<Channel>(`/v1/channels?sort=${sort}&limit=50`);
        expect(served.map((c) => c.username)).toEqual(expectedOrder(sort));
      });
    }

    it('finds channels by a word of their username, display name or description with q, case-insensitively, in the sort order', async () => {
      const words = [...truth.channels.values()].flatMap((c) => `${c.displayName} ${c.description ?? ''}`.toLowerCase().match(/[a-z]{4,}/g) ?? []);
      const word = words.sort()[Math.floor(words.length / 2)]!;
      const matching = new Set([...truth.channels.values()]
        .filter((c) => `${c.username}\n${c.displayName}\n${c.description ?? ''}`.toLowerCase().includes(word)).map((c) => c.username));
      const served = await chainOf<Channel>(`/v1/channels?q=${enc(word.toUpperCase())}&limit=50`);
      expect(served.map((c) => c.username)).toEqual(expectedOrder('subscribers').filter((u) => matching.has(u)));
      expect(served.length).toBeGreaterThan(0);
    });

    it('gives the same pages by offset as by cursor', async () => {
      const byCursor = await followChain<Channel>(api, '/v1/channels?sort=views&limit=2');
      for (const [i, page] of byCursor.slice(0, 4).entries()) {
        const { body } = await api.json<{ data: Channel[] }>(`/v1/channels?sort=views&limit=2&offset=${i * 2}`);
        expect(body.data).toEqual(page.body.data);
      }
    });

    it('answers 400 naming each invalid parameter: sort, limit, q, cursor with offset, a cursor of another query', async () => {
      const cases: [string, string][] = [
        ['/v1/channels?sort=likes', 'sort'], ['/v1/channels?limit=51', 'limit'], ['/v1/channels?limit=0', 'limit'],
        ['/v1/channels?q=%20%20', 'q'], ['/v1/channels?cursor=abc&offset=2', 'cursor'], ['/v1/channels?cursor=AAAA', 'cursor'],
      ];
      const first = (await api.json<{ paging: { nextCursor: string | null } }>('/v1/channels?limit=1')).body.paging.nextCursor!;
      cases.push([`/v1/channels?limit=1&sort=videos&cursor=${enc(first)}`, 'cursor']);
      cases.push([`/v1/channels/${enc([...truth.channels.keys()][0]!)}/videos?limit=1&cursor=${enc(first)}`, 'cursor']);
      for (const [target, parameter] of cases) {
        const res = await api.send(target);
        expect(res.status, target).toBe(400);
        const body = JSON.parse(res.body.toString('utf8'));
        expect(problemShapeProblems(body, fx.base, 400), target).toEqual([]);
        expect(body.errors.map((e: { parameter: string }) => e.parameter), target).toContain(parameter);
      }
    });
  });

  describe(`${label}: one channel`, () => {
    it('serves each channel as listed, with videos equal to the total of its video list and playlists to the total of its playlist list', async () => {
      const listed = new Map((await chainOf<Channel>('/v1/channels?limit=50')).map((c) => [c.username, c]));
      const failures = (await mapConcurrent([...truth.channels.keys()], 6, async (username) => {
        const out: string[] = [];
        const { body } = await api.json<{ data: Channel }>(`/v1/channels/${enc(username)}`);
        if (JSON.stringify(body.data) !== JSON.stringify(listed.get(username))) out.push(`${username}: differs from its list entry`);
        out.push(...channelProblems(body.data, username));
        const videos = await followChain<Video>(api, `/v1/channels/${enc(username)}/videos?limit=50`);
        if (videos[0]!.body.paging.total !== body.data.videos) out.push(`${username}: videos ${body.data.videos}, list total ${videos[0]!.body.paging.total}`);
        const ids = idsOf(videos);
        if (ids.join(',') !== newestFirst(publicVideosOf(username)).join(',')) out.push(`${username}: videos are not its public videos, newest first`);
        const byFilter = idsOf(await followChain<Video>(api, `/v1/videos?creator=${enc(username)}&limit=50`));
        if (byFilter.join(',') !== ids.join(',')) out.push(`${username}: /v1/videos?creator= lists other videos`);
        for (const [i, v] of videos.flatMap((p) => p.body.data).entries()) out.push(...videoProblems(v, { base: fx.base, truth }, `${username} videos[${i}]`));
        const playlists = await followChain<Playlist>(api, `/v1/channels/${enc(username)}/playlists?limit=50`);
        if (playlists[0]!.body.paging.total !== body.data.playlists) out.push(`${username}: playlists ${body.data.playlists}, list total ${playlists[0]!.body.paging.total}`);
        const served = playlists.flatMap((p) => p.body.data);
        if (served.map((p) => p.id).join(',') !== publicPlaylistsOf(username).map((p) => p.id).join(',')) {
          out.push(`${username}: playlists [${served.map((p) => p.id)}] are not its public ones, most recently updated first`);
        }
        for (const p of served) out.push(...playlistProblems(p, `${username} playlist ${p.id}`));
        return out;
      })).flat();
      expect(failures).toEqual([]);
    });

    it('answers 404 problems for an unknown username, and for a path key that cannot be a username, on all three channel paths', async () => {
      for (const key of ['no-such-channel-here', '.hidden', '-dash', 'a%2Fb', 'x'.repeat(300), '%00', '%E2%82']) {
        for (const suffix of ['', '/videos', '/playlists']) {
          const res = await api.send(`/v1/channels/${key}${suffix}`);
          expect(res.status, key + suffix).toBe(404);
          expect(problemShapeProblems(JSON.parse(res.body.toString('utf8')), fx.base, 404), key + suffix).toEqual([]);
        }
      }
    });

    it('serves each channel page (its channelUrl) as HTML, and 404 for an unknown one', async () => {
      for (const username of [...truth.channels.keys()].slice(0, 5)) {
        const res = await api.send(`/channels/${enc(username)}`);
        expect(res.status).toBe(200);
        expect(header(res, 'content-type')).toMatch(/^text\/html/);
      }
      expect((await api.send('/channels/no-such-channel-here')).status).toBe(404);
    });
  });

  describe(`${label}: playlists`, () => {
    it('serves every public and unlisted playlist by id, with its visible videos in playlist order; unlisted ones noindex', async () => {
      const visible = [...truth.playlists.values()].filter((p) => p.privacy !== 'private');
      expect(visible.length).toBeGreaterThan(0);
      const failures = (await mapConcurrent(visible, 6, async (p) => {
        const out: string[] = [];
        const { body, res } = await api.json<{ data: Playlist }>(`/v1/playlists/${enc(p.id)}`);
        out.push(...playlistProblems(body.data, p.id));
        const robots = header(res, 'x-robots-tag') ?? '';
        if ((p.privacy === 'unlisted') !== /noindex/.test(robots)) out.push(`${p.id} (${p.privacy}): X-Robots-Tag "${robots}"`);
        const pages = await followChain<Video>(api, `/v1/playlists/${enc(p.id)}/videos?limit=50`);
        for (const page of pages) {
          const listRobots = header(page.res, 'x-robots-tag') ?? '';
          if ((p.privacy === 'unlisted') !== /noindex/.test(listRobots)) out.push(`${page.target} (${p.privacy}): X-Robots-Tag "${listRobots}"`);
        }
        const ids = idsOf(pages);
        if (ids.join(',') !== visibleEntries(p).join(',')) out.push(`${p.id}: videos [${ids}] are not its visible entries [${visibleEntries(p)}]`);
        if (pages[0]!.body.paging.total !== body.data.videoCount) out.push(`${p.id}: videoCount ${body.data.videoCount}, list total ${pages[0]!.body.paging.total}`);
        return out;
      })).flat();
      expect(failures).toEqual([]);
    });

    it('answers 404 for private and unknown playlists, on the playlist and its videos, as JSON and as a page', async () => {
      const hidden = [...truth.playlists.values()].filter((p) => p.privacy === 'private').map((p) => p.id);
      for (const id of [...hidden, 'no-such-playlist', '.hidden']) {
        for (const target of [`/v1/playlists/${enc(id)}`, `/v1/playlists/${enc(id)}/videos`, `/playlists/${enc(id)}`]) {
          const res = await api.send(target);
          expect(res.status, target).toBe(404);
          expect(problemShapeProblems(JSON.parse(res.body.toString('utf8')), fx.base, 404), target).toEqual([]);
        }
      }
    });

    it('never lists an unlisted or private playlist under its channel', async () => {
      const listed = new Set<string>();
      for (const username of truth.channels.keys()) {
        for (const p of await chainOf<Playlist>(`/v1/channels/${enc(username)}/playlists?limit=50`)) listed.add(p.id);
      }
      const notPublic = [...truth.playlists.values()].filter((p) => p.privacy !== 'public').map((p) => p.id);
      expect(notPublic.filter((id) => listed.has(id))).toEqual([]);
    });
  });

  describe(`${label}: counts agree across endpoints`, () => {
    it("gives each category's videoCount as the total of its video list", async () => {
      const { body } = await api.json<{ data: Category[] }>('/v1/categories');
      for (const c of body.data) {
        const list = await api.json<{ paging: { total: number } }>(`/v1/videos?category=${enc(c.id)}`);
        expect(list.body.paging.total, c.id).toBe(c.videoCount);
      }
    });
  });
}
