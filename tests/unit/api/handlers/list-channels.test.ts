import { describe, expect, it } from 'vitest';
import { listChannels } from '../../../../src/api/handlers/list-channels.ts';
import type { Channel } from '../../../../src/model/schemas.ts';
import { catalogueOf, channel, liveStream, modelOf, video } from '../../support/fixtures.ts';
import { call, pageOf, problemOf } from '../../support/handlers.ts';

// 'Dan' sorts before 'bob' in code units, so the subscriber tie puts Dan first.
const model = modelOf(catalogueOf({
  channels: [
    channel('alice', { displayName: 'Alice Jones', description: 'Cooking and Python tutorials', subscribers: 30 }),
    channel('bob', { displayName: 'Bob Builder', description: 'Jazz piano lessons', subscribers: 50 }),
    channel('carol', { displayName: 'Carol PYTHONISTA', description: 'Music and code', subscribers: 10 }),
    channel('Dan', { displayName: 'Daniel', subscribers: 50 }),
  ],
  videos: [
    video('a1', { channel: 'alice', views: 5 }),
    video('c1', { channel: 'carol', views: 100 }),
    video('c2', { channel: 'carol', views: 100 }),
    video('b1', { channel: 'bob', views: 20 }),
  ],
}));

const usernames = (query = '') => pageOf<Channel>(call(listChannels, model, query)).data.map((c) => c.username);
const parameters = (query: string) => problemOf(() => call(listChannels, model, query)).errors?.map((e) => e.parameter);

describe('listChannels: sorts', () => {
  it('lists every channel by subscribers by default, highest first, ties by username', () => {
    const page = pageOf<Channel>(call(listChannels, model));
    expect(page.data.map((c) => c.username)).toEqual(['Dan', 'bob', 'alice', 'carol']);
    expect(page.paging).toEqual({ limit: 20, offset: 0, total: 4, nextCursor: null });
  });

  it('serves the channel resources the model built, with isLive as of the request', () => {
    expect(pageOf<Channel>(call(listChannels, model)).data).toEqual(model.channelOrders.subscribers.map((e) => ({ ...e.resource, isLive: false })));
    const context = { model, snapshot: undefined, liveStreams: () => [liveStream('carol', 'live', { startedAt: '2026-01-01T00:00:00Z', viewers: 3 })] };
    const page = pageOf<Channel>(listChannels.handle(listChannels.parse({}, new URLSearchParams()), context));
    expect(page.data.filter((c) => c.isLive).map((c) => c.username)).toEqual(['carol']);
    expect(listChannels.cache).toBe('live');
  });

  it('sorts by views and by videos, highest first', () => {
    expect(usernames('sort=views')).toEqual(['carol', 'bob', 'alice', 'Dan']);
    expect(usernames('sort=videos')).toEqual(['carol', 'alice', 'bob', 'Dan']);
  });

  it('answers 400 when sort is likes', () => {
    const error = problemOf(() => call(listChannels, model, 'sort=likes'));
    expect(error.status).toBe(400);
    expect(error.errors).toEqual([{ parameter: 'sort', detail: 'must be one of subscribers, views, videos' }]);
  });
});

describe('listChannels: q', () => {
  it('matches username, display name and description, case-insensitively', () => {
    expect(usernames('q=python')).toEqual(['alice', 'carol']);
    expect(usernames('q=JAZZ')).toEqual(['bob']);
    expect(usernames('q=builder')).toEqual(['bob']);
    expect(usernames('q=dan')).toEqual(['Dan']);
  });

  it('needs every word to match', () => {
    expect(usernames('q=python%20cooking')).toEqual(['alice']);
    expect(usernames('q=python%20zebra')).toEqual([]);
  });

  it('matches words anywhere in any field, not text spanning two fields', () => {
    expect(usernames('q=jones%20tutorials')).toEqual(['alice']);
    expect(usernames('q=jonescooking')).toEqual([]);
  });

  it('keeps the order of the sort, the default one included', () => {
    expect(usernames('q=python')).toEqual(['alice', 'carol']);
    expect(usernames('q=python&sort=videos')).toEqual(['carol', 'alice']);
    const page = pageOf<Channel>(call(listChannels, model, 'q=python&sort=views'));
    expect(page.data.map((c) => c.username)).toEqual(['carol', 'alice']);
    expect(page.paging.total).toBe(2);
  });

  it('trims q before matching', () => {
    expect(usernames('q=%20%20python%20')).toEqual(usernames('q=python'));
  });

  it('answers 400 when q is only spaces', () => {
    const error = problemOf(() => call(listChannels, model, 'q=%20%20%20'));
    expect(error.status).toBe(400);
    expect(error.errors?.map((e) => e.parameter)).toEqual(['q']);
  });

  it('answers 400 when q is longer than 200 characters', () => {
    expect(parameters(`q=${'a'.repeat(201)}`)).toEqual(['q']);
    expect(usernames(`q=${'a'.repeat(200)}`)).toEqual([]);
  });
});

describe('listChannels: paging', () => {
  it('answers 400 when limit is 51, and serves limit 50', () => {
    expect(parameters('limit=51')).toEqual(['limit']);
    expect(pageOf(call(listChannels, model, 'limit=50')).paging.limit).toBe(50);
  });

  it('answers 400 when limit is 0', () => {
    expect(parameters('limit=0')).toEqual(['limit']);
  });

  it('answers 400 for cursor and offset together', () => {
    const cursor = pageOf(call(listChannels, model, 'limit=1')).paging.nextCursor!;
    const error = problemOf(() => call(listChannels, model, `limit=1&offset=1&cursor=${cursor}`));
    expect(error.status).toBe(400);
    expect(error.errors?.map((e) => e.parameter)).toEqual(['cursor']);
  });

  it('follows cursors through every channel exactly once, in order', () => {
    const seen: string[] = [];
    let query = 'sort=views&limit=1';
    for (let guard = 0; guard < 10; guard++) {
      const answer = call(listChannels, model, query);
      const page = pageOf<Channel>(answer);
      seen.push(...page.data.map((c) => c.username));
      if (page.paging.nextCursor === null) {
        expect(answer.next).toBeUndefined();
        break;
      }
      expect(answer.next).toMatch(/^\/v1\/channels\?cursor=[^&]+&limit=1&sort=views$/);
      query = new URL(answer.next!, 'http://x.invalid').search.slice(1);
    }
    expect(seen).toEqual(['carol', 'bob', 'alice', 'Dan']);
  });

  it('answers 400 for a cursor of another sort or q', () => {
    const cursor = pageOf(call(listChannels, model, 'limit=1')).paging.nextCursor!;
    expect(parameters(`limit=1&sort=views&cursor=${cursor}`)).toEqual(['cursor']);
    expect(parameters(`limit=1&q=a&cursor=${cursor}`)).toEqual(['cursor']);
    expect(usernames(`limit=1&cursor=${cursor}`)).toEqual(['bob']);
  });

  it('pages by offset, and answers an offset past the end with an empty page', () => {
    expect(usernames('limit=2&offset=1')).toEqual(['bob', 'alice']);
    expect(pageOf(call(listChannels, model, 'offset=9')).paging).toEqual({ limit: 20, offset: 9, total: 4, nextCursor: null });
  });

  it('has the same canonical URL with defaults given or left out, with q trimmed', () => {
    const canonical = (query: string) => listChannels.canonical(listChannels.parse({}, new URLSearchParams(query)));
    expect(canonical('')).toBe('/v1/channels?limit=20&sort=subscribers');
    expect(canonical('sort=subscribers&limit=20&offset=0&utm=x')).toBe(canonical(''));
    expect(canonical('q=%20Python%20&sort=views')).toBe('/v1/channels?limit=20&q=Python&sort=views');
  });
});
