// The synthetic demo catalogue (`npm run seed`, docs/catalogue.md). `generateSeedRecords` is a pure,
// lazy generator: the same options give byte-identical records, and memory stays bounded (channels
// plus a capped list of video indices per channel) so it scales to millions of videos.
// `seedCatalogue` writes them into `<path>.tmp` in one transaction and renames it over `path`.
import { renameSync, rmSync } from 'node:fs';
import { formatInstant } from '../lib/time.ts';
import { openCatalogue, type Catalogue } from './open-catalogue.ts';
import {
  CatalogueRecord, type ChannelRecord, type CommentRecord, type CommentState, type FeatureFlags,
  type LiveRecord, type PlaylistRecord, type Privacy, type VideoRecord,
} from './records.ts';
import { markRevision } from './revision.ts';
import { SCHEMA_SQL } from './schema.ts';
import * as W from './seed-vocabulary.ts';
import { createRecordWriter } from './write-records.ts';

export interface SeedOptions {
  readonly videos: number;
  readonly seed: number;
}

export const DEFAULT_SEED_OPTIONS: SeedOptions = { videos: 3000, seed: 42 };

/** The demo catalogue's "now": dates fall before it, scheduled streams after it. */
export const SEED_REFERENCE = '2026-11-01T00:00:00Z';

const NOW = Date.parse(SEED_REFERENCE);
const FIRST_VIDEO = Date.parse('2019-01-01T00:00:00Z');
const FIRST_CHANNEL = Date.parse('2008-01-01T00:00:00Z');
const MINUTE = 60_000;
const DAY = 86_400_000;
/** Videos remembered per channel, to fill its playlists from. */
const POOL_CAP = 400;

// ---- Seeded randomness -------------------------------------------------------------------------

interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(list: readonly T[]): T;
  /** A standard normal deviate. */
  normal(): number;
}

/** mulberry32: a small, fast 32-bit generator, plenty for demo data. */
function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T,
    normal: () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next()),
  };
}

/** MurmurHash3's finaliser: a bijection on 32-bit integers. */
function fmix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Base64url's 64 characters in ASCII order, so keys compare (bytewise) like the numbers they spell. */
const DIGITS = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz';
/** The same without '-', for the head's first character (a key may not start with '-'). */
const LEADING = DIGITS.slice(1);

interface KeyLayout {
  readonly prefix: string;
  /** Characters after the prefix; the first 5 are the ordered head, the rest random. */
  readonly length: number;
  /** How many keys the head spreads evenly; later ones follow densely (so a guess may be low). */
  readonly capacity: number;
  readonly salt: number;
}

const HEAD_RANGE = 63 * 64 ** 4;

/**
 * The `index`-th key of a layout: YouTube-like and random-looking, yet strictly ascending in
 * `index`. Key i's 5-character head is drawn within its own stratum of 7/8 of the head range (the
 * last 1/8 takes indices past `capacity`); the tail is hashed from the index. Writing keys in
 * ascending order keeps every B-tree keyed by them append-only, so a million-video seed does not
 * slow down as the file outgrows the page cache.
 */
function orderedKey(index: number, layout: KeyLayout): string {
  const spread = Math.floor((HEAD_RANGE * 7) / 8);
  const step = spread / layout.capacity;
  let hash = fmix32(index + layout.salt);
  let head: number;
  if (index < layout.capacity) {
    const lower = Math.floor(index * step);
    head = lower + Math.floor((hash / 4294967296) * (Math.floor((index + 1) * step) - lower));
  } else {
    head = spread + (index - layout.capacity);
    if (head >= HEAD_RANGE) throw new Error(`seed: more than ${layout.capacity} keys with prefix "${layout.prefix}"`);
  }
  let key = layout.prefix + LEADING.charAt(Math.floor(head / 64 ** 4));
  for (let power = 64 ** 3; power >= 1; power /= 64) key += DIGITS.charAt(Math.floor(head / power) % 64);
  while (key.length < layout.prefix.length + layout.length) {
    hash = fmix32(hash + 1);
    for (let i = 0, bits = hash; i < 5 && key.length < layout.prefix.length + layout.length; i++, bits >>>= 6) key += DIGITS.charAt(bits & 63);
  }
  return key;
}

/** Cumulative weights, for picking by binary search. */
function cumulative(weights: readonly number[]): Float64Array {
  const sums = new Float64Array(weights.length);
  let total = 0;
  weights.forEach((w, i) => { total += w; sums[i] = total; });
  return sums;
}

function pickWeighted(sums: Float64Array, r: Random): number {
  const target = r.next() * (sums[sums.length - 1] ?? 0);
  let lo = 0;
  let hi = sums.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sums[mid] ?? 0) > target) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Zipf weights 1/rank^s: the first entries of a list are picked most often. */
const zipf = (n: number, s: number): Float64Array => cumulative(Array.from({ length: n }, (_, i) => 1 / (i + 1) ** s));

/** A heavy-tailed count: e^(mu + sigma·z), capped. */
const logNormal = (r: Random, mu: number, sigma: number, cap: number): number =>
  Math.min(cap, Math.floor(Math.exp(mu + sigma * r.normal())));

// ---- Text --------------------------------------------------------------------------------------

interface Words {
  readonly topic: string;
  readonly other: string;
  readonly year: number;
  readonly channel: string;
  readonly category: string;
  readonly name: string;
}

const capitalise = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** Caches a function of a vocabulary word (a bounded set of inputs). */
function memo(f: (text: string) => string): (text: string) => string {
  const cache = new Map<string, string>();
  return (text) => {
    let value = cache.get(text);
    if (value === undefined) cache.set(text, (value = f(text)));
    return value;
  };
}

const MINOR_WORDS = new Set(['a', 'an', 'and', 'at', 'for', 'in', 'of', 'on', 'the', 'to', 'vs', 'with']);

/** Title case for a topic inside a title: "the human brain" → "the Human Brain". */
const titleCase = memo((text) => text.split(' ').map((word) => (MINOR_WORDS.has(word) ? word : capitalise(word))).join(' '));

/** Templates split into literal text (even indices) and placeholder names (odd indices). */
const templateParts = new Map<string, readonly string[]>();

/** Fills a vocabulary template (placeholders are listed in seed-vocabulary.ts). */
function fill(r: Random, template: string, w: Words): string {
  let parts = templateParts.get(template);
  if (parts === undefined) templateParts.set(template, (parts = template.split(/\{(\w+)\}/)));
  let out = parts[0] ?? '';
  for (let i = 1; i < parts.length; i += 2) {
    out += placeholder(r, parts[i] ?? '', w) + (parts[i + 1] ?? '');
  }
  return out;
}

function placeholder(r: Random, key: string, w: Words): string {
  switch (key) {
    case 'topic': return w.topic;
    case 'Topic': return capitalise(w.topic);
    case 'other': return w.other;
    case 'year': return String(w.year);
    case 'channel': return w.channel;
    case 'category': return w.category.toLowerCase();
    case 'name': return w.name;
    case 'n': return String(r.int(2, 30));
    case 'time': return `${r.int(0, 24)}:${String(r.int(0, 59)).padStart(2, '0')}`;
    case 'weekday': return r.pick(W.WEEKDAYS);
    default: throw new Error(`seed vocabulary: unknown placeholder {${key}}`);
  }
}

/** One to `max` distinct sentences from a list, filled. */
function sentences(r: Random, list: readonly string[], max: number, w: Words): string {
  const count = r.int(1, max);
  const start = r.int(0, list.length - 1);
  const step = r.int(1, list.length - 1);
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(fill(r, list[(start + i * step) % list.length] ?? '', w));
  return [...new Set(out)].join(' ');
}

/** Lower-case ASCII letters and digits of a name: "Zoë Plays" → "zoeplays". */
const slug = (text: string): string => text.normalize('NFD').replace(/[^A-Za-z0-9]/g, '').toLowerCase();
const nameSlug = memo(slug);

function wordsFor(r: Random, category: W.SeedCategory, year: number, channel: string, name: string): Words {
  const topic = r.pick(category.topics);
  let other = r.pick(category.topics);
  if (other === topic) other = category.topics[(category.topics.indexOf(topic) + 1) % category.topics.length] ?? other;
  return { topic, other, year, channel, category: category.name, name };
}

const between = (r: Random, from: number, to: number): number => from + Math.floor(r.next() * (to - from));

const dayPrefixes = new Map<number, string>();
const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** formatInstant, faster: the date part comes from it once per day, the time is arithmetic. */
function instant(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const day = Math.floor(seconds / 86_400);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) dayPrefixes.set(day, (prefix = formatInstant(day * DAY).slice(0, 11)));
  const rest = seconds - day * 86_400;
  return `${prefix}${pad2(Math.floor(rest / 3600))}:${pad2(Math.floor(rest / 60) % 60)}:${pad2(rest % 60)}Z`;
}

// ---- Channels ----------------------------------------------------------------------------------

interface SeedChannel {
  readonly username: string;
  readonly displayName: string;
  readonly owner: string;
  readonly category: W.SeedCategory;
  readonly subscribers: number;
}

function makeChannel(r: Random, used: Set<string>, categoryWeights: Float64Array): { channel: SeedChannel; record: ChannelRecord } {
  const category = W.CATEGORIES[pickWeighted(categoryWeights, r)] as W.SeedCategory;
  const owner = r.pick(W.FIRST_NAMES);
  const style = r.int(0, 4);
  const displayName =
    style === 0 ? `${owner} ${r.pick(category.suffixes)}`
    : style === 1 ? `The ${r.pick(W.ADJECTIVES)} ${r.pick(W.NOUNS)}`
    : style === 2 ? `${r.pick(W.NOUNS)} ${r.pick(category.suffixes)}`
    : style === 3 ? `${r.pick(W.ADJECTIVES)} ${r.pick(W.NOUNS)} ${r.pick(category.suffixes)}`
    : `${owner} ${r.pick(W.LAST_NAMES)}`;
  const base = style === 4 ? `${slug(owner)}.${slug(displayName.slice(owner.length))}` : slug(displayName);
  let username = base;
  while (used.has(username)) username = `${base}${r.chance(0.5) ? '_' : ''}${r.int(2, 999)}`;
  used.add(username);

  const subscribers = logNormal(r, 8.5, 2.4, 350_000_000);
  const created = between(r, FIRST_CHANNEL, FIRST_VIDEO - DAY);
  const record: ChannelRecord = { kind: 'channel', username, displayName };
  const words = wordsFor(r, category, new Date(created).getUTCFullYear(), displayName, owner);
  if (r.chance(0.9)) record.description = sentences(r, W.CHANNEL_DESCRIPTIONS, 3, words);
  record.subscribers = subscribers;
  record.createdAt = instant(created);
  // No picture URLs: the service generates every picture, so the demo loads nothing from elsewhere.
  return { channel: { username, displayName, owner, category, subscribers }, record };
}

// ---- Videos ------------------------------------------------------------------------------------

type DurationClass = 'short' | 'medium' | 'long' | 'none';

interface VideoPlan {
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
const SHOWCASE: readonly VideoPlan[] = [
  { privacy: 'public', duration: 'short', features: { captions: true }, sources: true, richComments: true, topChannel: false },
  { privacy: 'public', duration: 'medium', features: { '3d': true }, sources: true, richComments: true, topChannel: false },
  { privacy: 'public', duration: 'long', features: { calm: true, captions: true }, sources: false, richComments: true, topChannel: false },
  { privacy: 'public', duration: 'medium', features: { restricted: true }, sources: true, richComments: true, topChannel: false },
  { privacy: 'public', duration: 'long', features: {}, sources: true, richComments: true, topChannel: true },
  { privacy: 'unlisted', duration: 'medium', features: { captions: true }, sources: true, richComments: false, topChannel: true },
  { privacy: 'private', duration: 'short', features: {}, sources: false, richComments: false, topChannel: true },
];
const SHOWCASE_UNLISTED = 5;

function drawPlan(r: Random): VideoPlan {
  const p = r.next();
  const privacy: Privacy = p < 0.9 ? 'public' : p < 0.96 ? 'unlisted' : 'private';
  const d = r.next();
  const duration: DurationClass = d < 0.35 ? 'short' : d < 0.8 ? 'medium' : d < 0.97 ? 'long' : 'none';
  const features: Partial<FeatureFlags> = {};
  if (r.chance(0.02)) features['3d'] = true;
  if (r.chance(0.06)) features.calm = true;
  if (r.chance(0.04)) features.restricted = true;
  if (r.chance(0.35)) features.captions = true;
  return { privacy, duration, features, sources: r.chance(0.5), richComments: false, topChannel: false };
}

function drawSeconds(r: Random, duration: DurationClass): number | undefined {
  if (duration === 'short') return r.chance(0.6) ? r.int(8, 60) : r.int(61, 239);
  if (duration === 'medium') return r.int(240, 1200);
  if (duration === 'long') return Math.min(6 * 3600, 1201 + Math.floor(-Math.log(1 - r.next()) * 1800));
  return undefined;
}

/**
 * Playable videos play the sample media shipped in public/media (served at /media/...): both
 * renditions mostly, one of them sometimes. Their caption tracks have WebVTT files there too.
 */
const SAMPLE_RENDITIONS = [[480, 240], [480, 240], [480, 240], [480, 240], [480], [240]] as const;
const sampleSource = (height: number) => ({ url: `/media/sample-${height}.webm`, type: 'video/webm', height });
const sampleCaptions = (lang: string) => `/media/captions/sample.${lang}.vtt`;

interface VideoContext {
  readonly r: Random;
  readonly id: string;
  readonly channel: SeedChannel;
  readonly plan: VideoPlan;
  readonly categoryWeights: Float64Array;
  readonly tagWeights: ReadonlyMap<W.SeedCategory, Float64Array>;
  readonly generalTagWeights: Float64Array;
}

function makeVideo(c: VideoContext): { record: VideoRecord; words: Words; published: number } {
  const { r, id, channel, plan } = c;
  const category = r.chance(0.8) ? channel.category : W.CATEGORIES[pickWeighted(c.categoryWeights, r)] as W.SeedCategory;
  const published = FIRST_VIDEO + Math.floor((NOW - FIRST_VIDEO) * r.next() ** 0.75);
  const words = wordsFor(r, category, new Date(published).getUTCFullYear(), channel.displayName, channel.owner);
  const seconds = drawSeconds(r, plan.duration);

  const titleWords = { ...words, topic: titleCase(words.topic), other: titleCase(words.other) };
  let title = fill(r, r.chance(0.4) ? r.pick(category.titles) : r.pick(W.TITLES), titleWords);
  if (seconds !== undefined && seconds <= 60 && r.chance(0.3)) title += ' #shorts';
  const record: VideoRecord = { kind: 'video', id, channel: channel.username, title, publishedAt: instant(published), privacy: plan.privacy };
  if (r.chance(0.93)) record.description = sentences(r, W.DESCRIPTIONS, 3, words);
  if (r.chance(0.97)) record.category = category.id;

  const tagCount = r.chance(0.1) ? 0 : r.int(1, 8);
  const tags: string[] = [];
  for (let attempt = 0; tags.length < tagCount && attempt < tagCount * 3; attempt++) {
    const tag = r.chance(0.55)
      ? category.tags[pickWeighted(c.tagWeights.get(category) as Float64Array, r)]
      : W.GENERAL_TAGS[pickWeighted(c.generalTagWeights, r)];
    if (tag !== undefined && !tags.includes(tag)) tags.push(tag);
  }
  if (tags.length > 0) record.tags = tags;
  if (seconds !== undefined) record.duration = seconds;

  const age = Math.min(1, 0.1 + (NOW - published) / (60 * DAY));
  const reach = plan.privacy === 'public' ? 1 : plan.privacy === 'unlisted' ? 0.05 : 0.001;
  const views = Math.floor(logNormal(r, 4 + 0.45 * Math.log(channel.subscribers + 10), 1.6, 4_000_000_000) * age * reach);
  record.views = views;
  if (r.chance(0.97)) record.likes = Math.floor(views * (0.005 + r.next() * 0.06));
  if (r.chance(0.12)) record.updatedAt = instant(between(r, published, NOW));
  const f = plan.features;
  record.features = { '3d': f['3d'] === true, calm: f.calm === true, restricted: f.restricted === true, captions: f.captions === true };
  if (plan.sources) {
    record.sources = r.pick(SAMPLE_RENDITIONS).map(sampleSource);
  }
  const l = r.next();
  const language = l < 0.78 ? 'en' : l < 0.86 ? r.pick(W.OTHER_LANGUAGES) : undefined;
  if (plan.features.captions) {
    const tracks = [{ lang: 'en', label: r.chance(0.3) ? 'English (auto-generated)' : 'English' }];
    for (let extra = r.int(0, 3); extra > 0; extra--) {
      const track = r.pick(W.CAPTION_LANGUAGES);
      if (!tracks.some((t) => t.lang === track.lang)) tracks.push({ lang: track.lang, label: track.label });
    }
    record.captions = plan.sources ? tracks.map((t) => ({ ...t, url: sampleCaptions(t.lang) })) : tracks;
  }
  if (language !== undefined) record.language = language;
  const chapters = planChapters(id, seconds, plan.sources, titleCase(words.topic));
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
  const starts = playable ? SAMPLE_CHAPTER_STARTS : CHAPTER_FRACTIONS.map((f) => Math.floor(f * seconds));
  return starts.map((start, i) => ({ start, title: titles[i]! }));
}

// ---- Comments ----------------------------------------------------------------------------------

function drawState(r: Random): CommentState {
  const s = r.next();
  return s < 0.89 ? 'published' : s < 0.94 ? 'held' : s < 0.97 ? 'removed' : 'spam';
}

const SEPARATORS = ['_', '.', ''] as const;

function drawAuthor(r: Random, channel: SeedChannel, byCreator: boolean): CommentRecord['author'] {
  if (byCreator) return { displayName: channel.displayName, username: channel.username };
  const first = r.pick(W.FIRST_NAMES);
  const last = r.pick(W.LAST_NAMES);
  const style = r.next();
  const displayName = style < 0.6 ? `${first} ${last}` : style < 0.8 ? `${first}${r.int(1, 99)}` : `${r.pick(W.ADJECTIVES)}${r.pick(W.NOUNS)}${r.int(1, 999)}`;
  const author: CommentRecord['author'] = { displayName };
  if (r.chance(0.5)) author.username = `${nameSlug(first)}${r.pick(SEPARATORS)}${nameSlug(last)}${r.chance(0.4) ? r.int(1, 99) : ''}`;
  return author;
}

interface CommentContext {
  readonly r: Random;
  readonly video: VideoRecord;
  readonly published: number;
  readonly channel: SeedChannel;
  readonly words: Words;
  readonly rich: boolean;
  /** Returns the next comment id. */
  readonly nextId: () => string;
}

function makeComment(c: CommentContext, state: CommentState, at: number, parentId: string | undefined): CommentRecord {
  const { r } = c;
  const byCreator = parentId !== undefined && state === 'published' && r.chance(0.12);
  const reply = parentId !== undefined && (byCreator || r.chance(0.7));
  const text = state === 'spam' ? r.pick(W.SPAM) : fill(r, reply ? r.pick(W.REPLIES) : r.pick(W.COMMENTS), c.words);
  const record: CommentRecord = {
    kind: 'comment', id: c.nextId(), videoId: c.video.id, text, publishedAt: instant(at),
    author: drawAuthor(r, c.channel, byCreator), state,
  };
  if (parentId !== undefined) record.parentId = parentId;
  if (r.chance(0.75)) record.likes = Math.floor(Math.exp(Math.abs(r.normal()) * 2.2) - 1);
  return record;
}

/** Top-level comments, each followed by its replies (one level deep). */
function* makeComments(c: CommentContext): Generator<CommentRecord> {
  const { r, video, rich } = c;
  let threads = 0;
  if (rich) threads = r.int(8, 14);
  else if (video.privacy !== 'private' && r.chance(video.privacy === 'public' ? 0.5 : 0.2)) {
    const mean = 0.4 + 0.3 * Math.log10((video.views ?? 0) + 10);
    threads = Math.min(40, 1 + Math.floor(-Math.log(1 - r.next()) * mean));
  }
  for (let t = 0; t < threads; t++) {
    const state: CommentState = rich ? (t === 1 ? 'held' : t === 6 ? 'spam' : 'published') : drawState(r);
    const at = c.published + Math.floor((NOW - c.published) * r.next() ** 3);
    const top = makeComment(c, state, at, undefined);
    yield top;
    let replies = 0;
    if (rich && t < 4) replies = r.int(1, 3);
    else if (state !== 'spam' && r.chance(0.25)) replies = Math.min(12, 1 + Math.floor(-Math.log(1 - r.next()) * 1.2));
    for (let i = 0; i < replies; i++) {
      const replyState = rich && t === 0 && i === 0 ? 'published' : drawState(r);
      yield makeComment(c, replyState, at + Math.floor((NOW - at) * r.next() ** 4), top.id);
    }
  }
}

// ---- Playlists, live, alerts -------------------------------------------------------------------

/** Playlists per channel (with at least 3 videos), 0-4. */
const PLAYLIST_COUNTS = [0, 0, 0, 1, 1, 1, 2, 2, 3, 4] as const;

function drawPlaylistPrivacy(r: Random): Privacy {
  const p = r.next();
  return p < 0.78 ? 'public' : p < 0.9 ? 'unlisted' : 'private';
}

/** `size` distinct entries of `pool`, in a random order (partial Fisher-Yates on a copy). */
function sample(r: Random, pool: readonly number[], size: number): number[] {
  const copy = pool.slice();
  for (let i = 0; i < size; i++) {
    const j = i + Math.floor(r.next() * (copy.length - i));
    const swap = copy[j] as number;
    copy[j] = copy[i] as number;
    copy[i] = swap;
  }
  return copy.slice(0, size);
}

function makeLive(r: Random, channel: SeedChannel, state: LiveRecord['state']): LiveRecord {
  const record: LiveRecord = { kind: 'live', channel: channel.username, state };
  const words = wordsFor(r, channel.category, 2026, channel.displayName, channel.owner);
  const title = capitalise(fill(r, r.pick(W.LIVE_TITLES), words));
  if (state === 'live') {
    record.title = title;
    record.startedAt = instant(NOW - r.int(10, 360) * MINUTE);
    record.viewers = logNormal(r, 5 + 0.3 * Math.log(channel.subscribers + 10), 1.2, 5_000_000);
  } else if (state === 'upcoming') {
    record.title = title;
    // Weeks after the reference date, so the demo's scheduled streams stay ahead for a while.
    record.scheduledFor = instant(NOW + r.int(30, 120) * DAY + r.int(0, 23) * 60 * MINUTE);
  } else if (r.chance(0.5)) {
    record.title = title;
  }
  return record;
}

const ALERTS: readonly CatalogueRecord[] = [
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

// ---- The catalogue -----------------------------------------------------------------------------

/** Every record of the demo catalogue, lazily: categories, channels, videos each followed by its comments, playlists, live, alerts. */
export function* generateSeedRecords(options: SeedOptions): Generator<CatalogueRecord> {
  const r = createRandom(fmix32(options.seed ^ 0x5eed5eed));
  const salt = (kind: number) => fmix32(options.seed * 7 + kind);
  const categoryWeights = cumulative(W.CATEGORIES.map((c) => c.weight));
  const tagWeights = new Map(W.CATEGORIES.map((c) => [c, zipf(c.tags.length, 1)] as const));
  const generalTagWeights = zipf(W.GENERAL_TAGS.length, 1.1);

  for (const c of W.CATEGORIES) yield { kind: 'category', id: c.id, name: c.name };

  const channels: SeedChannel[] = [];
  const used = new Set<string>();
  const channelCount = Math.max(12, Math.round(options.videos / 40));
  for (let i = 0; i < channelCount; i++) {
    const { channel, record } = makeChannel(r, used, categoryWeights);
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
  const channelWeights = cumulative(channels.map((c) => 1 + c.subscribers ** 0.3 * (0.5 + r.next())));

  const pools: number[][] = channels.map(() => []);
  const videoKeys: KeyLayout = { prefix: '', length: 11, capacity: Math.max(1, options.videos), salt: salt(1) };
  // Comments average under two a video; past the guess, ids stay ascending and unique.
  const commentKeys: KeyLayout = { prefix: 'Ug', length: 20, capacity: 3 * options.videos + 100, salt: salt(2) };
  let comments = 0;
  const nextId = () => orderedKey(comments++, commentKeys);
  for (let i = 0; i < options.videos; i++) {
    const plan = SHOWCASE[i] ?? drawPlan(r);
    const channelIndex = plan.topChannel ? top : pickWeighted(channelWeights, r);
    const channel = channels[channelIndex] as SeedChannel;
    const id = orderedKey(i, videoKeys);
    const { record, words, published } = makeVideo({ r, id, channel, plan, categoryWeights, tagWeights, generalTagWeights });
    yield record;
    const pool = pools[channelIndex] as number[];
    if (pool.length < POOL_CAP) pool.push(i);
    yield* makeComments({ r, video: record, published, channel, words, rich: plan.richComments, nextId });
  }

  const playlistKeys: KeyLayout = { prefix: 'PL', length: 16, capacity: 4 * channels.length, salt: salt(3) };
  let playlists = 0;
  const unlisted = options.videos > SHOWCASE_UNLISTED ? SHOWCASE_UNLISTED : undefined;
  for (const [index, channel] of channels.entries()) {
    const pool = pools[index] as number[];
    // The top channel always has a public playlist holding the showcase unlisted video, plus
    // an unlisted and a private one.
    const forced: readonly Privacy[] | undefined = index === top ? ['public', 'public', 'unlisted', 'private'] : undefined;
    const count = forced ? forced.length : pool.length < 3 ? 0 : r.pick(PLAYLIST_COUNTS);
    for (let p = 0; p < count; p++) {
      const size = Math.min(pool.length, 60, 2 + Math.floor(-Math.log(1 - r.next()) * 10));
      const chosen = sample(r, pool, size);
      if (p === 0 && forced && unlisted !== undefined && !chosen.includes(unlisted)) chosen.splice(r.int(0, chosen.length), 0, unlisted);
      const words = wordsFor(r, channel.category, r.int(2019, 2026), channel.displayName, channel.owner);
      const record: PlaylistRecord = {
        kind: 'playlist', id: orderedKey(playlists++, playlistKeys), channel: channel.username,
        title: fill(r, r.pick(W.PLAYLIST_TITLES), words), privacy: forced?.[p] ?? drawPlaylistPrivacy(r),
        videos: chosen.map((v) => orderedKey(v, videoKeys)),
      };
      if (r.chance(0.6)) record.description = sentences(r, W.DESCRIPTIONS, 2, words);
      const created = between(r, FIRST_VIDEO, NOW);
      record.createdAt = instant(created);
      if (r.chance(0.7)) record.updatedAt = instant(between(r, created, NOW));
      yield record;
    }
  }

  // The three most-subscribed channels show each live state; a few others are live at random.
  const forcedLive = new Map<number, LiveRecord['state']>([[ranked[0] ?? 0, 'live'], [ranked[1] ?? 1, 'upcoming'], [ranked[2] ?? 2, 'offline']]);
  for (const [index, channel] of channels.entries()) {
    const state = forcedLive.get(index) ?? (r.chance(0.06) ? r.pick(['live', 'upcoming', 'upcoming', 'offline', 'offline'] as const) : undefined);
    if (state !== undefined) yield makeLive(r, channel, state);
  }

  yield* ALERTS;
}

// ---- Writing -----------------------------------------------------------------------------------

export type SeedCounts = Record<CatalogueRecord['kind'], number>;

export interface SeedProgress {
  readonly videos: number;
  readonly totalVideos: number;
  readonly records: number;
  readonly elapsedMs: number;
}

export interface SeedSummary {
  readonly path: string;
  readonly records: number;
  readonly counts: Readonly<SeedCounts>;
  /** How many records were checked against the import schema. */
  readonly validated: number;
  readonly elapsedMs: number;
}

/** Validate every record up to this many videos; above it, every 97th video and comment. */
export const VALIDATE_ALL_UP_TO = 50_000;

const removeDatabase = (path: string) => {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${path}${suffix}`, { force: true });
};

/**
 * Writes the demo catalogue to `path`, replacing it whole: records go into `<path>.tmp` in one
 * transaction, and only a complete file is renamed over `path`. On failure nothing is left behind.
 */
export function seedCatalogue(path: string, options: SeedOptions, onProgress: (p: SeedProgress) => void = () => {}): SeedSummary {
  const started = performance.now();
  const tmp = `${path}.tmp`;
  const counts: SeedCounts = { category: 0, channel: 0, video: 0, playlist: 0, comment: 0, live: 0, alert: 0 };
  let records = 0;
  let validated = 0;
  let db: Catalogue | undefined;
  try {
    removeDatabase(tmp);
    db = openCatalogue(tmp);
    // A throwaway file until the rename: no journal to keep, nothing to sync.
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -131072');
    // Bulk load: secondary indexes are dropped now and rebuilt from the schema at the end (one
    // sort each is cheaper than a million scattered inserts).
    const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL").pluck().all() as string[];
    for (const name of indexes) db.exec(`DROP INDEX "${name}"`);
    const write = createRecordWriter(db);
    const validateAll = options.videos <= VALIDATE_ALL_UP_TO;
    const step = Math.max(1, Math.ceil(options.videos / 10));
    db.transaction(() => {
      for (const record of generateSeedRecords(options)) {
        // Records are built in their parsed form, so checking only some never changes what is
        // written. Above VALIDATE_ALL_UP_TO videos, videos and comments are checked on a
        // deterministic sample (every 97th record) to keep a million-video seed fast; the few
        // records of the other kinds are always checked.
        if (validateAll || records % 97 === 0 || (record.kind !== 'video' && record.kind !== 'comment')) {
          CatalogueRecord.parse(record);
          validated++;
        }
        write(record);
        records++;
        counts[record.kind]++;
        if (record.kind === 'video' && (counts.video % step === 0 || counts.video === options.videos)) {
          onProgress({ videos: counts.video, totalVideos: options.videos, records, elapsedMs: performance.now() - started });
        }
      }
      markRevision(db!);
    })();
    db.exec(SCHEMA_SQL);
    db.pragma('journal_mode = DELETE');
    db.close();
    db = undefined;
    // A stale WAL or journal beside the old file would be replayed into the new one.
    for (const suffix of ['-wal', '-shm', '-journal']) rmSync(`${path}${suffix}`, { force: true });
    renameSync(tmp, path);
  } catch (error) {
    db?.close();
    try {
      removeDatabase(tmp);
    } catch {
      // The directory itself is unusable (e.g. a path under a file): there is nothing to remove.
    }
    throw error;
  }
  return { path, records, counts, validated, elapsedMs: performance.now() - started };
}
