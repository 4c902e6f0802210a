// The demo catalogue's live records (docs/catalogue.md, "Seed"): a channel streaming now, one with a
// stream scheduled weeks after the reference date, or one offline, with a title and viewers to match.
import type { LiveRecord } from './records.ts';
import type { SeedChannel } from './seed-channels.ts';
import { DAY_MS, formatSeedInstant, MINUTE_MS, SEED_NOW } from './seed-clock.ts';
import { capitalise, drawTemplateWords, fillTemplate } from './seed-text.ts';
import { LIVE_TITLES } from './seed-vocabulary.ts';
import { drawLogNormal, type SeededRandom } from './seeded-random.ts';

type LiveState = LiveRecord['state'];

/** The states a channel drawn live at random takes, equally likely. */
const DRAWN_STATES: readonly LiveState[] = ['live', 'upcoming', 'upcoming', 'offline', 'offline'];

/** Whether a channel past the showcase has a live record (6%), and in which state. */
export const drawLiveState = (random: SeededRandom): LiveState | undefined => (random.chance(0.06) ? random.pick(DRAWN_STATES) : undefined);

export function makeLive(random: SeededRandom, channel: SeedChannel, state: LiveState): LiveRecord {
  const record: LiveRecord = { kind: 'live', channel: channel.username, state };
  const words = drawTemplateWords(random, channel.category, 2026, channel.displayName, channel.owner);
  const title = capitalise(fillTemplate(random, random.pick(LIVE_TITLES), words));
  if (state === 'live') {
    record.title = title;
    record.startedAt = formatSeedInstant(SEED_NOW - random.int(10, 360) * MINUTE_MS);
    record.viewers = drawLogNormal(random, 5 + 0.3 * Math.log(channel.subscribers + 10), 1.2, 5_000_000);
  } else if (state === 'upcoming') {
    record.title = title;
    // Weeks after the reference date, so the demo's scheduled streams stay ahead for a while.
    record.scheduledFor = formatSeedInstant(SEED_NOW + random.int(30, 120) * DAY_MS + random.int(0, 23) * 60 * MINUTE_MS);
  } else if (random.chance(0.5)) {
    record.title = title;
  }
  return record;
}
