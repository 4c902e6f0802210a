// Worker thread of the build: computes trending scores and related lists (build-model.ts
// deriveCatalogue) and the public videos' sort orders (model/video-orders.ts) from the fields of
// the videos it is given, while the main thread reads the served manifest and takes the model's
// records (derive-on-worker.ts: started before the catalogue is read, given the videos
// once they are); answers with the scores, the lists packed in one transferred buffer and each
// order as one transferred Int32Array. A failure is thrown: the main thread's build fails with it.
import { parentPort } from 'node:worker_threads';
import { computeRelated } from '../model/related.ts';
import { runSteps } from '../model/steps.ts';
import { trendingScores } from '../model/trending.ts';
import { sortVideoOrdersInSteps } from '../model/video-orders.ts';
import type { DeriveFields, DerivedPacked } from './derive-on-worker.ts';

/** Computes and answers once the videos come (derive-on-worker.ts prepareDerive: the worker starts before they are read). */
function derive(videos: DeriveFields[]): void {
  // what build-model.ts deriveCatalogue computes (trending.ts, related.ts read nothing else)
  const trending = trendingScores(videos);
  const related = computeRelated(videos, trending);
  const offsets = new Int32Array(related.length + 1);
  for (let i = 0; i < related.length; i++) offsets[i + 1] = offsets[i]! + related[i]!.length;
  const pool = new Int32Array(offsets[related.length]!);
  for (let i = 0; i < related.length; i++) pool.set(related[i]!, offsets[i]!);
  // the sort orders too (video-orders.ts), which the main thread's model would otherwise sort
  const orders = runSteps(sortVideoOrdersInSteps(videos, trending));
  const packed: DerivedPacked = { trending: Float64Array.from(trending), pool, offsets, orders };
  parentPort!.postMessage(packed, [packed.trending.buffer, pool.buffer, offsets.buffer, ...Object.values(orders).map((o) => o.buffer)] as ArrayBuffer[]);
}

parentPort?.once('message', ({ videos }: { videos: DeriveFields[] }) => derive(videos));
