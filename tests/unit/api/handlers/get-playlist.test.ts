import { describe, expect, it } from 'vitest';
import { getPlaylist } from '../../../../src/api/handlers/get-playlist.ts';
import type { Playlist } from '../../../../src/model/schemas.ts';
import { BASE_URL, catalogueOf, modelOf, playlist, video } from '../../support/fixtures.ts';
import { call, problemOf } from '../../support/handlers.ts';

const model = modelOf(catalogueOf({
  videos: [video('v1', { publishedAt: '2026-01-04T00:00:00Z' }), video('u1', { privacy: 'unlisted', publishedAt: '2026-01-05T00:00:00Z' })],
  playlists: [
    playlist('pl', ['u1', 'v1'], { title: 'Mixed', description: 'Both kinds' }),
    playlist('pl-unl', ['v1'], { privacy: 'unlisted' }),
  ],
}));
const playlistOf = (id: string) => (call(getPlaylist, model, '', { id }).body as { data: Playlist }).data;

describe('getPlaylist', () => {
  it('wraps a public playlist in data, indexable', () => {
    const answer = call(getPlaylist, model, '', { id: 'pl' });
    expect(answer.body).toEqual({ data: model.playlists.get('pl')!.resource });
    expect(answer.noindex).toBe(false);
    expect(playlistOf('pl')).toMatchObject({
      id: 'pl', title: 'Mixed', description: 'Both kinds', privacy: 'public', videoCount: 2,
      thumbnailUrl: `${BASE_URL}/thumbnails/v1.svg`, createdAt: '2026-01-05T00:00:00Z', updatedAt: '2026-01-05T00:00:00Z',
    });
  });

  it('serves an unlisted playlist by id, marked noindex', () => {
    const answer = call(getPlaylist, model, '', { id: 'pl-unl' });
    expect((answer.body as { data: Playlist }).data.privacy).toBe('unlisted');
    expect(answer.noindex).toBe(true);
  });

  it('answers 404 for an unknown id, naming it', () => {
    const error = problemOf(() => playlistOf('no-such-list'));
    expect(error.status).toBe(404);
    expect(error.message).toBe('No public or unlisted playlist has the id "no-such-list".');
  });

  it('answers 404 for a badly shaped id', () => {
    for (const id of ['.x', 'a b', 'p'.repeat(300)]) expect(problemOf(() => playlistOf(id)).status).toBe(404);
  });

  it('has a canonical URL with the id and no query', () => {
    expect(getPlaylist.canonical(getPlaylist.parse({ id: 'pl-unl' }, new URLSearchParams('a=b')))).toBe('/v1/playlists/pl-unl');
  });
});
