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

/** What the worker answers: the scores, and every video's list as `pool[offsets[i]..offsets[i + 1]]`. */
export interface DerivedPacked {
  readonly trending: Float64Array;
  readonly pool: Int32Array;
  readonly offsets: Int32Array;
}

export interface DeriveTask {
  /** rejects when the worker failed or stopped first */
  readonly derived: Promise<Derived>;
  /** ends the worker (after a failure elsewhere) */
  stop(): Promise<void>;
}

/** The fields of a video that trending and related read (their types say which: trending.ts, related.ts). */
export type DeriveFields = TrendingFields & RelatedFields;

const fieldsOf = ({ id, privacy, tags, channel, category, views, likes, publishedAt }: PublicVideo): DeriveFields =>
  ({ id, privacy, tags, channel, category, views, likes, publishedAt });

export function startDerive(videos: readonly PublicVideo[]): DeriveTask {
  const worker = new Worker(new URL('./derive-worker.ts', import.meta.url), { workerData: { videos: videos.map(fieldsOf) } });
  const derived = new Promise<Derived>((resolve, reject) => {
    let settled = false;
    worker.once('message', ({ trending, pool, offsets }: DerivedPacked) => {
      settled = true;
      const related = new Array<Int32Array>(offsets.length - 1);
      for (let i = 0; i < related.length; i++) related[i] = pool.subarray(offsets[i]!, offsets[i + 1]!);
      resolve({ trending: Array.from(trending), related });
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
  return {
    derived,
    async stop() {
      await worker.terminate();
    },
  };
}
