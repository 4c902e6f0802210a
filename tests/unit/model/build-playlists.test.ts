// Playlists as the model builds them (build-playlists.ts, through buildModel): visible entries in
// playlist order, videoCount, the cover picture, date defaults, and broken channel references.
import { describe, expect, it } from 'vitest';
import { EPOCH } from '../../../src/model/resources.ts';
import { BASE_URL, catalogueOf, channel, modelOf, playlist, video } from '../support/fixtures.ts';

const day = (n: number) => `2026-01-${String(n).padStart(2, '0')}T00:00:00Z`;

const model = modelOf(catalogueOf({
  channels: [channel('alice', { displayName: 'Alice A.' }), channel('bob')],
  videos: [
    video('unl', { privacy: 'unlisted', publishedAt: day(3), thumbnailUrl: 'https://cdn.example/unl.jpg' }),
    video('pub-cover', { publishedAt: day(2), thumbnailUrl: 'https://cdn.example/cover.jpg' }),
    video('pub-plain', { publishedAt: day(7) }),
    video('unl-late', { privacy: 'unlisted', publishedAt: day(9) }),
  ],
  playlists: [
    playlist('mixed', ['unl', 'pub-cover', 'pub-plain']),
    playlist('plain-first', ['pub-plain', 'pub-cover']),
    playlist('only-unlisted', ['unl', 'unl-late'], { channel: 'bob' }),
    playlist('empty', []),
    playlist('dated', ['pub-plain'], { createdAt: '2025-06-01T00:00:00Z', updatedAt: '2025-07-01T00:00:00Z' }),
    playlist('hidden', ['pub-plain'], { privacy: 'unlisted' }),
  ],
}));
const resource = (id: string) => model.playlists.get(id)!.resource;

describe('buildPlaylists entries', () => {
  it('keeps public and unlisted playlists by id', () => {
    expect([...model.playlists.keys()].sort()).toEqual(['dated', 'empty', 'hidden', 'mixed', 'only-unlisted', 'plain-first']);
    expect(resource('hidden').privacy).toBe('unlisted');
    expect(resource('mixed').privacy).toBe('public');
  });

  it('lists visible videos, public and unlisted, in playlist order', () => {
    expect(model.playlists.get('mixed')!.videos.map((e) => e.video.id)).toEqual(['unl', 'pub-cover', 'pub-plain']);
    expect(model.playlists.get('plain-first')!.videos.map((e) => e.video.id)).toEqual(['pub-plain', 'pub-cover']);
  });

  it('counts every visible entry in videoCount, unlisted ones included', () => {
    expect(resource('mixed').videoCount).toBe(3);
    expect(resource('only-unlisted').videoCount).toBe(2);
    expect(resource('empty').videoCount).toBe(0);
  });

  it('writes the creator from the playlist\'s channel', () => {
    expect(resource('mixed').creator).toEqual({
      username: 'alice', displayName: 'Alice A.', avatarUrl: `${BASE_URL}/avatars/alice.svg`, channelUrl: `${BASE_URL}/channels/alice`,
    });
    expect(resource('only-unlisted').creator.username).toBe('bob');
  });
});

describe('buildPlaylists thumbnailUrl', () => {
  it('is the first public video\'s picture, skipping unlisted ones before it', () => {
    expect(resource('mixed').thumbnailUrl).toBe('https://cdn.example/cover.jpg');
  });

  it('is the first public video\'s generated picture when the catalogue gives it none', () => {
    expect(resource('plain-first').thumbnailUrl).toBe(`${BASE_URL}/thumbnails/pub-plain.svg`);
  });

  it('is a generated playlist picture under the base URL when no video is public', () => {
    expect(resource('only-unlisted').thumbnailUrl).toBe(`${BASE_URL}/thumbnails/playlists/only-unlisted.svg`);
    expect(resource('empty').thumbnailUrl).toBe(`${BASE_URL}/thumbnails/playlists/empty.svg`);
  });
});

describe('buildPlaylists dates', () => {
  it('default createdAt and updatedAt to the latest publishedAt of its videos', () => {
    expect(resource('mixed')).toMatchObject({ createdAt: day(7), updatedAt: day(7) });
    expect(resource('only-unlisted')).toMatchObject({ createdAt: day(9), updatedAt: day(9) });
  });

  it('default to 1970-01-01T00:00:00Z for a playlist without videos', () => {
    expect(resource('empty')).toMatchObject({ createdAt: EPOCH, updatedAt: EPOCH });
  });

  it('keep the catalogue dates when there are some', () => {
    expect(resource('dated')).toMatchObject({ createdAt: '2025-06-01T00:00:00Z', updatedAt: '2025-07-01T00:00:00Z' });
  });

  it('default each date on its own', () => {
    const m = modelOf(catalogueOf({ videos: [video('v', { publishedAt: day(4) })], playlists: [playlist('p', ['v'], { updatedAt: day(8) })] }));
    expect(m.playlists.get('p')!.resource).toMatchObject({ createdAt: day(4), updatedAt: day(8) });
  });
});

describe('buildPlaylists references', () => {
  it('fails with a message naming the playlist and its missing channel', () => {
    const broken = catalogueOf({ playlists: [playlist('orphan-list', [], { channel: 'ghost-channel' })] });
    expect(() => modelOf(broken)).toThrow(/orphan-list/);
    expect(() => modelOf(broken)).toThrow(/ghost-channel/);
  });
});
