// The list indexes against a straightforward scan of the same model: for many random filter,
// sort, offset and cursor combinations, /v1/videos and /v1/channels answer byte for byte what
// filtering the model's sort orders answers (the code the indexes replaced).
import { describe, expect, it } from 'vitest';
import type { Context } from '../../../src/api/endpoint.ts';
import { listChannels } from '../../../src/api/handlers/list-channels.ts';
import { listVideos } from '../../../src/api/handlers/list-videos.ts';
import { paginate, type PageAnswer } from '../../../src/api/paging.ts';
import { serialise } from '../../../src/lib/serialise.ts';
import { CHANNEL_SORTS } from '../../../src/model/build-channels.ts';
import { VIDEO_SORTS, type Model, type VideoEntry } from '../../../src/model/build-model.ts';
import { channelAsOf, liveNow } from '../../../src/model/live.ts';
import { popcount, selectPositions, type Feature } from '../../../src/model/list-index.ts';
import type { PublicVideo } from '../../../src/catalogue/public-catalogue.ts';
import { searchIndexFor } from '../../../src/api/search-index-for.ts';
import { searchKind } from '../../../src/search/run-search.ts';
import { catalogueOf, category, channel, modelOf, video } from '../support/fixtures.ts';

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function randomFrom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)]!;
  return { next, int, pick };
}

const CATEGORIES = ['talks', 'tutorials', 'keynotes', 'panels', 'rare'];
const WORDS = ['python', 'data', 'async', 'testing', 'web', 'types', 'packaging', 'science'];
const FEATURES: readonly Feature[] = ['3d', 'calm', 'restricted', 'captions'];

/** Big and small channels, common and rare categories, ties in every sort, unlisted videos. */
function randomModel(seed: number, count: number): Model {
  const r = randomFrom(seed);
  const big = ['big1', 'big2', 'big3'];
  const small = Array.from({ length: 40 }, (_, i) => `small${i}`);
  const videos: PublicVideo[] = Array.from({ length: count }, (_, i) => {
    const c = r.next();
    return video(`v${String(i).padStart(5, '0')}`, {
      channel: r.next() < 0.6 ? r.pick(big) : r.pick(small),
      title: `${r.pick(WORDS)} ${r.pick(WORDS)} ${i}`,
      category: c < 0.05 ? undefined : c < 0.07 ? 'rare' : r.pick(CATEGORIES.slice(0, 4)),
      duration: r.next() < 0.1 ? undefined : r.int(4000),
      views: r.int(50),
      likes: r.int(20),
      publishedAt: `2026-0${1 + r.int(9)}-1${r.int(10)}T00:00:00Z`,
      privacy: r.next() < 0.1 ? 'unlisted' : 'public',
      features: { '3d': r.next() < 0.05, calm: r.next() < 0.3, restricted: r.next() < 0.01, captions: r.next() < 0.5 },
    });
  });
  return modelOf(catalogueOf({
    categories: CATEGORIES.map((id) => category(id)),
    channels: [...big, ...small].map((u) => channel(u, { subscribers: r.int(5), description: `${r.pick(WORDS)} channel` })),
    videos,
  }));
}

const contextOf = (model: Model): Context => ({ model, snapshot: undefined, liveStreams: () => [] });

/** The reference: every public video of the sort order (or the search's ranking) filtered one by one. */
function scanVideos(model: Model, query: URLSearchParams): PageAnswer<unknown> {
  const { filters, page } = listVideos.parse({}, query) as unknown as { filters: Record<string, string | undefined>; page: Parameters<typeof paginate>[1] };
  const keep = (e: VideoEntry) =>
    (filters['category'] === undefined || e.video.category === filters['category']) &&
    (filters['creator'] === undefined || e.video.channel === filters['creator']) &&
    (filters['duration'] === undefined || e.durationClass === filters['duration']) &&
    (filters['feature'] === undefined || e.video.features[filters['feature'] as Feature]);
  let list: readonly VideoEntry[];
  if (filters['q'] === undefined) list = model.orders[filters['sort'] as 'latest'].filter(keep);
  else {
    const index = searchIndexFor(contextOf(model));
    const matched = Array.from(searchKind(index, 'videos', filters['q'], Number.POSITIVE_INFINITY).ids, (id) => model.videos.get(index.videos.keys[id]!)!);
    const ids = new Set(matched.map((e) => e.video.id));
    list = filters['sort'] === undefined ? matched.filter(keep) : model.orders[filters['sort'] as 'latest'].filter((e) => ids.has(e.video.id) && keep(e));
  }
  return paginate(list, page, (e) => e.resource);
}

function scanChannels(model: Model, query: URLSearchParams): PageAnswer<unknown> {
  const { filters, page } = listChannels.parse({}, query) as { filters: { sort: 'subscribers'; q: string | undefined }; page: Parameters<typeof paginate>[1] };
  let list = model.channelOrders[filters.sort];
  if (filters.q !== undefined) {
    const index = searchIndexFor(contextOf(model));
    const matched = new Set(Array.from(searchKind(index, 'channels', filters.q, Number.POSITIVE_INFINITY).ids, (id) => index.channels.keys[id]!));
    list = list.filter((e) => matched.has(e.channel.username));
  }
  const live = liveNow([]);
  return paginate(list, page, (e) => channelAsOf(e, live));
}

/**
 * The answer as the server sends it: the body's bytes and the `next` link. An answer that writes its
 * bytes without making its body (paging.ts paginatePositions) must write the body's JSON.
 */
const bytesOf = (answer: { body: unknown; next?: string | undefined; bytes?: (() => Buffer) | undefined }) => {
  const body = serialise(answer.body);
  if (answer.bytes) expect(answer.bytes().toString('utf8')).toBe(body);
  return { body, next: answer.next };
};

function randomVideoQuery(r: ReturnType<typeof randomFrom>, model: Model, total: number): URLSearchParams {
  const query = new URLSearchParams();
  if (r.next() < 0.8) query.set('sort', r.pick(VIDEO_SORTS));
  if (r.next() < 0.5) query.set('category', r.pick([...CATEGORIES, 'none-such']));
  if (r.next() < 0.4) query.set('creator', r.pick([...model.channels.keys(), 'nobody']));
  if (r.next() < 0.4) query.set('duration', r.pick(['short', 'medium', 'long']));
  if (r.next() < 0.4) query.set('feature', r.pick(FEATURES));
  if (r.next() < 0.15) query.set('q', r.pick(WORDS));
  query.set('limit', String(1 + r.int(50)));
  const where = r.next();
  if (where < 0.6) query.set('offset', String(r.int(total + 20)));
  else if (where < 0.7) query.set('offset', String(r.int(40)));
  return query;
}

describe('list indexes against a scan of the same model', () => {
  const model = randomModel(7, 3000);
  const context = contextOf(model);

  it('covers both ways of intersecting: bitsets for common values, positions for rare ones', () => {
    const lists = model.lists.videos;
    expect(lists.categories.get('talks')!.bits).toBeDefined();
    expect(lists.creators.get('big1')!.bits).toBeDefined();
    expect(lists.categories.get('rare')!.bits).toBeUndefined();
    expect(lists.creators.get('small1')!.bits).toBeUndefined();
    expect(lists.features.get('restricted')!.bits).toBeUndefined();
  });

  it('answers 2,000 random video list queries (filters, sorts, offsets, search) byte for byte as the scan', () => {
    const r = randomFrom(11);
    for (let n = 0; n < 2000; n++) {
      const query = randomVideoQuery(r, model, model.orders.latest.length);
      const indexed = listVideos.handle(listVideos.parse({}, query), context);
      expect(bytesOf(indexed), query.toString()).toEqual(bytesOf(scanVideos(model, query)));
    }
  });

  it('follows cursors from random pages to the same pages as the scan', () => {
    const r = randomFrom(12);
    for (let n = 0; n < 200; n++) {
      let query = randomVideoQuery(r, model, 200);
      for (let step = 0; step < 4; step++) {
        const indexed = listVideos.handle(listVideos.parse({}, query), context);
        expect(bytesOf(indexed), query.toString()).toEqual(bytesOf(scanVideos(model, query)));
        const cursor = (indexed.body as { paging: { nextCursor: string | null } }).paging.nextCursor;
        if (cursor === null) break;
        query = new URLSearchParams(query);
        query.delete('offset');
        query.set('cursor', cursor);
      }
    }
  });

  it('answers random channel list queries (sorts, search, offsets) byte for byte as the scan', () => {
    const r = randomFrom(13);
    for (let n = 0; n < 300; n++) {
      const query = new URLSearchParams();
      if (r.next() < 0.8) query.set('sort', r.pick(CHANNEL_SORTS));
      if (r.next() < 0.5) query.set('q', r.pick([...WORDS, 'small', 'big2']));
      query.set('limit', String(1 + r.int(50)));
      if (r.next() < 0.6) query.set('offset', String(r.int(50)));
      const indexed = listChannels.handle(listChannels.parse({}, query), context);
      expect(bytesOf(indexed), query.toString()).toEqual(bytesOf(scanChannels(model, query)));
    }
  });

  it('matches the scan on other catalogues, down to an empty one', () => {
    for (const [seed, count] of [[1, 0], [2, 1], [3, 31], [4, 33], [5, 500]] as const) {
      const other = randomModel(seed, count);
      const r = randomFrom(seed);
      for (let n = 0; n < 150; n++) {
        const query = randomVideoQuery(r, other, other.orders.latest.length);
        expect(bytesOf(listVideos.handle(listVideos.parse({}, query), contextOf(other))), `${count}: ${query}`).toEqual(bytesOf(scanVideos(other, query)));
      }
    }
  });
});

describe('selectPositions', () => {
  const model = randomModel(21, 2000);
  const lists = model.lists.videos;

  it('lists an unknown filter value as empty, and no filter as every public video', () => {
    expect(selectPositions(lists, 'views', { category: 'none-such' }).length).toBe(0);
    expect(selectPositions(lists, 'views', { creator: 'nobody', duration: 'short' }).length).toBe(0);
    const all = selectPositions(lists, 'likes', {});
    expect(all.length).toBe(model.orders.likes.length);
    expect(all.at(17)).toBe(17);
  });

  it('reads an intersection of bitsets at any position, forwards and backwards', () => {
    const f = { category: 'talks', feature: 'captions' as const };
    const expected = model.orders.trending.flatMap((e, position) => (e.video.category === 'talks' && e.video.features.captions ? [position] : []));
    const list = selectPositions(lists, 'trending', f);
    expect(list.length).toBe(expected.length);
    for (const i of [5, 6, 100, 3, 0, expected.length - 1, 64]) expect(list.at(i), `at ${i}`).toBe(expected[i]);
  });
});

describe('selectPositions, a rare value walked', () => {
  const model = randomModel(22, 2000);
  const lists = model.lists.videos;

  it('counts the rare value\'s matches and reads them at any position, forwards and backwards', () => {
    // 'rare' has no bitset (a few dozen videos): its positions are walked, testing the others
    const f = { category: 'rare', feature: 'captions' as const, duration: 'long' as const };
    const expected = model.orders.views.flatMap((e, position) =>
      (e.video.category === 'rare' && e.video.features.captions && e.durationClass === 'long' ? [position] : []));
    const list = selectPositions(lists, 'views', f);
    expect(expected.length).toBeGreaterThan(2);
    expect(list.length).toBe(expected.length);
    for (const i of [1, 2, 0, expected.length - 1, 1]) expect(list.at(i), `at ${i}`).toBe(expected[i]);
    expect(() => list.at(expected.length)).toThrow(RangeError);
  });
});

describe('popcount', () => {
  it('counts the set bits of any 32-bit word, the sign bit included', () => {
    for (const [word, bits] of [[0, 0], [1, 1], [-1, 32], [0x80000000 | 0, 1], [0x55555555, 16], [0x0f0f00ff, 16]] as const) {
      expect(popcount(word), String(word)).toBe(bits);
    }
  });
});
