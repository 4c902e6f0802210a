// Related videos, computed at build time (docs/api-contract.md §2): public videos that share tags (3 points a
// tag), the creator (2) or the category (1) with a video, best first, ties by trending score, then
// id; at most 100 a video. Candidates come from inverted indexes, each capped to its most trending
// entries, so a very common tag or category does not make the build quadratic.
import type { PublicVideo } from '../catalogue/public-catalogue.ts';

export const MAX_RELATED = 100;
// enough for a full list from one key even when the video itself is among them
const CANDIDATES_PER_KEY = MAX_RELATED + 1;

function index(ranked: readonly PublicVideo[], keysOf: (v: PublicVideo) => readonly string[]): Map<string, number[]> {
  const map = new Map<string, number[]>();
  ranked.forEach((video, rank) => {
    for (const key of keysOf(video)) {
      const list = map.get(key);
      if (!list) map.set(key, [rank]);
      else if (list.length < CANDIDATES_PER_KEY) list.push(rank);
    }
  });
  return map;
}

const tagsOf = (v: PublicVideo): string[] => [...new Set(v.tags.map((t) => t.toLowerCase()))];

/**
 * Related public videos for every given video (public or unlisted): for each, the indexes into
 * `all` of its related videos, best first. `trending` is aligned with `all`.
 */
export function computeRelated(all: readonly PublicVideo[], trending: readonly number[]): Int32Array[] {
  const indexOf = new Map(all.map((v, i) => [v, i]));
  const ranked = all
    .filter((v) => v.privacy === 'public')
    .sort((a, b) => trending[indexOf.get(b)!]! - trending[indexOf.get(a)!]! || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const rankedIndex = Int32Array.from(ranked, (v) => indexOf.get(v)!);
  const tags = new Map(all.map((v) => [v.id, tagsOf(v)]));
  const byTag = index(ranked, (v) => tags.get(v.id)!);
  const byCreator = index(ranked, (v) => [v.channel]);
  const byCategory = index(ranked, (v) => (v.category === undefined ? [] : [v.category]));

  // Points per candidate rank, and the ranks touched for the current video (reset after each).
  // Candidates are then taken from the highest points down, each bucket in rank order: only the
  // buckets needed for 100 results are sorted, and points are small integers.
  const points = new Int32Array(ranked.length);
  const touched: number[] = [];
  const buckets: number[][] = [];
  const related: Int32Array[] = [];
  for (const video of all) {
    const add = (ranks: readonly number[] | undefined, value: number) => {
      if (!ranks) return;
      for (const rank of ranks) {
        if (points[rank] === 0) touched.push(rank);
        points[rank] = points[rank]! + value;
      }
    };
    for (const tag of tags.get(video.id)!) add(byTag.get(tag), 3);
    add(byCreator.get(video.channel), 2);
    if (video.category !== undefined) add(byCategory.get(video.category), 1);
    for (const rank of touched) {
      const p = points[rank]!;
      points[rank] = 0;
      (buckets[p] ??= []).push(rank);
    }
    touched.length = 0;
    const chosen: number[] = [];
    for (let p = buckets.length - 1; p > 0; p--) {
      const bucket = buckets[p];
      if (!bucket || bucket.length === 0) continue;
      if (chosen.length < MAX_RELATED) {
        for (const rank of Int32Array.from(bucket).sort()) {
          if (ranked[rank] !== video) chosen.push(rankedIndex[rank]!);
          if (chosen.length === MAX_RELATED) break;
        }
      }
      bucket.length = 0;
    }
    related.push(Int32Array.from(chosen));
  }
  return related;
}
