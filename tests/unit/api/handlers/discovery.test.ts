import { describe, expect, it } from 'vitest';
import type { Context } from '../../../../src/api/endpoint.ts';
import { discovery, SHELF_SIZE } from '../../../../src/api/handlers/discovery.ts';
import { DiscoveryResponse, type Discovery } from '../../../../src/model/schemas.ts';
import type { VideoEntry } from '../../../../src/model/build-model.ts';
import type { PublicLiveStream } from '../../../../src/catalogue/public-catalogue.ts';
import { catalogueOf, category, channel, liveStream, modelOf, NO_FEATURES, video } from '../../support/fixtures.ts';
import { call } from '../../support/handlers.ts';

const day = (n: number) => `2026-01-${String(n).padStart(2, '0')}T00:00:00Z`;
const usernames = Array.from({ length: 15 }, (_, i) => `ch${String(i).padStart(2, '0')}`);
// 16 public videos; all but v03, v07 and v11 have a feature, each a different one in turn.
const FEATURES = ['3d', 'calm', 'restricted', 'captions'] as const;
const videos = Array.from({ length: 16 }, (_, i) => {
  const id = `v${String(i).padStart(2, '0')}`;
  const feature = FEATURES[i % 4]!;
  return video(id, {
    publishedAt: day(i + 1),
    views: (i * 37) % 16 * 1000,
    likes: (i * 11) % 7,
    category: i % 2 === 0 ? 'even' : 'odd',
    features: [3, 7, 11].includes(i) ? { ...NO_FEATURES } : { ...NO_FEATURES, [feature]: true },
  });
});
const model = modelOf(catalogueOf({
  categories: [category('odd', 'Odd'), category('even', 'Even')],
  channels: [channel('alice'), ...usernames.map((u) => channel(u))],
  videos: [...videos, video('hidden', { publishedAt: day(28), views: 10 ** 9, privacy: 'unlisted', features: { '3d': true, calm: true, restricted: true, captions: true } })],
  live: [liveStream('alice', 'live', { startedAt: day(1), viewers: 10 })],
}));

/** Discovery answered with live records other than the snapshot's own. */
function discover(streams: readonly PublicLiveStream[]): Discovery {
  const context: Context = { model, snapshot: undefined, liveStreams: () => streams };
  const answer = discovery.handle(discovery.parse({}, new URLSearchParams()), context);
  const check = DiscoveryResponse.safeParse(answer.body);
  expect(check.success).toBe(true);
  return (answer.body as { data: Discovery }).data;
}
const ids = (entries: readonly VideoEntry[]) => entries.map((e) => e.video.id);
const shelf = (data: Discovery, id: string) => data.shelves.find((s) => s.id === id)!;
const shelfIds = (data: Discovery, id: string) => (shelf(data, id).items as { id: string }[]).map((v) => v.id);

describe('discovery', () => {
  const data = (call(discovery, model).body as { data: Discovery }).data;

  it('answers five shelves in order: latest, trending, feature-ready, categories, live', () => {
    expect(data.shelves.map((s) => s.id)).toEqual(['latest', 'trending', 'feature-ready', 'categories', 'live']);
    for (const s of data.shelves) expect(s.title).not.toBe('');
  });

  it('fills the latest shelf with the 12 newest public videos', () => {
    expect(SHELF_SIZE).toBe(12);
    expect(shelfIds(data, 'latest')).toEqual(ids(model.orders.latest).slice(0, 12));
    expect(shelfIds(data, 'latest')).toEqual(['v15', 'v14', 'v13', 'v12', 'v11', 'v10', 'v09', 'v08', 'v07', 'v06', 'v05', 'v04']);
  });

  it('fills the trending shelf with the first 12 public videos by trending score', () => {
    expect(shelfIds(data, 'trending')).toEqual(ids(model.orders.trending).slice(0, 12));
  });

  it('fills the feature-ready shelf with up to 12 videos that have a feature, in trending order', () => {
    const withFeature = model.orders.trending.filter((e) => Object.values(e.video.features).some(Boolean));
    expect(withFeature.length).toBeGreaterThan(12);
    expect(shelfIds(data, 'feature-ready')).toEqual(ids(withFeature).slice(0, 12));
    for (const id of ['v03', 'v07', 'v11']) expect(shelfIds(data, 'feature-ready')).not.toContain(id);
  });

  it('puts no unlisted video on any shelf', () => {
    expect(JSON.stringify(data)).not.toContain('hidden');
  });

  it('serves the categories as /v1/categories does', () => {
    expect(shelf(data, 'categories').items).toEqual(model.categories);
    expect(shelf(data, 'categories').items.map((c) => (c as { id: string }).id)).toEqual(['even', 'odd']);
  });

  it('holds short shelves when there are few videos, and no feature-ready shelf items without features', () => {
    const small = modelOf(catalogueOf({ videos: [video('a'), video('b')] }));
    const d = (call(discovery, small).body as { data: Discovery }).data;
    expect(shelfIds(d, 'latest').sort()).toEqual(['a', 'b']);
    expect(shelf(d, 'feature-ready').items).toEqual([]);
    expect(shelf(d, 'live').items).toEqual([]);
  });

  it('shows the live state of the request, not the snapshot\'s copy', () => {
    const d = discover([liveStream('ch01', 'live', { startedAt: day(2), viewers: 3 }), liveStream('alice', 'offline')]);
    expect(shelf(d, 'live').items.map((c) => (c as { channel: { username: string } }).channel.username)).toEqual(['ch01']);
    expect(shelf(d, 'live').items).toHaveLength(1);
  });

  it('shows only channels live now, most viewers first, at most 12', () => {
    const streams = [
      ...usernames.map((u, i) => liveStream(u, 'live', { startedAt: day(1), viewers: i * 10 })),
      liveStream('alice', 'upcoming', { scheduledFor: day(30) }),
    ];
    const live = shelf(discover(streams), 'live').items as { channel: { username: string }; state: string }[];
    expect(live.map((c) => c.channel.username)).toEqual([...usernames].reverse().slice(0, 12));
    expect(live.every((c) => c.state === 'live')).toBe(true);
  });

  it('follows live state across requests without a new model', () => {
    let streams: PublicLiveStream[] = [];
    const context: Context = { model, snapshot: undefined, liveStreams: () => streams };
    const liveShelf = () => (discovery.handle({}, context).body as { data: Discovery }).data.shelves[4].items;
    expect(liveShelf()).toEqual([]);
    streams = [liveStream('ch03', 'live', { startedAt: day(3), viewers: 1 })];
    expect(liveShelf()).toHaveLength(1);
  });

  it('ignores query parameters and has the canonical URL /v1/discovery, cached by live state', () => {
    expect(call(discovery, model, 'limit=3&x=1').body).toEqual(call(discovery, model).body);
    expect(discovery.canonical(discovery.parse({}, new URLSearchParams('x=1')))).toBe('/v1/discovery');
    expect(discovery.cache).toBe('live');
  });
});
