// The synthetic demo catalogue's records (`npm run seed`, docs/catalogue.md, "Seed"), as a pure,
// lazy generator: the same options give byte-identical records, and memory stays bounded (channels
// plus a capped list of video indices per channel) so it scales to millions of videos. It draws
// every random number from one seeded stream, in the order the records come out; the record makers
// (seed-channels.ts, seed-videos.ts, seed-comments.ts, seed-playlists.ts, seed-live.ts) each take
// their draws from it in turn.
import type { CatalogueRecord, LiveRecord } from './records.ts';
import { makeChannel, type SeedChannel } from './seed-channels.ts';
import { makeComments } from './seed-comments.ts';
import { makeOrderedKey, type KeyLayout } from './seed-keys.ts';
import { drawLiveState, makeLive } from './seed-live.ts';
import { makeChannelPlaylists, PLAYLIST_POOL_CAP } from './seed-playlists.ts';
import { drawVideoPlan, makeVideo, SHOWCASE_PLANS, SHOWCASE_UNLISTED } from './seed-videos.ts';
import { CATEGORIES, GENERAL_TAGS } from './seed-vocabulary.ts';
import { createSeededRandom, cumulateWeights, cumulateZipfWeights, hash32, pickWeighted } from './seeded-random.ts';

export interface SeedOptions {
  readonly videos: number;
  readonly seed: number;
}

export const DEFAULT_SEED_OPTIONS: SeedOptions = { videos: 3000, seed: 42 };

/** The operator status alerts every demo catalogue has: one still open, one resolved. */
const SEED_ALERTS: readonly CatalogueRecord[] = [
  {
    kind: 'alert', id: 'search-latency-2026-10', severity: 'minor', title: 'Search is slower than usual',
    message: 'Some search requests take several seconds to answer. Browsing and playback are not affected; we are working on a fix.',
    startsAt: '2026-10-30T14:05:00Z', components: ['search'],
  },
  {
    kind: 'alert', id: 'media-outage-2026-09', severity: 'major', title: 'Thumbnails and playback unavailable',
    message: 'The media host did not answer for about two hours, so thumbnails and playback failed. Resolved.',
    startsAt: '2026-09-12T08:15:00Z', endsAt: '2026-09-12T10:40:00Z', components: ['media'],
  },
];

/** Every record of the demo catalogue, lazily: categories, channels, videos each followed by its comments, playlists, live, alerts. */
export function* generateSeedRecords(options: SeedOptions): Generator<CatalogueRecord> {
  const random = createSeededRandom(hash32(options.seed ^ 0x5eed5eed));
  /** A salt per kind of id, so video, comment and playlist ids (and each seed's) look unrelated. */
  const saltOf = (kind: number) => hash32(options.seed * 7 + kind);
  const categoryWeights = cumulateWeights(CATEGORIES.map((category) => category.weight));
  const tagWeights = new Map(CATEGORIES.map((category) => [category, cumulateZipfWeights(category.tags.length, 1)] as const));
  const generalTagWeights = cumulateZipfWeights(GENERAL_TAGS.length, 1.1);

  for (const category of CATEGORIES) yield { kind: 'category', id: category.id, name: category.name };

  const channels: SeedChannel[] = [];
  const usernames = new Set<string>();
  const channelCount = Math.max(12, Math.round(options.videos / 40));
  for (let i = 0; i < channelCount; i++) {
    const { channel, record } = makeChannel(random, usernames, categoryWeights);
    channels.push(channel);
    yield record;
  }
  const ranked = channels.map((_, i) => i).sort((a, b) => {
    const x = channels[a] as SeedChannel;
    const y = channels[b] as SeedChannel;
    return y.subscribers - x.subscribers || (x.username < y.username ? -1 : 1);
  });
  const top = ranked[0] ?? 0;
  // Bigger channels publish more: weight grows with subscribers, with some noise.
  const channelWeights = cumulateWeights(channels.map((channel) => 1 + channel.subscribers ** 0.3 * (0.5 + random.next())));

  const pools: number[][] = channels.map(() => []);
  const videoKeys: KeyLayout = { prefix: '', length: 11, capacity: Math.max(1, options.videos), salt: saltOf(1) };
  // Comments average under two a video; past the guess, ids stay ascending and unique.
  const commentKeys: KeyLayout = { prefix: 'Ug', length: 20, capacity: 3 * options.videos + 100, salt: saltOf(2) };
  let comments = 0;
  const nextCommentId = () => makeOrderedKey(comments++, commentKeys);
  for (let i = 0; i < options.videos; i++) {
    const plan = SHOWCASE_PLANS[i] ?? drawVideoPlan(random);
    const channelIndex = plan.topChannel ? top : pickWeighted(channelWeights, random);
    const channel = channels[channelIndex] as SeedChannel;
    const id = makeOrderedKey(i, videoKeys);
    const { record, words, published } = makeVideo({ random, id, channel, plan, categoryWeights, tagWeights, generalTagWeights });
    yield record;
    const pool = pools[channelIndex] as number[];
    if (pool.length < PLAYLIST_POOL_CAP) pool.push(i);
    yield* makeComments({ random, video: record, published, channel, words, rich: plan.richComments, nextId: nextCommentId });
  }

  const playlistKeys: KeyLayout = { prefix: 'PL', length: 16, capacity: 4 * channels.length, salt: saltOf(3) };
  let playlists = 0;
  const nextPlaylistId = () => makeOrderedKey(playlists++, playlistKeys);
  const videoId = (index: number) => makeOrderedKey(index, videoKeys);
  const unlisted = options.videos > SHOWCASE_UNLISTED ? SHOWCASE_UNLISTED : undefined;
  for (const [index, channel] of channels.entries()) {
    yield* makeChannelPlaylists({ random, channel, pool: pools[index] as number[], showcase: index === top, unlisted, nextId: nextPlaylistId, videoId });
  }

  // The three most-subscribed channels show each live state; a few others are live at random.
  const showcaseLive = new Map<number, LiveRecord['state']>([[ranked[0] ?? 0, 'live'], [ranked[1] ?? 1, 'upcoming'], [ranked[2] ?? 2, 'offline']]);
  for (const [index, channel] of channels.entries()) {
    const state = showcaseLive.get(index) ?? drawLiveState(random);
    if (state !== undefined) yield makeLive(random, channel, state);
  }

  yield* SEED_ALERTS;
}
