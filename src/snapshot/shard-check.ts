// Checks the served snapshot's page files before a rebuild hard-links them into the new snapshot
// (page-writer.ts, docs/reliability.md, "Page shards and hard links"): every file of a shard must
// have the size and SHA-256 the served manifest records, and that manifest must still name the
// snapshot (its SHA-256 is the id), or the shard is not linked (its pages are copied by range,
// each range checked, or rendered). A linked file shares its bytes with the served one, so it is
// checked whole once, here, instead of page by page. The check runs on a worker thread while the
// pages are rendered, shard by shard; a shard that stops being linkable is skipped (`skip`); when
// the pages are done, this thread checks the shards the worker has not reached yet, alongside it.
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { MANIFEST_FILE, PAGE_KINDS, pageFileName } from './layout.ts';
import { SNAPSHOT_ID_LENGTH, type FileRecord } from './manifest.ts';
import { hashFile } from './page-files.ts';

/** A shard's state in the shared array: waiting, skipped, being checked, whole, or not. */
export const SHARD = { waiting: 0, skipped: 1, checking: 2, whole: 3, damaged: 4 } as const;

export interface ShardCheckJob {
  readonly dir: string;
  readonly id: string;
  /** per shard, its three files: [name, size, sha256] */
  readonly shards: readonly (readonly [string, number, string][])[];
  /** SHARD states, one Int32 a shard, then one for the manifest (SHARD.whole or .damaged) */
  readonly states: SharedArrayBuffer;
}

export interface ShardCheck {
  /** the number of shards checked (the served snapshot's) */
  readonly shards: number;
  /** how many shards were skipped from the start (they hold pages known to change: they will most likely be written) */
  readonly skippedFromStart: number;
  /** This shard will not be linked: its files need not be checked. */
  skip(shard: number): void;
  /** This shard, skipped before, may be linked after all: it is checked again (by `finish` at the latest). */
  want(shard: number): void;
  /** Waits until every shard not skipped is checked (this thread helping); whether each is whole. */
  finish(): Promise<(shard: number) => boolean>;
  /** Stops the worker (after a failure, or once finished). */
  stop(): Promise<void>;
}

/** Whether the files of one shard have their recorded sizes and SHA-256 (false when one cannot be read). */
export function shardWhole(dir: string, files: readonly (readonly [string, number, string])[]): boolean {
  try {
    return files.every(([name, size, sha256]) => {
      const file = hashFile(join(dir, name));
      return file.size === size && file.sha256 === sha256;
    });
  } catch {
    return false;
  }
}

/** Whether the manifest in `dir` still names snapshot `id`. */
export function manifestNames(dir: string, id: string): boolean {
  try {
    return hashFile(join(dir, MANIFEST_FILE)).sha256.slice(0, SNAPSHOT_ID_LENGTH) === id;
  } catch {
    return false;
  }
}

/** Checks the claimed shards of a job in order, on whichever thread calls it; the manifest first when `manifest`. */
export function checkShards(job: ShardCheckJob, manifest: boolean): void {
  const states = new Int32Array(job.states);
  const last = job.shards.length;
  if (manifest && Atomics.compareExchange(states, last, SHARD.waiting, SHARD.checking) === SHARD.waiting) {
    Atomics.store(states, last, manifestNames(job.dir, job.id) ? SHARD.whole : SHARD.damaged);
  }
  for (let shard = 0; shard < last; shard++) {
    if (Atomics.compareExchange(states, shard, SHARD.waiting, SHARD.checking) !== SHARD.waiting) continue;
    Atomics.store(states, shard, shardWhole(job.dir, job.shards[shard]!) ? SHARD.whole : SHARD.damaged);
    Atomics.notify(states, shard);
  }
}

/**
 * Starts checking the page files of a snapshot of `shards` shards whose manifest records `files`;
 * the shards in `skipped` are not checked unless `want`ed.
 */
export function startShardCheck(dir: string, id: string, shards: number, files: Readonly<Record<string, FileRecord>>, skipped: Iterable<number> = []): ShardCheck {
  const job: ShardCheckJob = {
    dir, id,
    shards: Array.from({ length: shards }, (_, shard) => PAGE_KINDS.map((kind) => {
      const name = pageFileName(kind, shard);
      return [name, files[name]?.size ?? -1, files[name]?.sha256 ?? ''] as const;
    })),
    states: new SharedArrayBuffer(4 * (shards + 1)),
  };
  const states = new Int32Array(job.states);
  let skippedFromStart = 0;
  for (const shard of skipped) {
    if (states[shard] !== SHARD.skipped) skippedFromStart++;
    states[shard] = SHARD.skipped;
  }
  const worker = new Worker(new URL('./shard-check-worker.ts', import.meta.url), { workerData: job });
  let ended = false;
  const exited = new Promise<void>((resolve) => {
    worker.once('exit', () => {
      ended = true;
      resolve();
    });
    // a worker that fails leaves its shard `checking`: never linked (its state is not `whole`)
    worker.once('error', () => {});
  });
  return {
    shards,
    skippedFromStart,
    skip(shard) {
      Atomics.compareExchange(states, shard, SHARD.waiting, SHARD.skipped);
    },
    want(shard) {
      Atomics.compareExchange(states, shard, SHARD.skipped, SHARD.waiting);
    },
    async finish() {
      checkShards(job, true);
      // shards the worker is checking now are waited for
      if (!ended) await exited;
      const manifestWhole = Atomics.load(states, shards) === SHARD.whole;
      return (shard) => manifestWhole && Atomics.load(states, shard) === SHARD.whole;
    },
    async stop() {
      if (!ended) await worker.terminate();
    },
  };
}
