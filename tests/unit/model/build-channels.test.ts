// Channels as the model builds them (build-channels.ts, through buildModel): counts of public
// videos, views and playlists, the createdAt default, isLive, and the orders of the lists.
import { channelAsOf, liveNow } from '../../../src/model/live.ts';
import { describe, expect, it } from 'vitest';
import { openCatalogue, type Catalogue } from '../../../src/catalogue/open-catalogue.ts';
import { readCatalogue } from '../../../src/catalogue/read-catalogue.ts';
import { CHANNEL_SORTS } from '../../../src/model/build-channels.ts';
import { EPOCH } from '../../../src/model/resources.ts';
import {
  BASE_URL, byCodeUnits, catalogueOf, channel, liveStream, modelOf, playlist, rawChannel, rawPlaylist, rawVideo, video, writeRecords,
} from '../support/fixtures.ts';

const day = (n: number) => `2026-01-${String(n).padStart(2, '0')}T00:00:00Z`;

// 'Zoe' sorts before 'alice' in code units ('Z' is 90, 'a' is 97), though not in locale order.
const catalogue = catalogueOf({
  channels: [
    channel('alice', { subscribers: 10 }),
    channel('Zoe', { subscribers: 10 }),
    channel('carol', { subscribers: 5, createdAt: '2020-05-05T00:00:00Z' }),
    channel('dave', { subscribers: 99 }),
  ],
  videos: [
    video('a-mid', { channel: 'alice', views: 100, publishedAt: day(5) }),
    video('a-old', { channel: 'alice', views: 50, publishedAt: day(2) }),
    video('a-new-b', { channel: 'alice', views: 7, publishedAt: day(9) }),
    video('a-new-a', { channel: 'alice', views: 3, publishedAt: day(9) }),
    video('a-unlisted', { channel: 'alice', views: 1_000_000, publishedAt: day(1), privacy: 'unlisted' }),
    video('z1', { channel: 'Zoe', views: 400, publishedAt: day(3) }),
    video('c1', { channel: 'carol', views: 5, publishedAt: day(4) }),
  ],
  playlists: [
    playlist('p-old', ['a-mid'], { channel: 'alice', updatedAt: day(1) }),
    playlist('p-tie-b', ['a-mid'], { channel: 'alice', updatedAt: day(6) }),
    playlist('p-tie-a', ['a-old'], { channel: 'alice', updatedAt: day(6) }),
    playlist('p-new', ['a-old'], { channel: 'alice', updatedAt: day(8) }),
    playlist('p-unlisted', ['a-mid'], { channel: 'alice', updatedAt: day(20), privacy: 'unlisted' }),
    playlist('z-unlisted', ['z1'], { channel: 'Zoe', privacy: 'unlisted' }),
  ],
  live: [
    liveStream('alice', 'live', { startedAt: day(9), viewers: 3 }),
    liveStream('Zoe', 'upcoming', { scheduledFor: day(30) }),
    liveStream('carol', 'offline'),
    liveStream('ghost', 'live', { startedAt: day(9), viewers: 1 }),
  ],
});
const model = modelOf(catalogue);
const resource = (username: string) => model.channels.get(username)!.resource;

describe('buildChannels counts', () => {
  it('counts only public videos, leaving unlisted ones out', () => {
    expect(resource('alice').videos).toBe(4);
    expect(resource('Zoe').videos).toBe(1);
    expect(resource('dave').videos).toBe(0);
  });

  it('sums the views of public videos only', () => {
    expect(resource('alice').views).toBe(100 + 50 + 7 + 3);
    expect(resource('Zoe').views).toBe(400);
    expect(resource('dave').views).toBe(0);
  });

  it('counts only public playlists', () => {
    expect(resource('alice').playlists).toBe(4);
    expect(resource('Zoe').playlists).toBe(0);
  });

  it('never counts private videos or playlists read from the catalogue', () => {
    const db: Catalogue = openCatalogue(':memory:');
    try {
      writeRecords(db, [
        rawChannel('alice'),
        rawVideo('pub', { views: 10 }),
        rawVideo('unl', { views: 20, privacy: 'unlisted' }),
        rawVideo('priv', { views: 40, privacy: 'private', publishedAt: '2020-01-01T00:00:00Z' }),
        rawPlaylist('pl-pub', ['pub']),
        rawPlaylist('pl-unl', ['pub'], { privacy: 'unlisted' }),
        rawPlaylist('pl-priv', ['pub'], { privacy: 'private' }),
      ]);
      const alice = modelOf(readCatalogue(db)).channels.get('alice')!;
      expect(alice.resource).toMatchObject({ videos: 1, views: 10, playlists: 1, createdAt: '2026-01-01T00:00:00Z' });
      expect(alice.videos.map((e) => e.video.id)).toEqual(['pub']);
      expect(alice.playlists.map((e) => e.playlist.id)).toEqual(['pl-pub']);
    } finally {
      db.close();
    }
  });
});

describe('buildChannels createdAt', () => {
  it('defaults to the earliest publishedAt of its public videos', () => {
    // a-unlisted (day 1) is earlier but unlisted, so a-old (day 2) decides.
    expect(resource('alice').createdAt).toBe(day(2));
    expect(resource('Zoe').createdAt).toBe(day(3));
  });

  it('keeps the catalogue createdAt when there is one, whatever its videos', () => {
    expect(resource('carol').createdAt).toBe('2020-05-05T00:00:00Z');
  });

  it('is 1970-01-01T00:00:00Z for a channel without public videos', () => {
    expect(resource('dave').createdAt).toBe(EPOCH);
    expect(EPOCH).toBe('1970-01-01T00:00:00Z');
    const onlyUnlisted = modelOf(catalogueOf({ videos: [video('u', { privacy: 'unlisted' })] }));
    expect(onlyUnlisted.channels.get('alice')!.resource.createdAt).toBe(EPOCH);
  });
});

describe('buildChannels live state', () => {
  it('leaves isLive out of the profile built with the snapshot: it is added at request time', () => {
    expect(resource('alice')).not.toHaveProperty('isLive');
  });

  it('gives isLive true, through channelAsOf, only to a channel whose live record has state live', () => {
    const live = liveNow(model.live);
    const isLive = (u: string) => channelAsOf(model.channels.get(u)!, live).isLive;
    expect([isLive('alice'), isLive('Zoe'), isLive('carol'), isLive('dave')]).toEqual([true, false, false, false]);
    expect(channelAsOf(model.channels.get('alice')!, liveNow([]))).toEqual({ ...resource('alice'), isLive: false });
  });

  it('ignores live records of channels that do not exist', () => {
    expect(model.channels.has('ghost')).toBe(false);
    expect(model.channels.size).toBe(4);
  });
});

describe('buildChannels lists', () => {
  it('lists a channel\'s public videos newest first, ties by id', () => {
    expect(model.channels.get('alice')!.videos.map((e) => e.video.id)).toEqual(['a-new-a', 'a-new-b', 'a-mid', 'a-old']);
  });

  it('lists a channel\'s public playlists most recently updated first, ties by id', () => {
    expect(model.channels.get('alice')!.playlists.map((e) => e.playlist.id)).toEqual(['p-new', 'p-tie-a', 'p-tie-b', 'p-old']);
  });

  it('gives the same lists whatever order the catalogue lists records in', () => {
    const reversed = modelOf({ ...catalogue, videos: [...catalogue.videos].reverse(), playlists: [...catalogue.playlists].reverse() });
    const alice = reversed.channels.get('alice')!;
    expect(alice.videos.map((e) => e.video.id)).toEqual(model.channels.get('alice')!.videos.map((e) => e.video.id));
    expect(alice.playlists.map((e) => e.playlist.id)).toEqual(model.channels.get('alice')!.playlists.map((e) => e.playlist.id));
  });

  it('writes the channel resource with its URLs under the base URL', () => {
    expect(resource('alice')).toMatchObject({
      username: 'alice',
      displayName: 'Channel alice',
      description: '',
      avatarUrl: `${BASE_URL}/avatars/alice.svg`,
      channelUrl: `${BASE_URL}/channels/alice`,
      subscribers: 10,
    });
    expect('bannerUrl' in resource('alice')).toBe(false);
  });
});

describe('buildChannels orders', () => {
  const usernames = (sort: (typeof CHANNEL_SORTS)[number]) => model.channelOrders[sort].map((e) => e.channel.username);

  it('orders by subscribers, highest first, ties by username in code-unit order', () => {
    expect(usernames('subscribers')).toEqual(['dave', 'Zoe', 'alice', 'carol']);
  });

  it('orders by views, highest first', () => {
    expect(usernames('views')).toEqual(['Zoe', 'alice', 'carol', 'dave']);
  });

  it('orders by public video count, highest first, ties by username', () => {
    expect(usernames('videos')).toEqual(['alice', 'Zoe', 'carol', 'dave']);
  });

  it('holds every channel in each order', () => {
    for (const sort of CHANNEL_SORTS) expect([...usernames(sort)].sort(byCodeUnits)).toEqual(['Zoe', 'alice', 'carol', 'dave']);
  });

  it('breaks ties by username whatever order the catalogue lists channels in', () => {
    const flat = modelOf(catalogueOf({ channels: ['b', 'C', 'a', '_x'].map((u) => channel(u)) }));
    for (const sort of CHANNEL_SORTS) expect(flat.channelOrders[sort].map((e) => e.channel.username)).toEqual(['C', '_x', 'a', 'b']);
  });
});
