// Trending and related on a worker thread (derive-worker.ts), so that the main thread does other
// work meanwhile: the two are independent, and the second core is otherwise idle
// (docs/architecture.md, "Incremental builds" and "Reading the catalogue on two threads").
// startCheckAndDerive hands the worker the catalogue file: it checks the catalogue and reads the
// fields trending and related read on its own connection while the main thread reads the records;
// prepareDerive/startDerive hand it those fields of videos already read (trending.ts, related.ts).
// The result is what deriveCatalogue gives in this thread, each list a view of one transferred
// buffer (tests/unit/snapshot/derive-on-worker.test.ts).
import { Worker } from 'node:worker_threads';
import type { CatalogueProblem } from '../catalogue/check-catalogue.ts';
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

/** What the worker is given: the fields of videos, or a catalogue file to check and read them from. */
export type DeriveMessage = { readonly videos: readonly DeriveFields[] } | { readonly file: string } | { readonly go: true };

/** What the worker answers when given a catalogue file. */
export interface CheckedFields {
  /** what the check found (check-catalogue.ts), or undefined when it found nothing */
  readonly check: { readonly problems: readonly CatalogueProblem[]; readonly total: number } | undefined;
  /** the catalogue's revision, read in the same transaction */
  readonly revision: string;
  /** the visible videos whose fields were read (none when the check found problems) */
  readonly videos: number;
  readonly derived: DerivedPacked;
}

/** The lists of a packed answer, each a view of its one buffer. */
function unpack({ trending, pool, offsets, orders }: DerivedPacked): Derived {
  const related = new Array<Int32Array>(offsets.length - 1);
  for (let i = 0; i < related.length; i++) related[i] = pool.subarray(offsets[i]!, offsets[i + 1]!);
  return { trending: Array.from(trending), related, orders };
}

/**
 * The worker's one answer: `read` turns its message into the result; rejects with a message when
 * the worker failed, or stopped before answering.
 */
function answerOf<M, T>(worker: Worker, read: (message: M) => T): Promise<T> {
  const answer = new Promise<T>((resolve, reject) => {
    let settled = false;
    worker.once('message', (message: M) => {
      settled = true;
      resolve(read(message));
    });
    worker.once('error', (error: Error) => {
      settled = true;
      reject(new Error(`trending and related could not be computed: ${error.message}`, { cause: error }));
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`the trending and related worker stopped (exit code ${code}) before answering`));
    });
  });
  answer.catch(() => {});
  return answer;
}

export interface CheckAndDeriveTask {
  /** the check's verdict, the revision it read and trending and related of the videos it read; rejects when the worker failed or stopped first */
  readonly result: Promise<{ readonly check: CheckedFields['check']; readonly revision: string; readonly videos: number; readonly derived: Derived }>;
  /** tells the worker this thread has read its records: it computes once it has read its fields (before, it only reads) */
  go(): void;
  /** ends the worker */
  stop(): Promise<void>;
}

/**
 * Starts the worker on the catalogue file: it checks it and reads the derive fields of its visible
 * videos (read-catalogue.ts readDeriveFields: the videos readCatalogue reads, in its order) in one
 * read transaction of its own connection, then, once told (`go`), computes their trending,
 * related and orders. The caller makes sure that transaction saw the catalogue it read itself
 * (read-build-input.ts openBuildInput).
 */
export function startCheckAndDerive(file: string): CheckAndDeriveTask {
  const worker = new Worker(new URL('./derive-worker.ts', import.meta.url));
  const result = answerOf(worker, (answer: CheckedFields) => ({ check: answer.check, revision: answer.revision, videos: answer.videos, derived: unpack(answer.derived) }));
  const message: DeriveMessage = { file };
  worker.postMessage(message);
  let told = false;
  return {
    result,
    go() {
      if (told) return;
      told = true;
      const go: DeriveMessage = { go: true };
      worker.postMessage(go);
    },
    stop: async () => { await worker.terminate(); },
  };
}

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
  const derived = answerOf(worker, unpack);
  let given = false;
  return {
    give(videos) {
      if (given) throw new Error('the trending and related worker was already given its videos');
      given = true;
      const message: DeriveMessage = { videos: videos.map(fieldsOf) };
      worker.postMessage(message);
      return { derived, stop };
    },
    stop,
  };
}

/** Starts the worker and gives it the videos at once. */
export function startDerive(videos: readonly PublicVideo[]): DeriveTask {
  return prepareDerive().give(videos);
}
