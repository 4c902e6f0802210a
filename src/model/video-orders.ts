// The public videos in each sort order (docs/api-contract.md: newest first, trending, views, likes;
// ties by id), as indexes into the videos: declared once, for the model (build-model.ts
// finishModel) and for the build's worker thread, which computes them beside trending and related
// (src/snapshot/derive-worker.ts) so that the main thread need not sort. Every order is total (ties
// by id, ids unique), so any thread sorting the same fields gets the same indexes.
import type { VideoSort } from './entries.ts';
import { sortInSteps, type Steps } from './steps.ts';

/** What the orders are made from, of one video. */
export interface OrderFields {
  readonly id: string;
  readonly privacy: string;
  readonly publishedAt: string;
  readonly views: number;
  readonly likes: number;
}

/** Each order's public videos, as indexes into the videos given. */
export type VideoOrders = Readonly<Record<VideoSort, Int32Array>>;

const byId = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

/** The orders of `videos` (trending aligned with them), in steps (steps.ts). */
export function* sortVideoOrdersInSteps(videos: readonly OrderFields[], trending: readonly number[]): Steps<VideoOrders> {
  const visible: number[] = [];
  for (let i = 0; i < videos.length; i++) if (videos[i]!.privacy === 'public') visible.push(i);
  yield;
  // Ties go by id. When the videos came in id order (the catalogue's, read-catalogue.ts, and so
  // the model data's), an index orders ids as well, and comparing two numbers is cheaper than
  // comparing two ids that often share a long prefix: a quarter of the sorts' time.
  let idOrder = true;
  for (let i = 1; i < videos.length && idOrder; i++) idOrder = videos[i - 1]!.id < videos[i]!.id;
  const tie = idOrder ? (a: number, b: number) => a - b : (a: number, b: number) => byId(videos[a]!.id, videos[b]!.id);
  const sorted = function* (compare: (a: number, b: number) => number): Steps<Int32Array> {
    return Int32Array.from(yield* sortInSteps(visible, compare));
  };
  return {
    latest: yield* sorted((a, b) => {
      const x = videos[a]!.publishedAt;
      const y = videos[b]!.publishedAt;
      return x < y ? 1 : x > y ? -1 : tie(a, b);
    }),
    trending: yield* sorted((a, b) => trending[b]! - trending[a]! || tie(a, b)),
    views: yield* sorted((a, b) => videos[b]!.views - videos[a]!.views || tie(a, b)),
    likes: yield* sorted((a, b) => videos[b]!.likes - videos[a]!.likes || tie(a, b)),
  };
}
