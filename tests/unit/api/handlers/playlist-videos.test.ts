import { describe, expect, it } from 'vitest';
import { playlistVideos } from '../../../../src/api/handlers/playlist-videos.ts';
import type { Video } from '../../../../src/model/schemas.ts';
import { catalogueOf, modelOf, playlist, video } from '../../support/fixtures.ts';
import { call, pageOf, problemOf } from '../../support/handlers.ts';

const model = modelOf(catalogueOf({
  videos: [
    video('v-new', { publishedAt: '2026-03-01T00:00:00Z' }),
    video('v-old', { publishedAt: '2026-01-01T00:00:00Z' }),
    video('unl', { privacy: 'unlisted' }),
  ],
  playlists: [
    playlist('pl', ['v-old', 'unl', 'v-new']),
    playlist('pl-unl', ['unl'], { privacy: 'unlisted' }),
    playlist('empty', []),
  ],
}));
const videosOf = (id: string, query = '') => pageOf<Video>(call(playlistVideos, model, query, { id }));

describe('playlistVideos', () => {
  it('lists visible videos in playlist order, unlisted ones included', () => {
    const page = videosOf('pl');
    expect(page.data.map((v) => v.id)).toEqual(['v-old', 'unl', 'v-new']);
    expect(page.data[1]).toEqual(model.videos.get('unl')!.resource);
    expect(page.paging).toEqual({ limit: 20, offset: 0, total: 3, nextCursor: null });
  });

  it('serves the videos of an unlisted playlist', () => {
    expect(videosOf('pl-unl').data.map((v) => v.id)).toEqual(['unl']);
  });

  it('answers an empty page for an empty playlist', () => {
    expect(videosOf('empty').paging).toEqual({ limit: 20, offset: 0, total: 0, nextCursor: null });
  });

  it('pages with cursors in playlist order', () => {
    const first = call(playlistVideos, model, 'limit=2', { id: 'pl' });
    expect(pageOf<Video>(first).data.map((v) => v.id)).toEqual(['v-old', 'unl']);
    expect(first.next).toMatch(/^\/v1\/playlists\/pl\/videos\?cursor=[^&]+&limit=2$/);
    expect(videosOf('pl', new URL(first.next!, 'http://x.invalid').search.slice(1)).data.map((v) => v.id)).toEqual(['v-new']);
  });

  it('answers 400 for cursor and offset together', () => {
    const cursor = videosOf('pl', 'limit=1').paging.nextCursor!;
    expect(problemOf(() => videosOf('pl', `limit=1&offset=0&cursor=${cursor}`)).errors?.map((e) => e.parameter)).toEqual(['cursor']);
  });

  it('answers 404 for an unknown or badly shaped id, naming it', () => {
    expect(problemOf(() => videosOf('ghost')).message).toBe('No public or unlisted playlist has the id "ghost".');
    expect(problemOf(() => videosOf('.x')).status).toBe(404);
  });

  it('has a canonical URL with the id and the limit', () => {
    expect(playlistVideos.canonical(playlistVideos.parse({ id: 'pl' }, new URLSearchParams()))).toBe('/v1/playlists/pl/videos?limit=20');
  });
});
