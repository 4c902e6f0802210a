// Indexes that answer every list query of public videos and channels without walking the model
// (docs/performance.md, "List indexes"): for each sort, the order as typed arrays; for each filter
// value (category, creator, duration class, feature), its videos' positions in each sort order,
// and for values held by many videos a bitset of those positions too. A query with one filter
// pages straight from its positions; with several, it walks the rarest value's positions testing
// the others, or, when every value is common, intersects bitsets (totals by popcount). Built from
// the model alone (a pure function of it), in typed arrays: ~11 MB at 100,000 videos.
import type { FeatureFlags } from '../catalogue/records.ts';
import type { ChannelEntry, ChannelSort, VideoEntry, VideoSort } from './entries.ts';
import type { DurationClass } from './durations.ts';
import { runSteps, STEP_ITEMS, type Steps } from './steps.ts';

export type Feature = keyof FeatureFlags;

/** The filters of a video list, all of which a video must pass (AND). */
export interface VideoFilters {
  readonly category?: string | undefined;
  readonly creator?: string | undefined;
  readonly duration?: DurationClass | undefined;
  readonly feature?: Feature | undefined;
}

/** The features a video may have: the values of `/v1/videos?feature=` (src/api/params.ts). */
export const FEATURES = ['3d', 'calm', 'restricted', 'captions'] as const satisfies readonly Feature[];

/** One filter value: the videos that have it, in each sort order. */
interface Term {
  readonly count: number;
  /** per sort: ascending positions (in that sort's order) of the videos with this value */
  readonly positions: Readonly<Record<VideoSort, Int32Array>>;
  /** per sort: the same positions as a bitset (32 a word), for values with many videos */
  readonly bits: Readonly<Record<VideoSort, Int32Array>> | undefined;
  /** per video (by its position in `latest`): its value code, or its feature bits */
  readonly attribute: Int32Array;
  readonly code: number;
  /** whether `code` is a bit of a mask (features) rather than a value */
  readonly mask: boolean;
}

export interface VideoListIndex {
  /** public videos */
  readonly count: number;
  /** position in Model.entries → position in `latest` (-1: not public) */
  readonly latestOf: Int32Array;
  /** per sort: position in that order → the video's position in `latest` */
  readonly order: Readonly<Record<VideoSort, Int32Array>>;
  /** per sort: the video's position in `latest` → its position in that order */
  readonly rank: Readonly<Record<VideoSort, Int32Array>>;
  readonly categories: ReadonlyMap<string, Term>;
  readonly creators: ReadonlyMap<string, Term>;
  readonly durations: ReadonlyMap<string, Term>;
  readonly features: ReadonlyMap<string, Term>;
}

export interface ChannelListIndex {
  /** username → position in the `subscribers` order */
  readonly code: ReadonlyMap<string, number>;
  /** per sort: code → position in that order */
  readonly rank: Readonly<Record<ChannelSort, Int32Array>>;
}

/** Positions in one sort order, read one at a time: `at(i)` is the i-th match's position. */
export interface PositionList {
  readonly length: number;
  at(i: number): number;
}

const WORD = 32;
const wordsFor = (n: number) => Math.ceil(n / WORD);

/** Set bits of a 32-bit word. */
export function popcount(word: number): number {
  let x = word - ((word >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

function mapSorts<S extends string, T>(sorts: readonly S[], make: (sort: S) => T): Record<S, T> {
  return Object.fromEntries(sorts.map((s) => [s, make(s)])) as Record<S, T>;
}

export function buildVideoListIndex(orders: Readonly<Record<VideoSort, readonly VideoEntry[]>>): VideoListIndex {
  return runSteps(buildVideoListIndexInSteps(orders));
}

/** buildVideoListIndex in steps (steps.ts): a pause after each pass over the videos (~1 ms at 100,000). */
export function* buildVideoListIndexInSteps(orders: Readonly<Record<VideoSort, readonly VideoEntry[]>>): Steps<VideoListIndex> {
  // Plain loops over typed arrays throughout: this runs once per model, over every public video.
  const sorts = Object.keys(orders) as VideoSort[];
  const latest = orders.latest;
  const count = latest.length;
  let entries = 0;
  for (let p = 0; p < count; p++) entries = Math.max(entries, latest[p]!.index + 1);
  const latestOf = new Int32Array(entries).fill(-1);
  for (let p = 0; p < count; p++) latestOf[latest[p]!.index] = p;
  const order = mapSorts(sorts, (s) => {
    const ordered = orders[s];
    const o = new Int32Array(count);
    for (let position = 0; position < count; position++) o[position] = latestOf[ordered[position]!.index]!;
    return o;
  });
  const rank = mapSorts(sorts, (s) => {
    const o = order[s];
    const r = new Int32Array(count);
    for (let position = 0; position < count; position++) r[o[position]!] = position;
    return r;
  });
  const words = wordsFor(count);
  yield;

  /** One dimension: each video's value code (-1 for none), or its feature bits. */
  const dimension = function* (attribute: Int32Array, names: readonly string[], mask: boolean): Steps<Map<string, Term>> {
    const counts = new Int32Array(names.length);
    for (let p = 0; p < count; p++) {
      const value = attribute[p]!;
      if (mask) { for (let c = 0; c < names.length; c++) if (value & (1 << c)) counts[c]!++; } else if (value >= 0) counts[value]!++;
    }
    const positions = Array.from(counts, (n) => mapSorts(sorts, () => new Int32Array(n)));
    const bits = Array.from(counts, (n) => (n > words ? mapSorts(sorts, () => new Int32Array(words)) : undefined));
    for (const s of sorts) {
      const ordered = order[s];
      const lists = positions.map((byS) => byS[s]);
      const sets = bits.map((byS) => byS?.[s]);
      const filled = new Int32Array(names.length);
      for (let position = 0; position < count; position++) {
        const value = attribute[ordered[position]!]!;
        for (let c = mask ? 0 : value; c >= 0 && c < names.length; c = mask ? c + 1 : -1) {
          if (mask && (value & (1 << c)) === 0) continue;
          lists[c]![filled[c]!++] = position;
          const set = sets[c];
          if (set !== undefined) set[position >>> 5]! |= 1 << (position & 31);
        }
      }
      yield;
    }
    const terms = new Map<string, Term>();
    for (let c = 0; c < names.length; c++) {
      if (counts[c] === 0) continue;
      terms.set(names[c]!, { count: counts[c]!, positions: positions[c]!, bits: bits[c], attribute, code: mask ? 1 << c : c, mask });
    }
    return terms;
  };

  // one pass over the videos: each one's category, creator and duration class as codes (in order
  // of first appearance, -1 where missing) and its features as bits
  const category = codesOf();
  const creator = codesOf();
  const duration = codesOf();
  const features = new Int32Array(count);
  for (let p = 0; p < count; p++) {
    const entry = latest[p]!;
    const video = entry.video;
    category.attribute[p] = category.codeOf(video.category);
    creator.attribute[p] = creator.codeOf(video.channel);
    duration.attribute[p] = duration.codeOf(entry.durationClass);
    const flags = video.features;
    for (let c = 0; c < FEATURES.length; c++) if (flags[FEATURES[c]!]) features[p]! |= 1 << c;
    if ((p + 1) % (32 * STEP_ITEMS) === 0) yield;
  }
  return {
    count, latestOf, order, rank,
    categories: yield* dimension(category.attribute, category.names, false),
    creators: yield* dimension(creator.attribute, creator.names, false),
    durations: yield* dimension(duration.attribute, duration.names, false),
    features: yield* dimension(features, FEATURES, true),
  };

  function codesOf() {
    const names: string[] = [];
    const codes = new Map<string, number>();
    const codeOf = (value: string | undefined): number => {
      if (value === undefined) return -1;
      let c = codes.get(value);
      if (c === undefined) { c = names.length; codes.set(value, c); names.push(value); }
      return c;
    };
    return { names, codeOf, attribute: new Int32Array(count) };
  }
}

export function buildChannelListIndex(orders: Readonly<Record<ChannelSort, readonly ChannelEntry[]>>): ChannelListIndex {
  const sorts = Object.keys(orders) as ChannelSort[];
  const code = new Map(orders.subscribers.map((e, i) => [e.channel.username, i]));
  const rank = mapSorts(sorts, (s) => {
    const r = new Int32Array(code.size);
    orders[s].forEach((e, position) => { r[code.get(e.channel.username)!] = position; });
    return r;
  });
  return { code, rank };
}

const EMPTY: PositionList = { length: 0, at: () => { throw new RangeError('empty list'); } };
const ofArray = (positions: Int32Array): PositionList => ({ length: positions.length, at: (i) => positions[i]! });

/** The terms a filter set names, or undefined when one names a value no public video has. */
function termsOf(index: VideoListIndex, f: VideoFilters): Term[] | undefined {
  const terms: Term[] = [];
  const add = (map: ReadonlyMap<string, Term>, value: string | undefined) => {
    if (value === undefined) return true;
    const term = map.get(value);
    if (term) terms.push(term);
    return term !== undefined;
  };
  const known = add(index.categories, f.category) && add(index.creators, f.creator) && add(index.durations, f.duration) && add(index.features, f.feature);
  return known ? terms : undefined;
}

const passes = (term: Term, p: number) => (term.mask ? (term.attribute[p]! & term.code) !== 0 : term.attribute[p] === term.code);

/** Whether the video at position `p` of `latest` passes every term (a plain loop: this runs once per candidate). */
function passesAll(terms: readonly Term[], p: number): boolean {
  for (let t = 0; t < terms.length; t++) if (!passes(terms[t]!, p)) return false;
  return true;
}

/** Whether the video at position `p` of `latest` passes every filter. */
export function matchesFilters(index: VideoListIndex, f: VideoFilters): ((p: number) => boolean) | undefined {
  const terms = termsOf(index, f);
  if (!terms) return undefined;
  return (p) => passesAll(terms, p);
}

/**
 * The positions, in `sort`'s order, of the public videos passing every filter. Costs the page and
 * the rarest filter value's count, or a word per 32 videos when every value is common, never a
 * walk of the videos. Allocates nothing per match: the matches are counted, then read where the
 * page starts (a list is read forwards from its page's first position; docs/performance.md, "The
 * first list answers, fifteenth round").
 */
export function selectPositions(index: VideoListIndex, sort: VideoSort, f: VideoFilters): PositionList {
  const terms = termsOf(index, f);
  if (!terms) return EMPTY;
  if (terms.length === 0) return { length: index.count, at: (i) => i };
  terms.sort((a, b) => a.count - b.count);
  const rarest = terms[0]!;
  if (terms.length === 1) return ofArray(rarest.positions[sort]);
  const others = terms.slice(1);
  let common = rarest.bits !== undefined;
  for (const t of others) if (t.bits === undefined) common = false;
  if (!common) return walkList(rarest.positions[sort], index.order[sort], others);
  // every value is common: intersect their bitsets, word by word as they are read
  const sets = terms.map((t) => t.bits![sort]);
  const words = sets[0]!.length;
  let total = 0;
  for (let w = 0; w < words; w++) total += popcount(andOf(sets, w));
  return bitsetList((w) => andOf(sets, w), total);
}

/** Word `w` of the intersection of `sets`. */
function andOf(sets: readonly Int32Array[], w: number): number {
  let word = sets[0]![w]!;
  for (let s = 1; s < sets.length && word !== 0; s++) word &= sets[s]![w]!;
  return word;
}

/**
 * The rarest value's positions that pass the other terms: counted in one walk, then read from a
 * cursor that moves forwards (back to the start when a read goes backwards). The old list kept
 * every match in an array the size of the rarest value's positions, for a page of at most 100.
 */
function walkList(candidates: Int32Array, order: Int32Array, others: readonly Term[]): PositionList {
  let total = 0;
  for (let c = 0; c < candidates.length; c++) if (passesAll(others, order[candidates[c]!]!)) total++;
  let next = 0; // the candidate after the match `read`
  let read = -1;
  return {
    length: total,
    at(i) {
      if (i < 0 || i >= total) throw new RangeError(`no match at ${i} of ${total}`);
      if (i <= read) { next = 0; read = -1; }
      while (next < candidates.length) {
        const position = candidates[next++]!;
        if (passesAll(others, order[position]!) && ++read === i) return position;
      }
      // the count and the walk read the same immutable index: only a bug gets here, and says so
      throw new Error(`the walk found ${read + 1} matches where it counted ${total}`);
    },
  };
}

/** A bitset's set bits as a list (`word(w)`: its w-th word); reading in order costs a word per 32 positions in all. */
function bitsetList(word: (w: number) => number, total: number): PositionList {
  let w = 0;
  let current = word(0);
  let before = 0; // set bits in the words before `w`
  return {
    length: total,
    at(i) {
      if (i < 0 || i >= total) throw new RangeError(`no match at ${i} of ${total}`);
      if (i < before) { w = 0; before = 0; current = word(0); }
      for (let c = popcount(current); before + c <= i; c = popcount(current)) { before += c; current = word(++w); }
      let bits = current;
      for (let k = i - before; k > 0; k--) bits &= bits - 1;
      return w * WORD + (31 - Math.clz32(bits & -bits));
    },
  };
}

/** The positions in `sort`'s order of some videos (by position in `latest`), ascending. */
export function rankPositions(index: VideoListIndex, sort: VideoSort, videos: ArrayLike<number>): Int32Array {
  const rank = index.rank[sort];
  const positions = new Int32Array(videos.length);
  for (let i = 0; i < videos.length; i++) positions[i] = rank[videos[i]!]!;
  return positions.sort();
}

/** The positions in `sort`'s order of some channels (by username), ascending; unknown ones left out. */
export function rankChannels(index: ChannelListIndex, sort: ChannelSort, usernames: Iterable<string>): Int32Array {
  const rank = index.rank[sort];
  const positions: number[] = [];
  for (const username of usernames) {
    const code = index.code.get(username);
    if (code !== undefined) positions.push(rank[code]!);
  }
  return Int32Array.from(positions).sort();
}
