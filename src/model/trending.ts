// Trending score, computed at build time (docs/api-contract.md §2):
//   score = log10(1 + views + 10 × likes) × 0.5 ^ (ageDays / 14)
// Engagement counts logarithmically, so a popular video needs ten times the audience to gain a
// point, and the score halves every 14 days. Age is measured from the newest publishedAt in the
// catalogue, not the wall clock, so two builds of the same catalogue rank identically.
import type { PublicVideo } from '../catalogue/public-catalogue.ts';

export const TRENDING_HALF_LIFE_DAYS = 14;
const DAY_MS = 86_400_000;

export function referenceTime(videos: readonly PublicVideo[]): number {
  let latest = 0;
  for (const v of videos) latest = Math.max(latest, Date.parse(v.publishedAt));
  return latest;
}

export function trendingScore(video: PublicVideo, reference: number): number {
  const ageDays = Math.max(0, (reference - Date.parse(video.publishedAt)) / DAY_MS);
  return Math.log10(1 + video.views + 10 * video.likes) * 0.5 ** (ageDays / TRENDING_HALF_LIFE_DAYS);
}
