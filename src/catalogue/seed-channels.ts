// The demo catalogue's channels (docs/catalogue.md, "Seed"): a name in one of five styles, a unique
// username made from it, heavy-tailed subscribers and a main category the channel's videos mostly share.
import type { ChannelRecord } from './records.ts';
import { DAY_MS, FIRST_CHANNEL_AT, FIRST_VIDEO_AT, formatSeedInstant } from './seed-clock.ts';
import { drawTemplateWords, fillSentences, toSlug } from './seed-text.ts';
import { ADJECTIVES, CATEGORIES, CHANNEL_DESCRIPTIONS, FIRST_NAMES, LAST_NAMES, NOUNS, type SeedCategory } from './seed-vocabulary.ts';
import { drawBetween, drawLogNormal, pickWeighted, type SeededRandom } from './seeded-random.ts';

/** What the other record makers need to know of a channel. */
export interface SeedChannel {
  readonly username: string;
  readonly displayName: string;
  /** The first name of its owner, who signs its descriptions and answers comments. */
  readonly owner: string;
  readonly category: SeedCategory;
  readonly subscribers: number;
}

/**
 * The next channel: `usernames` holds those taken so far (this one's is added), `categoryWeights`
 * are CATEGORIES' cumulative weights.
 */
export function makeChannel(random: SeededRandom, usernames: Set<string>, categoryWeights: Float64Array): { channel: SeedChannel; record: ChannelRecord } {
  const category = CATEGORIES[pickWeighted(categoryWeights, random)] as SeedCategory;
  const owner = random.pick(FIRST_NAMES);
  const style = random.int(0, 4);
  const displayName =
    style === 0 ? `${owner} ${random.pick(category.suffixes)}`
    : style === 1 ? `The ${random.pick(ADJECTIVES)} ${random.pick(NOUNS)}`
    : style === 2 ? `${random.pick(NOUNS)} ${random.pick(category.suffixes)}`
    : style === 3 ? `${random.pick(ADJECTIVES)} ${random.pick(NOUNS)} ${random.pick(category.suffixes)}`
    : `${owner} ${random.pick(LAST_NAMES)}`;
  const base = style === 4 ? `${toSlug(owner)}.${toSlug(displayName.slice(owner.length))}` : toSlug(displayName);
  let username = base;
  while (usernames.has(username)) username = `${base}${random.chance(0.5) ? '_' : ''}${random.int(2, 999)}`;
  usernames.add(username);

  const subscribers = drawLogNormal(random, 8.5, 2.4, 350_000_000);
  const created = drawBetween(random, FIRST_CHANNEL_AT, FIRST_VIDEO_AT - DAY_MS);
  const record: ChannelRecord = { kind: 'channel', username, displayName };
  const words = drawTemplateWords(random, category, new Date(created).getUTCFullYear(), displayName, owner);
  if (random.chance(0.9)) record.description = fillSentences(random, CHANNEL_DESCRIPTIONS, 3, words);
  record.subscribers = subscribers;
  record.createdAt = formatSeedInstant(created);
  // No picture URLs: the service generates every picture, so the demo loads nothing from elsewhere.
  return { channel: { username, displayName, owner, category, subscribers }, record };
}
