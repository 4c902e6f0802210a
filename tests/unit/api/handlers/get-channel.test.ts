import { describe, expect, it } from 'vitest';
import { getChannel } from '../../../../src/api/handlers/get-channel.ts';
import type { Channel } from '../../../../src/model/schemas.ts';
import { BASE_URL, catalogueOf, channel, liveStream, modelOf, playlist, video } from '../../support/fixtures.ts';
import { call, problemOf } from '../../support/handlers.ts';

const model = modelOf(catalogueOf({
  channels: [channel('alice', { displayName: 'Alice', description: 'About Alice', subscribers: 12, bannerUrl: 'https://cdn.example/banner.png' }), channel('bob')],
  videos: [
    video('a1', { views: 10, publishedAt: '2026-02-01T00:00:00Z' }),
    video('a2', { views: 5, publishedAt: '2026-01-15T00:00:00Z' }),
    video('au', { views: 1000, privacy: 'unlisted', publishedAt: '2025-01-01T00:00:00Z' }),
  ],
  playlists: [playlist('p1', ['a1']), playlist('pu', ['a1'], { privacy: 'unlisted' })],
  live: [liveStream('alice', 'live', { startedAt: '2026-02-02T00:00:00Z', viewers: 4 })],
}));
const channelOf = (username: string) => (call(getChannel, model, '', { username }).body as { data: Channel }).data;

describe('getChannel', () => {
  it('wraps the channel with its counts in data, indexable', () => {
    const answer = call(getChannel, model, '', { username: 'alice' });
    expect(answer.body).toEqual({ data: { ...model.channels.get('alice')!.resource, isLive: true } });
    expect(answer.noindex).toBe(false);
    expect(channelOf('alice')).toEqual({
      username: 'alice',
      displayName: 'Alice',
      description: 'About Alice',
      avatarUrl: `${BASE_URL}/avatars/alice.svg`,
      bannerUrl: 'https://cdn.example/banner.png',
      channelUrl: `${BASE_URL}/channels/alice`,
      subscribers: 12,
      views: 15,
      videos: 2,
      playlists: 1,
      createdAt: '2026-01-15T00:00:00Z',
      isLive: true,
    });
  });

  it('serves a channel without videos with zero counts and the epoch as createdAt', () => {
    expect(channelOf('bob')).toMatchObject({ views: 0, videos: 0, playlists: 0, createdAt: '1970-01-01T00:00:00Z', isLive: false });
    expect('bannerUrl' in channelOf('bob')).toBe(false);
  });

  it('takes isLive from the live records of the request, not the snapshot, and is not prerendered', () => {
    const context = { model, snapshot: undefined, liveStreams: () => [] };
    const answer = getChannel.handle(getChannel.parse({ username: 'alice' }, new URLSearchParams()), context);
    expect((answer.body as { data: Channel }).data.isLive).toBe(false);
    const bobLive = { model, snapshot: undefined, liveStreams: () => [liveStream('bob', 'live', { startedAt: '2026-02-02T00:00:00Z', viewers: 1 })] };
    expect((getChannel.handle({ key: 'bob' }, bobLive).body as { data: Channel }).data.isLive).toBe(true);
    expect(getChannel.cache).toBe('live');
  });

  it('answers 404 for an unknown username, naming it', () => {
    const error = problemOf(() => channelOf('nobody'));
    expect(error.status).toBe(404);
    expect(error.slug).toBe('not-found');
    expect(error.message).toBe('No public channel has the username "nobody".');
  });

  it('answers 404 for a badly shaped username like .x or one of 300 characters', () => {
    expect(problemOf(() => channelOf('.x')).message).toContain('".x"');
    const long = 'u'.repeat(300);
    const error = problemOf(() => channelOf(long));
    expect(error.status).toBe(404);
    expect(error.message).toContain(`"${'u'.repeat(200)}"`);
  });

  it('has a canonical URL with the username and no query', () => {
    expect(getChannel.canonical(getChannel.parse({ username: 'alice' }, new URLSearchParams('limit=3')))).toBe('/v1/channels/alice');
  });
});
