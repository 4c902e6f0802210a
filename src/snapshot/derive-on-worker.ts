// Trending and related on a worker thread (derive-worker.ts), so that the main thread makes every
// video's input key (page-inputs.ts) meanwhile: the two are independent, and the second core is
// otherwise idle before the pages (docs/architecture.md, "Incremental builds"). The worker is
// given only the fields trending and related read (trending.ts, related.ts); the result is what
// deriveCatalogue gives in this thread, each list a view of one transferred buffer
// (tests/unit/snapshot/derive-on-worker.test.ts).
import { Worker } from 'node:worker_threads';
import type { PublicVideo } from '../catalogue/public-catalogue.ts';
import type { Derived } from '../model/build-model.ts';
import type { RelatedFields } from '../model/related.ts';
import type { TrendingFields } from '../model/trending.ts';
import type { OrderFields, VideoOrders } from '../model/video-orders.ts';

/** What the worker answers: the scores, and every video's list as `pool[offsets[i]..offsets[i + 1]]`. */
export interface DerivedPacked {
  readonly trending: Float64Array;
  readonly pool: Int32Array;
  readonly offsets: Int32Array;
  /** the public videos in each sort order (model/video-orders.ts) */
  readonly orders: VideoOrders;
}

export interface DeriveTask {
  /** rejects when the worker failed or stopped first */
  readonly derived: Promise<Derived>;
  /** ends the worker (after a failure elsewhere) */
  stop(): Promise<void>;
}

/** The fields of a video that trending, related and the sort orders read (their types say which: trending.ts, related.ts, video-orders.ts). */
export type DeriveFields = TrendingFields & RelatedFields & OrderFields;

const fieldsOf = ({ id, privacy, tags, channel, category, views, likes, publishedAt }: PublicVideo): DeriveFields =>
  ({ id, privacy, tags, channel, category, views, likes, publishedAt });

/** A worker started before its videos are known: it loads its code while the catalogue is read. */
export interface PendingDerive {
  /** hands the worker the videos (once): the task of computing their trending and related */
  give(videos: readonly PublicVideo[]): DeriveTask;
  /** ends the worker (the build failed before it had its videos) */
  stop(): Promise<void>;
}

/**
 * Starts the worker now, to be given its videos later (`give`): its start-up (loading and
 * compiling its modules, a few hundred milliseconds) happens while the main thread reads the
 * catalogue, not after.
 */
export function prepareDerive(): PendingDerive {
  const worker = new Worker(new URL('./derive-worker.ts', import.meta.url));
  const stop = async () => {
    await worker.terminate();
  };
  const derived = new Promise<Derived>((resolve, reject) => {
    let settled = false;
    worker.once('message', ({ trending, pool, offsets, orders }: DerivedPacked) => {
      settled = true;
      const related = new Array<Int32Array>(offsets.length - 1);
      for (let i = 0; i < related.length; i++) related[i] = pool.subarray(offsets[i]!, offsets[i + 1]!);
      resolve({ trending: Array.from(trending), related, orders });
    });
    worker.once('error', (error: Error) => {
      settled = true;
      reject(new Error(`trending and related could not be computed: ${error.message}`, { cause: error }));
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`the trending and related worker stopped (exit code ${code}) before answering`));
    });
  });
  derived.catch(() => {});
  let given = false;
  return {
    give(videos) {
      if (given) throw new Error('the trending and related worker was already given its videos');
      given = true;
      worker.postMessage({ videos: videos.map(fieldsOf) });
      return { derived, stop };
    },
    stop,
  };
}

/** Starts the worker and gives it the videos at once. */
export function startDerive(videos: readonly PublicVideo[]): DeriveTask {
  return prepareDerive().give(videos);
}
