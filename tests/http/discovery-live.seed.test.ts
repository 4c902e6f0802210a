// Discovery and live (docs/api-contract.md §2) over the demo catalogue: the five shelves and what each holds,
// /v1/live in both states, and a change of live state in the database showing without a rebuild.
import { describe, expect, it } from 'vitest';
import { openCatalogue } from '../../src/catalogue/open-catalogue.ts';
import { byCodeUnits, type Truth } from './catalogue-truth.ts';
import { extraKeys, LIVE_FIELDS, type Category, type Discovery, type LiveChannel, type Video } from './contract-shapes.ts';
import { header, type Client } from './http-client.ts';
import { useServedCatalogue } from './harness.ts';
import { followChain } from './paging.ts';
import { until } from '../unit/support/until.ts';
import type { Fixture } from './server-fixture.ts';

const waitFor = (check: () => Promise<boolean>, ms: number) => until(check, ms, 200);

const enc = encodeURIComponent;
const RANK = { live: 0, upcoming: 1, offline: 2 } as const;

let fx: Fixture;
let api: Client;
let truth: Truth;
useServedCatalogue({ seed: { videos: 300 } }, (h) => ({ fx, api, truth } = h));

/** docs/api-contract.md §2: live now, most viewers first; `all` adds upcoming then offline. Ties by username. */
function expectedLive(state: 'live' | 'all'): string[] {
  return truth.live.filter((l) => state === 'all' || l.state === 'live')
    .sort((a, b) => RANK[a.state] - RANK[b.state]
      || (a.state === 'live' ? (b.viewers ?? 0) - (a.viewers ?? 0) : 0)
      || (a.state === 'upcoming' ? Date.parse(a.scheduledFor!) - Date.parse(b.scheduledFor!) : 0)
      || byCodeUnits(a.channel, b.channel))
    .map((l) => l.channel);
}

describe('/v1/live', () => {
  it('lists the channels live now, most viewers first, with startedAt and viewers and no scheduledFor', async () => {
    const served = (await followChain<LiveChannel>(api, '/v1/live?limit=50')).flatMap((p) => p.body.data);
    expect(served.map((l) => l.channel.username)).toEqual(expectedLive('live'));
    expect(served.length).toBeGreaterThan(0);
    for (const l of served) {
      const record = truth.live.find((r) => r.channel === l.channel.username)!;
      expect(l).toMatchObject({ state: 'live', title: record.title ?? '', startedAt: record.startedAt, viewers: record.viewers ?? 0 });
      expect(l.scheduledFor).toBeUndefined();
      expect(extraKeys(l, LIVE_FIELDS, l.channel.username)).toEqual([]);
      expect(l.channel.channelUrl).toBe(`${fx.base}/channels/${enc(l.channel.username)}`);
    }
  });

  it('with state=all lists every live-stream record: live, then upcoming soonest first, then offline, each with only its state\'s fields', async () => {
    const served = (await followChain<LiveChannel>(api, '/v1/live?state=all&limit=7')).flatMap((p) => p.body.data);
    expect(served.map((l) => l.channel.username)).toEqual(expectedLive('all'));
    const states = new Set(served.map((l) => l.state));
    expect([...states].sort()).toEqual(['live', 'offline', 'upcoming']);
    for (const l of served) {
      expect(l.startedAt !== undefined, l.channel.username).toBe(l.state === 'live');
      expect(l.viewers !== undefined, l.channel.username).toBe(l.state === 'live');
      expect(l.scheduledFor !== undefined, l.channel.username).toBe(l.state === 'upcoming');
    }
  });

  it('answers 400 for an unknown state, a short-lived Cache-Control otherwise', async () => {
    const bad = await api.send('/v1/live?state=soon');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body.toString()).errors).toEqual([{ parameter: 'state', detail: expect.stringContaining('live, all') }]);
    const res = await api.send('/v1/live');
    const maxAge = Number(/max-age=(\d+)/.exec(header(res, 'cache-control') ?? '')?.[1]);
    expect(maxAge).toBeLessThanOrEqual(60);
  });

  it('shows a change of live state in the catalogue database within seconds, without a rebuild, in /v1/live and the discovery shelf', async () => {
    const offline = truth.live.find((l) => l.state === 'offline')!;
    const db = openCatalogue(fx.catalogue);
    try {
      db.prepare("UPDATE live_streams SET state = 'live', title = 'Surprise stream', started_at = '2026-11-01T00:00:00Z', viewers = 999999999 WHERE channel = ?").run(offline.channel);
      const shows = await waitFor(async () => {
        const { body } = await api.json<{ data: LiveChannel[] }>('/v1/live');
        return body.data[0]?.channel.username === offline.channel;
      }, 6000);
      expect(shows).toBe(true);
      const { body } = await api.json<{ data: Discovery }>('/v1/discovery');
      expect(body.data.shelves[4].items[0]).toMatchObject({ state: 'live', title: 'Surprise stream', viewers: 999999999, channel: { username: offline.channel } });
      expect((await api.json<{ data: { isLive: boolean } }>(`/v1/channels/${enc(offline.channel)}`)).body.data.isLive).toBe(true);
      const listed = (await followChain<{ username: string; isLive: boolean }>(api, '/v1/channels?limit=50')).flatMap((p) => p.body.data);
      expect(listed.find((c) => c.username === offline.channel)?.isLive).toBe(true);
    } finally {
      db.prepare("UPDATE live_streams SET state = 'offline', started_at = NULL, viewers = NULL WHERE channel = ?").run(offline.channel);
      db.close();
    }
    expect(await waitFor(async () => (await api.json<{ data: LiveChannel[] }>('/v1/live')).body.data.every((l) => l.channel.username !== offline.channel), 6000)).toBe(true);
  });
});

describe('/v1/discovery', () => {
  it('has the five shelves in order: latest, trending, feature-ready, categories, live', async () => {
    const { body } = await api.json<{ data: Discovery }>('/v1/discovery');
    expect(body.data.shelves.map((s) => s.id)).toEqual(['latest', 'trending', 'feature-ready', 'categories', 'live']);
    for (const shelf of body.data.shelves) expect(Object.keys(shelf).sort()).toEqual(['id', 'items', 'title']);
  });

  it('holds the first 12 videos of the latest and trending lists, and the first 12 trending videos with a feature', async () => {
    const [{ body }, latest, trending] = await Promise.all([
      api.json<{ data: Discovery }>('/v1/discovery'),
      api.json<{ data: Video[] }>('/v1/videos?limit=12'),
      followChain<Video>(api, '/v1/videos?sort=trending&limit=50'),
    ]);
    const [latestShelf, trendingShelf, featured] = body.data.shelves;
    expect(latestShelf.items).toEqual(latest.body.data);
    const trendingAll = trending.flatMap((p) => p.body.data);
    expect(trendingShelf.items).toEqual(trendingAll.slice(0, 12));
    expect(featured.items).toEqual(trendingAll.filter((v) => Object.values(v.features ?? {}).some(Boolean)).slice(0, 12));
    expect(featured.items.length).toBe(12);
    for (const v of [...latestShelf.items, ...trendingShelf.items, ...featured.items]) expect(truth.videos.get(v.id)?.privacy).toBe('public');
  });

  it('holds the categories as /v1/categories does and the live channels as /v1/live does', async () => {
    const [{ body }, categories, live] = await Promise.all([
      api.json<{ data: Discovery }>('/v1/discovery'),
      api.json<{ data: Category[] }>('/v1/categories'),
      api.json<{ data: LiveChannel[] }>('/v1/live?limit=12'),
    ]);
    expect(body.data.shelves[3].items).toEqual(categories.body.data);
    expect(body.data.shelves[4].items).toEqual(live.body.data);
  });

  it('answers with a strong ETag and 304 on If-None-Match, like every 200', async () => {
    const res = await api.send('/v1/discovery');
    const etag = header(res, 'etag')!;
    expect(etag).toMatch(/^"/);
    expect((await api.send('/v1/discovery', { headers: { 'if-none-match': etag } })).status).toBe(304);
  });
});
