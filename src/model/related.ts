// Related videos, computed at build time (docs/api-contract.md §2): public videos that share tags (3 points a
// tag), the creator (2) or the category (1) with a video, best first, ties by trending score, then
// id; at most 100 a video. Candidates come from inverted indexes, each capped to its most trending
// entries, so a very common tag or category does not make the build quadratic.
//
// Everything is numbers in typed arrays (docs/performance.md, "Reading the catalogue"): keys become
// small integers, each index is one array of ranks with an array of where each key's list starts,
// and the points of the current video's candidates live in one array reset after each video.
import type { PublicVideo } from '../catalogue/public-catalogue.ts';

/** What related lists are computed from (with the trending scores). */
export type RelatedFields = Pick<PublicVideo, 'id' | 'privacy' | 'tags' | 'channel' | 'category'>;

export const MAX_RELATED = 100;
// enough for a full list from one key even when the video itself is among them
const CANDIDATES_PER_KEY = MAX_RELATED + 1;
const TAG_POINTS = 3;
const CREATOR_POINTS = 2;
const CATEGORY_POINTS = 1;

/** Each video's keys as small integers: `start[i]..start[i + 1]` of `keys` are video i's. */
interface VideoKeys {
  readonly start: Int32Array;
  readonly keys: Int32Array;
  readonly count: number;
}

function numberKeys(all: readonly RelatedFields[], keysOf: (v: RelatedFields) => Iterable<string>): VideoKeys {
  const ids = new Map<string, number>();
  const start = new Int32Array(all.length + 1);
  const keys: number[] = [];
  for (let i = 0; i < all.length; i++) {
    for (const key of keysOf(all[i]!)) {
      let id = ids.get(key);
      if (id === undefined) ids.set(key, (id = ids.size));
      keys.push(id);
    }
    start[i + 1] = keys.length;
  }
  return { start, keys: Int32Array.from(keys), count: ids.size };
}

/** For each key, the first CANDIDATES_PER_KEY ranks holding it, in rank order: `ranks[start[k]..start[k + 1]]`. */
interface Postings {
  readonly start: Int32Array;
  readonly ranks: Int32Array;
}

function indexByKey(video: VideoKeys, rankedIndex: Int32Array): Postings {
  const sizes = new Int32Array(video.count);
  for (const i of rankedIndex) {
    for (let k = video.start[i]!; k < video.start[i + 1]!; k++) {
      const key = video.keys[k]!;
      if (sizes[key]! < CANDIDATES_PER_KEY) sizes[key]!++;
    }
  }
  const start = new Int32Array(video.count + 1);
  for (let key = 0; key < video.count; key++) start[key + 1] = start[key]! + sizes[key]!;
  const ranks = new Int32Array(start[video.count]!);
  const filled = new Int32Array(video.count);
  for (let rank = 0; rank < rankedIndex.length; rank++) {
    const i = rankedIndex[rank]!;
    for (let k = video.start[i]!; k < video.start[i + 1]!; k++) {
      const key = video.keys[k]!;
      if (filled[key]! < sizes[key]!) ranks[start[key]! + filled[key]!++] = rank;
    }
  }
  return { start, ranks };
}

const tagsOf = (v: RelatedFields): Set<string> => new Set(v.tags.map((t) => t.toLowerCase()));

/**
 * Related public videos for every given video (public or unlisted): for each, the indexes into
 * `all` of its related videos, best first. `trending` is aligned with `all`.
 */
export function computeRelated(all: readonly RelatedFields[], trending: readonly number[]): Int32Array[] {
  const order: number[] = [];
  for (let i = 0; i < all.length; i++) if (all[i]!.privacy === 'public') order.push(i);
  order.sort((a, b) => {
    const x = all[a]!.id;
    const y = all[b]!.id;
    return trending[b]! - trending[a]! || (x < y ? -1 : x > y ? 1 : 0);
  });
  const rankedIndex = Int32Array.from(order);
  const rankOf = new Int32Array(all.length).fill(-1);
  rankedIndex.forEach((i, rank) => { rankOf[i] = rank; });

  const kinds = [
    { points: TAG_POINTS, keys: numberKeys(all, tagsOf) },
    { points: CREATOR_POINTS, keys: numberKeys(all, (v) => [v.channel]) },
    { points: CATEGORY_POINTS, keys: numberKeys(all, (v) => (v.category === undefined ? [] : [v.category])) },
  ].map((kind) => ({ ...kind, postings: indexByKey(kind.keys, rankedIndex) }));

  // Points per candidate rank and the ranks touched for the current video (reset after each).
  const points = new Int32Array(rankedIndex.length);
  let mostTouched = 0;
  let mostPoints = 0;
  for (let i = 0; i < all.length; i++) {
    let touches = 0;
    let most = 0;
    for (const { keys, points: value } of kinds) {
      const count = keys.start[i + 1]! - keys.start[i]!;
      touches += count * CANDIDATES_PER_KEY;
      most += count * value;
    }
    mostTouched = Math.max(mostTouched, touches);
    mostPoints = Math.max(mostPoints, most);
  }
  const touched = new Int32Array(mostTouched);
  const perPoints = new Int32Array(mostPoints + 1);
  // (most points − points) × ranks + rank: ascending is best first, exact in a double
  const sortKeys = new Float64Array(mostTouched);
  const width = rankedIndex.length;

  const related: Int32Array[] = new Array<Int32Array>(all.length);
  for (let i = 0; i < all.length; i++) {
    let n = 0;
    for (const { keys, points: value, postings } of kinds) {
      for (let k = keys.start[i]!; k < keys.start[i + 1]!; k++) {
        const key = keys.keys[k]!;
        for (let p = postings.start[key]!; p < postings.start[key + 1]!; p++) {
          const rank = postings.ranks[p]!;
          if (points[rank] === 0) touched[n++] = rank;
          points[rank]! += value;
        }
      }
    }
    // The fewest points a candidate needs to be among the best MAX_RELATED + 1 (the video itself
    // may be one): every candidate with at least that many is sorted, the rest never are.
    let top = 0;
    for (let t = 0; t < n; t++) {
      const p = points[touched[t]!]!;
      perPoints[p]!++;
      if (p > top) top = p;
    }
    let floor = top;
    for (let seen = perPoints[top]!; floor > 1 && seen < CANDIDATES_PER_KEY;) seen += perPoints[--floor]!;
    let m = 0;
    for (let t = 0; t < n; t++) {
      const rank = touched[t]!;
      const p = points[rank]!;
      points[rank] = 0;
      perPoints[p] = 0;
      if (p >= floor) sortKeys[m++] = (top - p) * width + rank;
    }
    const best = sortKeys.subarray(0, m).sort();
    const self = rankOf[i]!;
    const chosen = new Int32Array(Math.min(MAX_RELATED, m));
    let c = 0;
    for (let b = 0; b < m && c < chosen.length; b++) {
      const rank = best[b]! % width;
      if (rank !== self) chosen[c++] = rankedIndex[rank]!;
    }
    related[i] = c === chosen.length ? chosen : chosen.slice(0, c);
  }
  return related;
}
