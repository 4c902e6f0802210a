// Checks the served snapshot's page files before a rebuild hard-links them into the new snapshot
// (page-writer.ts, docs/reliability.md, "Page shards and hard links"): every file of a shard must
// have the size and SHA-256 the served manifest records, and that manifest must still name the
// snapshot (its SHA-256 is the id), or the shard is not linked (its pages are copied by range,
// each range checked, or rendered). A linked file shares its bytes with the served one, so it is
// checked whole once, here, instead of page by page: hashed, unless its stamp is the one recorded
// when a build last hashed it (file-stamps.ts: then nothing wrote it since). The stamps taken while
// hashing, and those found unchanged, are handed back (`verified`) for the build to record. The
// check runs on a worker thread while the pages are rendered, shard by shard; a shard that stops
// being linkable is skipped (`skip`); when the pages are done, this thread checks the shards the
// worker has not reached yet, alongside it.
import { Worker } from 'node:worker_threads';
import { workerUrl } from '../lib/worker-url.ts';
import { dirname, join } from 'node:path';
import { fileSystemClock, unchangedSince, type FileStamp, type FileStamps, type FileSystemClock } from './file-stamps.ts';
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
  /** SHARD states, one Int32 a shard, then one for the manifest (SHARD.whole or .damaged), then how many files were found whole by their stamps */
  readonly states: SharedArrayBuffer;
  /** the stamps recorded for the snapshot's page files (built-from.json) */
  readonly stamps?: FileStamps | undefined;
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
  /** how many files were found whole by their stamps, unread (so far) */
  unread(): number;
  /** the stamps of the files found whole, taken as they were hashed or found unchanged (after `finish`) */
  verified(): FileStamps;
}

/**
 * Whether the files of one shard have their recorded sizes and SHA-256 (false when one cannot be
 * read): a file whose stamp is `stamps`' is, unread; any other is hashed. With `verified`, the
 * stamp of each file found whole is put there (taken as it was hashed, given `clock`, or the
 * unchanged one); `onUnread` is told of each file not read.
 */
export function shardWhole(dir: string, files: readonly (readonly [string, number, string])[], stamps?: FileStamps, verified?: Record<string, FileStamp>, clock?: FileSystemClock, onUnread = () => {}): boolean {
  try {
    return files.every(([name, size, sha256]) => {
      const stamp = stamps?.[name];
      if (stamp !== undefined && stamp[2] === size && unchangedSince(dir, name, stamp)) {
        if (verified) verified[name] = stamp;
        onUnread();
        return true;
      }
      const file = hashFile(join(dir, name), verified && clock);
      const whole = file.size === size && file.sha256 === sha256;
      if (whole && verified && file.stamp) verified[name] = file.stamp;
      return whole;
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

/**
 * Checks the claimed shards of a job in order, on whichever thread calls it; the manifest first when
 * `manifest`. The stamps of the files found whole go into `verified` (read against the file
 * system's clock, beside the snapshots, before the first file).
 */
export function checkShards(job: ShardCheckJob, manifest: boolean, verified: Record<string, FileStamp> = {}): Record<string, FileStamp> {
  const states = new Int32Array(job.states);
  const last = job.shards.length;
  if (manifest && Atomics.compareExchange(states, last, SHARD.waiting, SHARD.checking) === SHARD.waiting) {
    Atomics.store(states, last, manifestNames(job.dir, job.id) ? SHARD.whole : SHARD.damaged);
  }
  const clock = fileSystemClock(dirname(job.dir));
  const unread = () => Atomics.add(states, last + 1, 1);
  for (let shard = 0; shard < last; shard++) {
    if (Atomics.compareExchange(states, shard, SHARD.waiting, SHARD.checking) !== SHARD.waiting) continue;
    Atomics.store(states, shard, shardWhole(job.dir, job.shards[shard]!, job.stamps, verified, clock, unread) ? SHARD.whole : SHARD.damaged);
    Atomics.notify(states, shard);
  }
  return verified;
}

/**
 * Starts checking the page files of a snapshot of `shards` shards whose manifest records `files`;
 * the shards in `skipped` are not checked unless `want`ed; a file whose stamp is `stamps`' is not
 * read.
 */
export function startShardCheck(dir: string, id: string, shards: number, files: Readonly<Record<string, FileRecord>>, skipped: Iterable<number> = [], stamps?: FileStamps): ShardCheck {
  const job: ShardCheckJob = {
    dir, id, stamps,
    shards: Array.from({ length: shards }, (_, shard) => PAGE_KINDS.map((kind) => {
      const name = pageFileName(kind, shard);
      return [name, files[name]?.size ?? -1, files[name]?.sha256 ?? ''] as const;
    })),
    states: new SharedArrayBuffer(4 * (shards + 2)),
  };
  const states = new Int32Array(job.states);
  let skippedFromStart = 0;
  for (const shard of skipped) {
    if (states[shard] !== SHARD.skipped) skippedFromStart++;
    states[shard] = SHARD.skipped;
  }
  const worker = new Worker(workerUrl('./shard-check-worker.ts', import.meta.url), { workerData: job });
  // the worker's stamps, sent before it ends; this thread's, when it helps
  const verified: Record<string, FileStamp> = {};
  worker.once('message', (stamps: Record<string, FileStamp>) => Object.assign(verified, stamps));
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
      checkShards(job, true, verified);
      // shards the worker is checking now are waited for
      if (!ended) await exited;
      const manifestWhole = Atomics.load(states, shards) === SHARD.whole;
      return (shard) => manifestWhole && Atomics.load(states, shard) === SHARD.whole;
    },
    async stop() {
      if (!ended) await worker.terminate();
    },
    unread: () => Atomics.load(states, shards + 1),
    verified: () => verified,
  };
}
