import { describe, expect, it } from 'vitest';
import { listVideos } from '../../../../src/api/handlers/list-videos.ts';
import type { Video } from '../../../../src/model/schemas.ts';
import { durationClass } from '../../../../src/model/durations.ts';
import type { PublicVideo } from '../../../../src/catalogue/public-catalogue.ts';
import { byCodeUnits, catalogueOf, category, channel, modelOf, NO_FEATURES, video } from '../../support/fixtures.ts';
import { call, pageOf, problemOf } from '../../support/handlers.ts';

const day = (n: number) => `2026-01-${String(n).padStart(2, '0')}T00:00:00Z`;
const videos: PublicVideo[] = [
  video('v01', { title: 'Learning Python the hard way', duration: 45, views: 900, likes: 10, publishedAt: day(1), category: 'tech', channel: 'alice', features: { ...NO_FEATURES, captions: true } }),
  video('v02', { title: 'Cooking pasta', description: 'A python appears in the kitchen', duration: 239, views: 50, likes: 40, publishedAt: day(2), category: 'food', channel: 'bob' }),
  video('v03', { title: 'Jazz piano', tags: ['python'], duration: 240, views: 300, likes: 3, publishedAt: day(3), category: 'music', channel: 'alice', features: { ...NO_FEATURES, '3d': true } }),
  video('v04', { title: 'Guitar basics', duration: 1200, views: 300, likes: 30, publishedAt: day(4), category: 'music', channel: 'bob', features: { ...NO_FEATURES, calm: true, captions: true } }),
  video('v05', { title: 'A long lecture', duration: 1201, views: 10, likes: 0, publishedAt: day(5), category: 'tech', channel: 'carol' }),
  video('v06', { title: 'Python packaging', tags: ['Python', 'packaging'], duration: 3600, views: 5000, likes: 200, publishedAt: day(6), category: 'tech', channel: 'carol', features: { ...NO_FEATURES, restricted: true } }),
  video('v07', { title: 'No duration', views: 0, likes: 0, publishedAt: day(7), channel: 'alice' }),
  video('v08', { title: 'Same day A', duration: 100, views: 70, likes: 7, publishedAt: day(8), category: 'music', channel: 'bob' }),
  video('v09', { title: 'Same day B', duration: 100, views: 70, likes: 7, publishedAt: day(8), category: 'music', channel: 'bob' }),
  video('v10', { title: 'Python secret unlisted', duration: 100, views: 99_999, likes: 9999, publishedAt: day(9), category: 'tech', channel: 'alice', privacy: 'unlisted', features: { '3d': true, calm: true, restricted: true, captions: true } }),
];
const model = modelOf(catalogueOf({
  categories: [category('tech'), category('food'), category('music')],
  channels: [channel('alice', { displayName: 'Alice Jones' }), channel('bob'), channel('carol', { displayName: 'Carol Pythonista' })],
  videos,
}));
const listed = videos.filter((v) => v.privacy === 'public');

const idsOf = (query: string) => pageOf<Video>(call(listVideos, model, query)).data.map((v) => v.id);
const newestFirst = (list: readonly PublicVideo[]) =>
  [...list].sort((a, b) => (a.publishedAt < b.publishedAt ? 1 : a.publishedAt > b.publishedAt ? -1 : byCodeUnits(a.id, b.id))).map((v) => v.id);
const highestFirst = (list: readonly PublicVideo[], key: 'views' | 'likes') =>
  [...list].sort((a, b) => b[key] - a[key] || byCodeUnits(a.id, b.id)).map((v) => v.id);

describe('listVideos: defaults', () => {
  it('lists public videos newest first, ties by id, 20 a page', () => {
    const page = pageOf<Video>(call(listVideos, model));
    expect(page.data.map((v) => v.id)).toEqual(newestFirst(listed));
    expect(page.paging).toEqual({ limit: 20, offset: 0, total: listed.length, nextCursor: null });
  });

  it('never lists unlisted videos, whatever the filter', () => {
    for (const query of ['', 'sort=views', 'feature=3d', 'category=tech', 'creator=alice', 'q=python', 'duration=short']) {
      expect(idsOf(query)).not.toContain('v10');
    }
  });

  it('has the same canonical URL with defaults given or left out', () => {
    const canonical = (query: string) => listVideos.canonical(listVideos.parse({}, new URLSearchParams(query)));
    expect(canonical('')).toBe(canonical('sort=latest&limit=20'));
    expect(canonical('limit=20&sort=latest&offset=0&utm=1')).toBe(canonical(''));
    expect(canonical('')).toBe('/v1/videos?limit=20&sort=latest');
  });
});

describe('listVideos: sorts', () => {
  it('sorts by views and by likes, highest first, ties by id', () => {
    expect(idsOf('sort=views')).toEqual(highestFirst(listed, 'views'));
    expect(idsOf('sort=likes')).toEqual(highestFirst(listed, 'likes'));
  });

  it('sorts by trending as the model orders it', () => {
    expect(idsOf('sort=trending')).toEqual(model.orders.trending.map((e) => e.video.id));
  });
});

describe('listVideos: filters', () => {
  it('filters by category, and gives an empty page for an unknown one', () => {
    expect(idsOf('category=music')).toEqual(newestFirst(listed.filter((v) => v.category === 'music')));
    expect(pageOf(call(listVideos, model, 'category=polka')).paging.total).toBe(0);
  });

  it('filters by creator, and gives an empty page for an unknown one', () => {
    expect(idsOf('creator=bob')).toEqual(newestFirst(listed.filter((v) => v.channel === 'bob')));
    expect(idsOf('creator=nobody')).toEqual([]);
  });

  it.each(['short', 'medium', 'long'] as const)('filters duration=%s by the duration class boundaries', (duration) => {
    const expected = newestFirst(listed.filter((v) => v.duration !== undefined && durationClass(v.duration) === duration));
    expect(expected.length).toBeGreaterThan(0);
    expect(idsOf(`duration=${duration}`)).toEqual(expected);
  });

  it('puts 239 s in short, 240 s and 1200 s in medium, 1201 s in long, and no duration in none', () => {
    expect(idsOf('duration=short')).toContain('v02');
    expect(idsOf('duration=medium')).toEqual(expect.arrayContaining(['v03', 'v04']));
    expect(idsOf('duration=long')).toContain('v05');
    for (const d of ['short', 'medium', 'long']) expect(idsOf(`duration=${d}`)).not.toContain('v07');
  });

  it.each(['3d', 'calm', 'restricted', 'captions'] as const)('filters feature=%s to videos with that flag', (feature) => {
    expect(idsOf(`feature=${feature}`)).toEqual(newestFirst(listed.filter((v) => v.features[feature])));
  });

  it('combines filters with AND', () => {
    const expected = listed.filter((v) => v.category === 'music' && v.channel === 'bob' && v.features.captions);
    expect(idsOf('category=music&creator=bob&feature=captions')).toEqual(newestFirst(expected));
    expect(idsOf('category=food&creator=alice')).toEqual([]);
  });

  it('applies a sort to the filtered list', () => {
    expect(idsOf('category=tech&sort=views')).toEqual(highestFirst(listed.filter((v) => v.category === 'tech'), 'views'));
  });
});

describe('listVideos: q', () => {
  const matches = (word: string) => listed.filter((v) =>
    [v.title, v.tags.join(' '), v.description ?? '', v.channel, model.channels.get(v.channel)!.channel.displayName].join(' ').toLowerCase().includes(word));

  it('finds videos by title, tags, description and creator, case-insensitively', () => {
    const found = idsOf('q=PYTHON');
    expect([...found].sort()).toEqual(matches('python').map((v) => v.id).sort());
    expect(found).toEqual(expect.arrayContaining(['v01', 'v02', 'v03', 'v06']));
  });

  it('ranks a title match above a tag match above a description match, without a sort', () => {
    const found = idsOf('q=python');
    expect(found.indexOf('v06')).toBeLessThan(found.indexOf('v03'));
    expect(found.indexOf('v01')).toBeLessThan(found.indexOf('v03'));
    expect(found.indexOf('v03')).toBeLessThan(found.indexOf('v02'));
  });

  it('needs every word to match', () => {
    expect(idsOf('q=python%20packaging')).toEqual(['v06']);
    expect(idsOf('q=python%20zebra')).toEqual([]);
  });

  it('orders matches by the sort when one is given', () => {
    expect(idsOf('q=python&sort=likes')).toEqual(highestFirst(matches('python'), 'likes'));
    expect(idsOf('q=python&sort=latest')).toEqual(newestFirst(matches('python')));
  });

  it('combines q with filters', () => {
    expect(idsOf('q=python&category=tech')).toEqual(expect.arrayContaining(['v01', 'v06']));
    expect(idsOf('q=python&category=tech')).toHaveLength(matches('python').filter((v) => v.category === 'tech').length);
  });
});

describe('listVideos: paging', () => {
  it('follows cursors through every video exactly once, in order', () => {
    const seen: string[] = [];
    let query = 'sort=views&limit=3';
    for (let guard = 0; guard < 20; guard++) {
      const answer = call(listVideos, model, query);
      const page = pageOf<Video>(answer);
      expect(page.paging.limit).toBe(3);
      expect(page.data.length).toBeLessThanOrEqual(3);
      seen.push(...page.data.map((v) => v.id));
      if (page.paging.nextCursor === null) {
        expect(answer.next).toBeUndefined();
        break;
      }
      expect(answer.next).toBeDefined();
      query = new URL(answer.next!, 'http://x.invalid').search.slice(1);
    }
    expect(seen).toEqual(highestFirst(listed, 'views'));
  });

  it('pages by offset', () => {
    expect(idsOf('limit=2&offset=2')).toEqual(newestFirst(listed).slice(2, 4));
  });

  it('answers an offset past the end with an empty page, however far', () => {
    for (const offset of [listed.length, 500, 4_294_967_296, Number.MAX_SAFE_INTEGER]) {
      const page = pageOf(call(listVideos, model, `offset=${offset}`));
      expect(page.data).toEqual([]);
      expect(page.paging).toMatchObject({ offset, total: listed.length, nextCursor: null });
    }
  });

  it('answers 400 for a cursor of another sort or filter', () => {
    const cursor = pageOf(call(listVideos, model, 'sort=views&limit=2')).paging.nextCursor!;
    for (const query of [`sort=likes&limit=2&cursor=${cursor}`, `sort=views&limit=2&category=tech&cursor=${cursor}`]) {
      const error = problemOf(() => call(listVideos, model, query));
      expect(error.status).toBe(400);
      expect(error.errors?.map((e) => e.parameter)).toEqual(['cursor']);
    }
  });

  it('answers 400 for a tampered cursor', () => {
    const cursor = pageOf(call(listVideos, model, 'limit=2')).paging.nextCursor!;
    const flipped = cursor.slice(0, 5) + (cursor[5] === 'A' ? 'B' : 'A') + cursor.slice(6);
    expect(problemOf(() => call(listVideos, model, `limit=2&cursor=${flipped}`)).status).toBe(400);
  });

  it('answers 400 for invalid parameters before touching the model', () => {
    expect(problemOf(() => call(listVideos, model, 'limit=0&sort=oldest')).errors?.map((e) => e.parameter).sort()).toEqual(['limit', 'sort']);
  });
});
