import { describe, expect, it } from 'vitest';
import { channelPlaylists } from '../../../../src/api/handlers/channel-playlists.ts';
import type { Playlist } from '../../../../src/model/schemas.ts';
import { catalogueOf, channel, modelOf, playlist, video } from '../../support/fixtures.ts';
import { call, pageOf, problemOf } from '../../support/handlers.ts';

const day = (n: number) => `2026-01-${String(n).padStart(2, '0')}T00:00:00Z`;
const model = modelOf(catalogueOf({
  channels: [channel('alice'), channel('bob')],
  videos: [video('v1', { publishedAt: day(3) })],
  playlists: [
    playlist('p-old', ['v1'], { updatedAt: day(1) }),
    playlist('p-new', [], { updatedAt: day(9) }),
    playlist('p-tie-b', [], { updatedAt: day(5) }),
    playlist('p-tie-a', [], { updatedAt: day(5) }),
    playlist('p-default', ['v1']),
    playlist('p-unlisted', ['v1'], { updatedAt: day(30), privacy: 'unlisted' }),
    playlist('b-unlisted', [], { channel: 'bob', privacy: 'unlisted' }),
  ],
}));
const playlistsOf = (username: string, query = '') => pageOf<Playlist>(call(channelPlaylists, model, query, { username }));

describe('channelPlaylists', () => {
  it('lists the channel\'s public playlists most recently updated first, ties by id', () => {
    const page = playlistsOf('alice');
    // p-default has no updatedAt, so it takes v1's publishedAt (day 3).
    expect(page.data.map((p) => p.id)).toEqual(['p-new', 'p-tie-a', 'p-tie-b', 'p-default', 'p-old']);
    expect(page.paging).toEqual({ limit: 20, offset: 0, total: 5, nextCursor: null });
  });

  it('never lists unlisted playlists', () => {
    expect(playlistsOf('alice').data.map((p) => p.id)).not.toContain('p-unlisted');
    expect(playlistsOf('bob').paging.total).toBe(0);
  });

  it('serves the playlist resources the model built', () => {
    expect(playlistsOf('alice').data[0]).toEqual(model.playlists.get('p-new')!.resource);
  });

  it('pages by limit and offset', () => {
    const page = playlistsOf('alice', 'limit=2&offset=1');
    expect(page.data.map((p) => p.id)).toEqual(['p-tie-a', 'p-tie-b']);
    expect(page.paging.nextCursor).not.toBeNull();
  });

  it('answers 400 when limit is 51', () => {
    expect(problemOf(() => playlistsOf('alice', 'limit=51')).status).toBe(400);
  });

  it('answers 404 for an unknown or badly shaped username', () => {
    expect(problemOf(() => playlistsOf('nobody')).message).toContain('"nobody"');
    expect(problemOf(() => playlistsOf('.x')).status).toBe(404);
  });

  it('has a canonical URL with the username and the limit', () => {
    expect(channelPlaylists.canonical(channelPlaylists.parse({ username: 'bob' }, new URLSearchParams('limit=5'))))
      .toBe('/v1/channels/bob/playlists?limit=5');
  });
});
