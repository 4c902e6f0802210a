// The demo catalogue's videos (docs/catalogue.md, "Seed"): a plan (privacy, duration class,
// features, media), set for the first few videos and drawn for the rest, then the record: title and
// description from templates, Zipf-distributed tags, views that grow with the channel, sample media,
// caption tracks and chapters.
import type { FeatureFlags, Privacy, VideoRecord } from './records.ts';
import type { SeedChannel } from './seed-channels.ts';
import { DAY_MS, FIRST_VIDEO_AT, formatSeedInstant, SEED_NOW } from './seed-clock.ts';
import { drawTemplateWords, fillSentences, fillTemplate, toTitleCase, type TemplateWords } from './seed-text.ts';
import { CAPTION_LANGUAGES, CATEGORIES, DESCRIPTIONS, GENERAL_TAGS, OTHER_LANGUAGES, TITLES, type SeedCategory } from './seed-vocabulary.ts';
import { drawBetween, drawLogNormal, pickWeighted, type SeededRandom } from './seeded-random.ts';

type DurationClass = 'short' | 'medium' | 'long' | 'none';

export interface VideoPlan {
  readonly privacy: Privacy;
  readonly duration: DurationClass;
  readonly features: Partial<FeatureFlags>;
  readonly sources: boolean;
  /** A long, threaded comment section with held and spam comments among published ones. */
  readonly richComments: boolean;
  /** Published by the most-subscribed channel. */
  readonly topChannel: boolean;
}

/**
 * The first videos are set, not drawn, so every demo catalogue shows each duration class and
 * feature, playable media, busy comment threads, and an unlisted video in a public playlist of
 * the most-subscribed channel, whatever the seed (from 7 videos up).
 */
export const SHOWCASE_PLANS: readonly VideoPlan[] = [
  { privacy: 'public', duration: 'short', features: { captions: true }, sources: true, richComments: true, topChannel: false },
  { privacy: 'public', duration: 'medium', features: { '3d': true }, sources: true, richComments: true, topChannel: false },
  { privacy: 'public', duration: 'long', features: { calm: true, captions: true }, sources: false, richComments: true, topChannel: false },
  { privacy: 'public', duration: 'medium', features: { restricted: true }, sources: true, richComments: true, topChannel: false },
  { privacy: 'public', duration: 'long', features: {}, sources: true, richComments: true, topChannel: true },
  { privacy: 'unlisted', duration: 'medium', features: { captions: true }, sources: true, richComments: false, topChannel: true },
  { privacy: 'private', duration: 'short', features: {}, sources: false, richComments: false, topChannel: true },
];
/** The index of the showcase's unlisted video, which the top channel's first playlist holds. */
export const SHOWCASE_UNLISTED = 5;

/** The plan of a video past the showcase: about 90/6/4 public/unlisted/private, media for half. */
export function drawVideoPlan(random: SeededRandom): VideoPlan {
  const privacyDraw = random.next();
  const privacy: Privacy = privacyDraw < 0.9 ? 'public' : privacyDraw < 0.96 ? 'unlisted' : 'private';
  const durationDraw = random.next();
  const duration: DurationClass = durationDraw < 0.35 ? 'short' : durationDraw < 0.8 ? 'medium' : durationDraw < 0.97 ? 'long' : 'none';
  const features: Partial<FeatureFlags> = {};
  if (random.chance(0.02)) features['3d'] = true;
  if (random.chance(0.06)) features.calm = true;
  if (random.chance(0.04)) features.restricted = true;
  if (random.chance(0.35)) features.captions = true;
  return { privacy, duration, features, sources: random.chance(0.5), richComments: false, topChannel: false };
}

function drawSeconds(random: SeededRandom, duration: DurationClass): number | undefined {
  if (duration === 'short') return random.chance(0.6) ? random.int(8, 60) : random.int(61, 239);
  if (duration === 'medium') return random.int(240, 1200);
  if (duration === 'long') return Math.min(6 * 3600, 1201 + Math.floor(-Math.log(1 - random.next()) * 1800));
  return undefined;
}

/**
 * Playable videos play the sample media shipped in public/media (served at /media/...): both
 * renditions mostly, one of them sometimes. Their caption tracks have WebVTT files there too.
 */
const SAMPLE_RENDITIONS = [[480, 240], [480, 240], [480, 240], [480, 240], [480], [240]] as const;
const sampleSource = (height: number) => ({ url: `/media/sample-${height}.webm`, type: 'video/webm', height });
const sampleCaptions = (lang: string) => `/media/captions/sample.${lang}.vtt`;

/** What makeVideo draws from besides the random stream: the generator's weights, set once. */
export interface VideoContext {
  readonly random: SeededRandom;
  readonly id: string;
  readonly channel: SeedChannel;
  readonly plan: VideoPlan;
  readonly categoryWeights: Float64Array;
  readonly tagWeights: ReadonlyMap<SeedCategory, Float64Array>;
  readonly generalTagWeights: Float64Array;
}

/** A video record, with the words and publication time its comments are written from. */
export function makeVideo(context: VideoContext): { record: VideoRecord; words: TemplateWords; published: number } {
  const { random, id, channel, plan } = context;
  const category = random.chance(0.8) ? channel.category : CATEGORIES[pickWeighted(context.categoryWeights, random)] as SeedCategory;
  const published = FIRST_VIDEO_AT + Math.floor((SEED_NOW - FIRST_VIDEO_AT) * random.next() ** 0.75);
  const words = drawTemplateWords(random, category, new Date(published).getUTCFullYear(), channel.displayName, channel.owner);
  const seconds = drawSeconds(random, plan.duration);

  const titleWords = { ...words, topic: toTitleCase(words.topic), other: toTitleCase(words.other) };
  let title = fillTemplate(random, random.chance(0.4) ? random.pick(category.titles) : random.pick(TITLES), titleWords);
  if (seconds !== undefined && seconds <= 60 && random.chance(0.3)) title += ' #shorts';
  const record: VideoRecord = { kind: 'video', id, channel: channel.username, title, publishedAt: formatSeedInstant(published), privacy: plan.privacy };
  if (random.chance(0.93)) record.description = fillSentences(random, DESCRIPTIONS, 3, words);
  if (random.chance(0.97)) record.category = category.id;

  const tagCount = random.chance(0.1) ? 0 : random.int(1, 8);
  const tags: string[] = [];
  for (let attempt = 0; tags.length < tagCount && attempt < tagCount * 3; attempt++) {
    const tag = random.chance(0.55)
      ? category.tags[pickWeighted(context.tagWeights.get(category) as Float64Array, random)]
      : GENERAL_TAGS[pickWeighted(context.generalTagWeights, random)];
    if (tag !== undefined && !tags.includes(tag)) tags.push(tag);
  }
  if (tags.length > 0) record.tags = tags;
  if (seconds !== undefined) record.duration = seconds;

  const age = Math.min(1, 0.1 + (SEED_NOW - published) / (60 * DAY_MS));
  const reach = plan.privacy === 'public' ? 1 : plan.privacy === 'unlisted' ? 0.05 : 0.001;
  const views = Math.floor(drawLogNormal(random, 4 + 0.45 * Math.log(channel.subscribers + 10), 1.6, 4_000_000_000) * age * reach);
  record.views = views;
  if (random.chance(0.97)) record.likes = Math.floor(views * (0.005 + random.next() * 0.06));
  if (random.chance(0.12)) record.updatedAt = formatSeedInstant(drawBetween(random, published, SEED_NOW));
  const planned = plan.features;
  record.features = { '3d': planned['3d'] === true, calm: planned.calm === true, restricted: planned.restricted === true, captions: planned.captions === true };
  if (plan.sources) {
    record.sources = random.pick(SAMPLE_RENDITIONS).map(sampleSource);
  }
  const languageDraw = random.next();
  const language = languageDraw < 0.78 ? 'en' : languageDraw < 0.86 ? random.pick(OTHER_LANGUAGES) : undefined;
  if (plan.features.captions) {
    const tracks = [{ lang: 'en', label: random.chance(0.3) ? 'English (auto-generated)' : 'English' }];
    for (let extra = random.int(0, 3); extra > 0; extra--) {
      const track = random.pick(CAPTION_LANGUAGES);
      if (!tracks.some((t) => t.lang === track.lang)) tracks.push({ lang: track.lang, label: track.label });
    }
    record.captions = plan.sources ? tracks.map((t) => ({ ...t, url: sampleCaptions(t.lang) })) : tracks;
  }
  if (language !== undefined) record.language = language;
  const chapters = planChapters(id, seconds, plan.sources, toTitleCase(words.topic));
  if (chapters) record.chapters = chapters;
  return { record, words, published };
}

/** The sample media playable videos play is 8 seconds long: their chapters fit inside it. */
const SAMPLE_CHAPTER_STARTS = [0, 3, 5];
const CHAPTER_FRACTIONS = [0, 0.2, 0.55, 0.85];

/**
 * Chapters for one video in three with a duration (chosen from its id, so the random stream, and
 * with it the rest of the catalogue, is the same as without chapters): at fixed fractions of the
 * duration, or, for a playable video, inside the sample media it plays.
 */
function planChapters(id: string, seconds: number | undefined, playable: boolean, topic: string): VideoRecord['chapters'] {
  if (seconds === undefined || seconds < 60 && !playable) return undefined;
  let hash = 0;
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  if (hash % 3 !== 0) return undefined;
  const titles = ['Introduction', topic, 'In practice', 'Questions'];
  const starts = playable ? SAMPLE_CHAPTER_STARTS : CHAPTER_FRACTIONS.map((fraction) => Math.floor(fraction * seconds));
  return starts.map((start, i) => ({ start, title: titles[i]! }));
}
