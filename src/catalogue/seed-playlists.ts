// The demo catalogue's playlists (docs/catalogue.md, "Seed"): zero to four per channel with at least
// three videos, each a random sample of the channel's videos; the most-subscribed channel always
// has a public, a second public, an unlisted and a private one, its first holding the showcase's
// unlisted video.
import type { PlaylistRecord, Privacy } from './records.ts';
import type { SeedChannel } from './seed-channels.ts';
import { formatSeedInstant, FIRST_VIDEO_AT, SEED_NOW } from './seed-clock.ts';
import { drawTemplateWords, fillSentences, fillTemplate } from './seed-text.ts';
import { DESCRIPTIONS, PLAYLIST_TITLES } from './seed-vocabulary.ts';
import { drawBetween, drawSample, type SeededRandom } from './seeded-random.ts';

/** Videos remembered per channel, to fill its playlists from. */
export const PLAYLIST_POOL_CAP = 400;

/** Playlists per channel (with at least 3 videos), 0-4. */
const PLAYLIST_COUNTS = [0, 0, 0, 1, 1, 1, 2, 2, 3, 4] as const;
/** The privacy of the top channel's playlists, set. */
const SHOWCASE_PRIVACIES: readonly Privacy[] = ['public', 'public', 'unlisted', 'private'];

/** What the playlists of one channel are made from. */
export interface PlaylistContext {
  readonly random: SeededRandom;
  readonly channel: SeedChannel;
  /** Indices of the channel's first videos (up to PLAYLIST_POOL_CAP), in order. */
  readonly pool: readonly number[];
  /** The most-subscribed channel's: its playlists are SHOWCASE_PRIVACIES. */
  readonly showcase: boolean;
  /** The index of the video the showcase's first playlist holds, when the catalogue has it. */
  readonly unlisted: number | undefined;
  /** Returns the next playlist id. */
  readonly nextId: () => string;
  /** The id of the video at an index. */
  readonly videoId: (index: number) => string;
}

function drawPlaylistPrivacy(random: SeededRandom): Privacy {
  const draw = random.next();
  return draw < 0.78 ? 'public' : draw < 0.9 ? 'unlisted' : 'private';
}

/** The playlists of one channel. */
export function* makeChannelPlaylists(context: PlaylistContext): Generator<PlaylistRecord> {
  const { random, channel, pool } = context;
  const forced = context.showcase ? SHOWCASE_PRIVACIES : undefined;
  const count = forced ? forced.length : pool.length < 3 ? 0 : random.pick(PLAYLIST_COUNTS);
  for (let p = 0; p < count; p++) {
    const size = Math.min(pool.length, 60, 2 + Math.floor(-Math.log(1 - random.next()) * 10));
    const chosen = drawSample(random, pool, size);
    const { unlisted } = context;
    if (p === 0 && forced && unlisted !== undefined && !chosen.includes(unlisted)) chosen.splice(random.int(0, chosen.length), 0, unlisted);
    const words = drawTemplateWords(random, channel.category, random.int(2019, 2026), channel.displayName, channel.owner);
    const record: PlaylistRecord = {
      kind: 'playlist', id: context.nextId(), channel: channel.username,
      title: fillTemplate(random, random.pick(PLAYLIST_TITLES), words), privacy: forced?.[p] ?? drawPlaylistPrivacy(random),
      videos: chosen.map((index) => context.videoId(index)),
    };
    if (random.chance(0.6)) record.description = fillSentences(random, DESCRIPTIONS, 2, words);
    const created = drawBetween(random, FIRST_VIDEO_AT, SEED_NOW);
    record.createdAt = formatSeedInstant(created);
    if (random.chance(0.7)) record.updatedAt = formatSeedInstant(drawBetween(random, created, SEED_NOW));
    yield record;
  }
}
