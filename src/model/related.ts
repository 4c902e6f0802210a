// Related videos, computed at build time (CONTRACT §2): public videos that share tags (3 points a
// tag), the creator (2) or the category (1) with a video, best first, ties by trending score, then
// id; at most 100 a video. Candidates come from inverted indexes, each capped to its most trending
// entries, so a very common tag or category does not make the build quadratic.
import type { PublicVideo } from './public-catalogue.ts';

export const MAX_RELATED = 100;
const CANDIDATES_PER_KEY = 300;
const RANK_SPACE = 2 ** 24;

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

/** Related public video ids for every given video (public or unlisted), keyed by video id. */
export function computeRelated(all: readonly PublicVideo[], trending: ReadonlyMap<string, number>): Map<string, string[]> {
  const ranked = all
    .filter((v) => v.privacy === 'public')
    .sort((a, b) => (trending.get(b.id) ?? 0) - (trending.get(a.id) ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (ranked.length >= RANK_SPACE) throw new Error(`related: more than ${RANK_SPACE} public videos`);
  const byTag = index(ranked, tagsOf);
  const byCreator = index(ranked, (v) => [v.channel]);
  const byCategory = index(ranked, (v) => (v.category === undefined ? [] : [v.category]));

  const related = new Map<string, string[]>();
  const points = new Map<number, number>();
  for (const video of all) {
    points.clear();
    const add = (ranks: readonly number[] | undefined, value: number) => {
      for (const rank of ranks ?? []) points.set(rank, (points.get(rank) ?? 0) + value);
    };
    for (const tag of tagsOf(video)) add(byTag.get(tag), 3);
    add(byCreator.get(video.channel), 2);
    if (video.category !== undefined) add(byCategory.get(video.category), 1);
    // One number per candidate: more points first, then better rank (trending, then id).
    const keys = new Float64Array(points.size);
    let n = 0;
    for (const [rank, value] of points) keys[n++] = value * RANK_SPACE + (RANK_SPACE - 1 - rank);
    keys.sort().reverse();
    const ids: string[] = [];
    for (const key of keys) {
      const rank = RANK_SPACE - 1 - (key % RANK_SPACE);
      const candidate = ranked[rank]!;
      if (candidate.id !== video.id) ids.push(candidate.id);
      if (ids.length === MAX_RELATED) break;
    }
    related.set(video.id, ids);
  }
  return related;
}
