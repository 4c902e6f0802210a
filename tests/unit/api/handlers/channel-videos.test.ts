import { describe, expect, it } from 'vitest';
import { channelVideos } from '../../../../src/api/handlers/channel-videos.ts';
import type { Video } from '../../../../src/model/schemas.ts';
import { catalogueOf, channel, modelOf, video } from '../../support/fixtures.ts';
import { call, pageOf, problemOf } from '../../support/handlers.ts';

const day = (n: number) => `2026-01-${String(n).padStart(2, '0')}T00:00:00Z`;
const model = modelOf(catalogueOf({
  channels: [channel('alice'), channel('bob'), channel('carol')],
  videos: [
    video('a-old', { publishedAt: day(1) }),
    video('a-new', { publishedAt: day(9) }),
    video('a-tie-b', { publishedAt: day(5) }),
    video('a-tie-a', { publishedAt: day(5) }),
    video('a-unlisted', { publishedAt: day(20), privacy: 'unlisted' }),
    video('b1', { channel: 'bob', publishedAt: day(30) }),
    video('c-unlisted', { channel: 'carol', privacy: 'unlisted' }),
  ],
}));
const videosOf = (username: string, query = '') => pageOf<Video>(call(channelVideos, model, query, { username }));

describe('channelVideos', () => {
  it('lists the channel\'s public videos newest first, ties by id', () => {
    const page = videosOf('alice');
    expect(page.data.map((v) => v.id)).toEqual(['a-new', 'a-tie-a', 'a-tie-b', 'a-old']);
    expect(page.paging).toEqual({ limit: 20, offset: 0, total: 4, nextCursor: null });
  });

  it('never lists unlisted videos or another channel\'s videos', () => {
    expect(videosOf('alice').data.map((v) => v.id)).not.toContain('a-unlisted');
    expect(videosOf('alice').data.map((v) => v.id)).not.toContain('b1');
    expect(videosOf('bob').data.map((v) => v.id)).toEqual(['b1']);
  });

  it('answers an empty page for a channel with only unlisted videos', () => {
    expect(videosOf('carol').paging).toEqual({ limit: 20, offset: 0, total: 0, nextCursor: null });
  });

  it('pages with cursors through every video once', () => {
    const first = call(channelVideos, model, 'limit=3', { username: 'alice' });
    expect(pageOf<Video>(first).data.map((v) => v.id)).toEqual(['a-new', 'a-tie-a', 'a-tie-b']);
    expect(first.next).toMatch(/^\/v1\/channels\/alice\/videos\?cursor=[^&]+&limit=3$/);
    const second = videosOf('alice', new URL(first.next!, 'http://x.invalid').search.slice(1));
    expect(second.data.map((v) => v.id)).toEqual(['a-old']);
    expect(second.paging.nextCursor).toBeNull();
  });

  it('answers 400 when limit is 51 or cursor and offset are both given', () => {
    expect(problemOf(() => videosOf('alice', 'limit=51')).errors?.map((e) => e.parameter)).toEqual(['limit']);
    const cursor = videosOf('alice', 'limit=1').paging.nextCursor!;
    expect(problemOf(() => videosOf('alice', `cursor=${cursor}&offset=1&limit=1`)).status).toBe(400);
  });

  it('answers 400 for a cursor of another channel', () => {
    const cursor = videosOf('alice', 'limit=1').paging.nextCursor!;
    expect(problemOf(() => videosOf('bob', `limit=1&cursor=${cursor}`)).errors?.map((e) => e.parameter)).toEqual(['cursor']);
  });

  it('answers 404 for an unknown or badly shaped username, naming it', () => {
    for (const username of ['nobody', '.x', 'u'.repeat(300)]) {
      const error = problemOf(() => videosOf(username));
      expect(error.status).toBe(404);
      expect(error.message).toContain(username.slice(0, 200));
    }
  });

  it('has a canonical URL with the username and the limit', () => {
    expect(channelVideos.canonical(channelVideos.parse({ username: 'alice' }, new URLSearchParams()))).toBe('/v1/channels/alice/videos?limit=20');
  });
});
