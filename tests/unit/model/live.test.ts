// liveChannels: which live-stream records /v1/live and the discovery shelf show, in which order.
import { describe, expect, it } from 'vitest';
import { liveChannels } from '../../../src/model/live.ts';
import type { PublicLiveStream } from '../../../src/catalogue/public-catalogue.ts';
import { BASE_URL, catalogueOf, channel, liveStream, modelOf } from '../support/fixtures.ts';

const at = (h: number) => `2026-03-01T${String(h).padStart(2, '0')}:00:00Z`;

const model = modelOf(catalogueOf({
  channels: ['Zed', 'amy', 'bob', 'cat', 'dan', 'eve', 'fay', 'gus'].map((u) => channel(u, { displayName: `Show ${u}` })),
}));

// 'Zed' sorts before 'amy' in code units, so ties by username put it first.
const streams: PublicLiveStream[] = [
  liveStream('fay', 'offline'),
  liveStream('dan', 'upcoming', { scheduledFor: at(20) }),
  liveStream('amy', 'live', { startedAt: at(9), viewers: 50 }),
  liveStream('ghost', 'live', { startedAt: at(9), viewers: 1_000_000 }),
  liveStream('eve', 'upcoming', { scheduledFor: at(12) }),
  liveStream('bob', 'live', { startedAt: at(8), viewers: 900 }),
  liveStream('Zed', 'live', { startedAt: at(7), viewers: 50 }),
  liveStream('cat', 'offline'),
  liveStream('gus', 'upcoming', { scheduledFor: at(12) }),
];
const names = (state: 'live' | 'all') => liveChannels(streams, state, model).map((c) => c.channel.username);

describe('liveChannels', () => {
  it('with state live, lists only channels live now, most viewers first, ties by username', () => {
    expect(names('live')).toEqual(['bob', 'Zed', 'amy']);
  });

  it('with state all, lists live, then upcoming soonest first, then offline, ties by username', () => {
    expect(names('all')).toEqual(['bob', 'Zed', 'amy', 'eve', 'gus', 'dan', 'cat', 'fay']);
  });

  it('skips records of channels the model does not know', () => {
    expect(names('all')).not.toContain('ghost');
    expect(names('live')).not.toContain('ghost');
  });

  it('answers an empty list when nothing is live', () => {
    expect(liveChannels([liveStream('amy', 'offline'), liveStream('bob', 'upcoming', { scheduledFor: at(1) })], 'live', model)).toEqual([]);
    expect(liveChannels([], 'all', model)).toEqual([]);
  });

  it('leaves the records it was given in their order', () => {
    const copy = [...streams];
    liveChannels(streams, 'all', model);
    expect(streams).toEqual(copy);
  });

  it('writes a live channel with absolute URLs under the base URL', () => {
    const [bob] = liveChannels(streams, 'live', model);
    expect(bob).toEqual({
      channel: { username: 'bob', displayName: 'Show bob', avatarUrl: `${BASE_URL}/avatars/bob.svg`, channelUrl: `${BASE_URL}/channels/bob` },
      state: 'live',
      title: 'Stream of bob',
      startedAt: at(8),
      viewers: 900,
      watchUrl: `${BASE_URL}/channels/bob/live`,
      embedUrl: `${BASE_URL}/embed/live/bob`,
      thumbnailUrl: `${BASE_URL}/thumbnails/live/bob.svg`,
    });
  });

  it('writes scheduledFor on upcoming records and neither startedAt nor viewers', () => {
    const eve = liveChannels(streams, 'all', model).find((c) => c.channel.username === 'eve')!;
    expect(eve.scheduledFor).toBe(at(12));
    expect('startedAt' in eve).toBe(false);
    expect('viewers' in eve).toBe(false);
    const cat = liveChannels(streams, 'all', model).find((c) => c.channel.username === 'cat')!;
    expect(Object.keys(cat).filter((k) => ['startedAt', 'scheduledFor', 'viewers'].includes(k))).toEqual([]);
  });

  it('uses the channel\'s own avatar when the catalogue gives one', () => {
    const m = modelOf(catalogueOf({ channels: [channel('amy', { avatarUrl: 'https://cdn.example/amy.png' })] }));
    expect(liveChannels([liveStream('amy', 'live', { viewers: 1 })], 'live', m)[0]!.channel.avatarUrl).toBe('https://cdn.example/amy.png');
  });
});
