// Trending score, computed at build time (docs/api-contract.md §2):
//   score = log10(1 + views + 10 × likes) × 0.5 ^ (ageDays / 14)
// Engagement counts logarithmically, so a popular video needs ten times the audience to gain a
// point, and the score halves every 14 days. Age is measured from the newest publishedAt in the
// catalogue, not the wall clock, so two builds of the same catalogue rank identically.
import type { PublicVideo } from '../catalogue/public-catalogue.ts';

/** What a video's score is computed from. */
export type TrendingFields = Pick<PublicVideo, 'views' | 'likes' | 'publishedAt'>;

export const TRENDING_HALF_LIFE_DAYS = 14;
const DAY_MS = 86_400_000;

function newest(published: Iterable<number>): number {
  let latest = 0;
  for (const time of published) latest = Math.max(latest, time);
  return latest;
}

const score = (views: number, likes: number, published: number, reference: number): number =>
  Math.log10(1 + views + 10 * likes) * 0.5 ** (Math.max(0, (reference - published) / DAY_MS) / TRENDING_HALF_LIFE_DAYS);

export function referenceTime(videos: readonly TrendingFields[]): number {
  return newest(videos.map((v) => Date.parse(v.publishedAt)));
}

export function trendingScore(video: TrendingFields, reference: number): number {
  return score(video.views, video.likes, Date.parse(video.publishedAt), reference);
}

/** Every video's score against the catalogue's own reference time, each date parsed once. */
export function trendingScores(videos: readonly TrendingFields[]): number[] {
  const published = videos.map((v) => Date.parse(v.publishedAt));
  const reference = newest(published);
  return videos.map((v, i) => score(v.views, v.likes, published[i]!, reference));
}
