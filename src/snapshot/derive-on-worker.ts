// Trending and related on a worker thread (derive-worker.ts), so that the main thread makes every
// video's input key (page-inputs.ts) meanwhile: the two are independent, and the second core is
// otherwise idle before the pages (docs/architecture.md, "Incremental builds"). The worker is
// given only the fields trending and related read (trending.ts, related.ts); the result is what
// deriveCatalogue gives in this thread, each list a view of one transferred buffer
// (tests/unit/snapshot/derive-on-worker.test.ts).
//
// Given the catalogue's file, the worker reads those fields itself (read-catalogue.ts
// readDeriveFields: a quarter of the whole read) and computes while this thread reads the rest;
// given the served snapshot too, it first reads only the fields of the videos the change log names
// since that snapshot and, when none of them changed (FieldDigests), answers the served numbers
// without reading the others (derive-worker.ts). Its own connection may see another state of the
// catalogue than this thread's (a write committed between the two reads), and the log is only a
// hint, so its answer carries the fingerprint of the fields its numbers were computed from, and is
// used only when the fingerprint of this thread's records is the same; otherwise (or when the
// worker could not read) it is given this thread's fields and computes again.
import { createHash } from 'node:crypto';
import { dirname } from 'node:path';
import { Worker } from 'node:worker_threads';
import { workerUrl } from '../lib/worker-url.ts';
import type { ChangeLogMark } from '../catalogue/change-log.ts';
import { readBuiltFrom } from './swap.ts';
import type { DeriveRecord } from '../catalogue/read-catalogue.ts';
import type { FileRecord } from './manifest.ts';
import type { Derived } from '../model/build-model.ts';
import type { RelatedFields } from '../model/related.ts';
import type { TrendingFields } from '../model/trending.ts';
import type { OrderFields, VideoOrders } from '../model/video-orders.ts';
import { lowerBound } from '../lib/lower-bound.ts';

/** What the worker answers: the scores, and every video's list as `pool[offsets[i]..offsets[i + 1]]`. */
export interface DerivedPacked {
  readonly trending: Float64Array;
  readonly pool: Int32Array;
  readonly offsets: Int32Array;
  /** the public videos in each sort order (model/video-orders.ts) */
  readonly orders: VideoOrders;
  /** what the numbers were computed from, video by video (FieldDigests): kept in derived.bin for the next build */
  readonly digests: FieldDigests;
}

/**
 * A digest of each video's fields (the line fingerprintOf hashes) and of each video's id, each list
 * sorted (the videos' order is not needed: a digest is looked up, not placed). A rebuild reads only
 * the fields of the videos the change log names, and looks their digests up in the served
 * snapshot's (derive-worker.ts): a video whose fields are among them, or a video no longer visible
 * whose id is not, leaves the fields as they were. A hint of where to start, never a check: the
 * numbers are used only when the fingerprint of the main thread's own records is the one they were
 * computed from (prepareDerive).
 */
export interface FieldDigests {
  readonly fields: Float64Array;
  readonly ids: Float64Array;
}

/** The served snapshot whose derived.bin the worker may take (derived-file.ts), and the file's record it used. */
export interface ServedDerived {
  readonly id: string;
  readonly record: FileRecord;
}

/** derived.bin as the worker took it (ServedDerived), and how it knew to. */
export interface TakenDerived extends ServedDerived {
  /**
   * how the worker knew the fields were those the file's numbers were computed from before the main
   * thread's check: the change log named no video whose fields changed (`log`), or its own read of
   * every video's fields had the file's fingerprint (`read`)
   */
  readonly by: 'log' | 'read';
}

/**
 * The worker's answer: what it computed from its own read (with the fingerprint of the fields read;
 * with `served`, taken from that snapshot's derived.bin instead) or from the fields given; or why
 * its own read failed.
 */
export type DeriveAnswer = (DerivedPacked & { readonly fingerprint?: string; readonly served?: TakenDerived }) | { readonly unread: string };

/**
 * What the worker is sent: the catalogue to read the fields from (and the served snapshot to look
 * in, with the mark of the change log it was built from when one is recorded: built-from.json), or
 * the fields.
 */
export type DeriveJob = { readonly catalogue: string; readonly served?: ServedForDerive } | { readonly videos: readonly DeriveFields[] };

/** The served snapshot the worker may take the numbers of, and where the change log stood when it was built. */
export interface ServedForDerive {
  readonly id: string;
  readonly dir: string;
  readonly mark?: ChangeLogMark | undefined;
}

/** Where the answer came from: the worker's own read, the served snapshot's derived.bin, or the fields given. */
export type DeriveSource = 'read' | 'served' | 'given';

export interface DeriveTask {
  /** rejects when the worker failed or stopped first */
  readonly derived: Promise<Derived>;
  /** where the answer came from (rejects as `derived` does) */
  readonly source: Promise<DeriveSource>;
  /** the answer as derived.bin holds it, with the fingerprint of its fields (rejects as `derived` does) */
  readonly packed: Promise<{ readonly packed: DerivedPacked; readonly fingerprint: string }>;
  /** with source `served`: how the worker knew to take the served numbers (ServedDerived `by`); else undefined */
  readonly servedBy: Promise<TakenDerived['by'] | undefined>;
  /** ends the worker (after a failure elsewhere) */
  stop(): Promise<void>;
}

/** The fields of a video that trending, related and the sort orders read (their types say which: trending.ts, related.ts, video-orders.ts). */
export type DeriveFields = TrendingFields & RelatedFields & OrderFields;

// read-catalogue.ts reads exactly these fields for the worker
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const SAME_FIELDS: Same<DeriveFields, DeriveRecord> = true;
void SAME_FIELDS;

const fieldsOf = ({ id, privacy, tags, channel, category, views, likes, publishedAt }: DeriveFields): DeriveFields =>
  ({ id, privacy, tags, channel, category, views, likes, publishedAt });

/** Records fingerprinted a piece: one hash update per piece, not per record. */
const FINGERPRINT_PIECE = 1024;

/** The text of one video's fields that the fingerprint hashes (and its digest is made of). */
export const fieldsLine = (v: DeriveFields): string => JSON.stringify([v.id, v.privacy, v.tags, v.channel, v.category ?? null, v.views, v.likes, v.publishedAt]);

/** A SHA-256 of every field the worker computes from, video by video: equal for the same fields in the same order. */
export function fingerprintOf(videos: readonly DeriveFields[]): string {
  return fingerprinted(videos, undefined);
}

/** fingerprintOf, and each video's digests when `digests` is given (FieldDigests: each line made once for both). */
function fingerprinted(videos: readonly DeriveFields[], digests: { fields: Float64Array; ids: Float64Array } | undefined): string {
  const hash = createHash('sha256');
  for (let from = 0; from < videos.length; from += FINGERPRINT_PIECE) {
    let piece = '';
    const to = Math.min(videos.length, from + FINGERPRINT_PIECE);
    for (let i = from; i < to; i++) {
      const line = fieldsLine(videos[i]!);
      if (digests) {
        digests.fields[i] = digestOf(line);
        digests.ids[i] = digestOf(videos[i]!.id);
      }
      piece += `${line}\n`;
    }
    hash.update(piece);
  }
  return hash.update(String(videos.length)).digest('base64');
}

/** fingerprintOf and the FieldDigests of `videos` (on the worker: derive-worker.ts). */
export function fingerprintAndDigests(videos: readonly DeriveFields[]): { readonly fingerprint: string; readonly digests: FieldDigests } {
  const digests = { fields: new Float64Array(videos.length), ids: new Float64Array(videos.length) };
  const fingerprint = fingerprinted(videos, digests);
  digests.fields.sort();
  digests.ids.sort();
  return { fingerprint, digests };
}

/**
 * A 53-bit digest of a text (cyrb53: two 32-bit multiply-xor hashes of its UTF-16 units, mixed),
 * exact as a double. Not cryptographic, and need not be: it only guesses where the worker starts
 * (FieldDigests); a collision costs a computation, never a wrong number.
 */
export function digestOf(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ unit, 2654435761);
    h2 = Math.imul(h2 ^ unit, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** Whether the sorted `digests` hold `digest` (binary search). */
export function holds(digests: Float64Array, digest: number): boolean {
  const at = lowerBound(digests, digest);
  return at < digests.length && digests[at] === digest;
}

/** A worker started before its videos are known: it loads its code while the catalogue is read. */
export interface PendingDerive {
  /**
   * hands the worker the videos (once): the task of computing their trending and related; `reuse`
   * names the snapshot the build chose to reuse and its derived.bin's record, whose numbers may be taken
   */
  give(videos: readonly DeriveFields[], reuse?: ServedDerived): DeriveTask;
  /** ends the worker (the build failed before it had its videos) */
  stop(): Promise<void>;
}

/** The worker's answers in order, waited for one at a time; a failure or exit rejects every wait from then on. */
function answersOf(worker: Worker): () => Promise<DeriveAnswer> {
  const queue: DeriveAnswer[] = [];
  let waiting: { resolve(answer: DeriveAnswer): void; reject(error: Error): void } | undefined;
  let failure: Error | undefined;
  const fail = (error: Error) => {
    failure ??= error;
    waiting?.reject(failure);
    waiting = undefined;
  };
  worker.on('message', (answer: DeriveAnswer) => {
    if (waiting) {
      waiting.resolve(answer);
      waiting = undefined;
    } else {
      queue.push(answer);
    }
  });
  worker.once('error', (error: Error) => fail(new Error(`trending and related could not be computed: ${error.message}`, { cause: error })));
  worker.once('exit', (code) => fail(new Error(`the trending and related worker stopped (exit code ${code}) before answering`)));
  return () => {
    if (queue.length > 0) return Promise.resolve(queue.shift()!);
    if (failure) return Promise.reject(failure);
    return new Promise((resolve, reject) => (waiting = { resolve, reject }));
  };
}

function unpack({ trending, pool, offsets, orders }: DerivedPacked): Derived {
  const related = new Array<Int32Array>(offsets.length - 1);
  for (let i = 0; i < related.length; i++) related[i] = pool.subarray(offsets[i]!, offsets[i + 1]!);
  return { trending: Array.from(trending), related, orders };
}

/**
 * Starts the worker now, to be given its videos later (`give`): its start-up (loading and
 * compiling its modules, a few hundred milliseconds) happens while the main thread reads the
 * catalogue, not after. With `catalogue` (the file this thread reads too), it reads its fields
 * from it at once and computes, or takes what `served` (a snapshot the build may reuse) computed
 * from the same fields; `give` then only checks that they are this thread's.
 */
export function prepareDerive(catalogue?: string, served?: { readonly id: string; readonly dir: string }): PendingDerive {
  const worker = new Worker(workerUrl('./derive-worker.ts', import.meta.url));
  const next = answersOf(worker);
  if (catalogue !== undefined) worker.postMessage({ catalogue, ...(served ? { served: { ...served, mark: markOf(served) } } : {}) } satisfies DeriveJob);
  const stop = async () => {
    await worker.terminate();
  };
  let given = false;
  return {
    give(videos, reuse) {
      if (given) throw new Error('the trending and related worker was already given its videos');
      given = true;
      // what derived.bin records the numbers were computed from, and what the worker's own read must match
      const fingerprint = fingerprintOf(videos);
      let source: DeriveSource = 'given';
      let servedBy: TakenDerived['by'] | undefined;
      const packed = (async () => {
        if (catalogue !== undefined) {
          const own = await next();
          if (!('unread' in own) && own.fingerprint === fingerprint) {
            const taken = own.served;
            // numbers of a served snapshot only when it is the one chosen, its manifest checked, with this very file
            const trusted = taken === undefined || (reuse !== undefined && taken.id === reuse.id && taken.record.size === reuse.record.size && taken.record.sha256 === reuse.record.sha256);
            if (trusted) {
              source = taken === undefined ? 'read' : 'served';
              servedBy = taken?.by;
              return { packed: own as DerivedPacked, fingerprint };
            }
          }
        }
        worker.postMessage({ videos: videos.map(fieldsOf) } satisfies DeriveJob);
        const answer = await next();
        if ('unread' in answer) throw new Error(`trending and related could not be computed: ${answer.unread}`);
        return { packed: answer as DerivedPacked, fingerprint };
      })().finally(() => void worker.terminate());
      packed.catch(() => {});
      const derived = packed.then(({ packed: p }) => unpack(p));
      derived.catch(() => {});
      const from = packed.then(() => source);
      from.catch(() => {});
      const by = packed.then(() => servedBy);
      by.catch(() => {});
      return { derived, source: from, packed, servedBy: by, stop };
    },
    stop,
  };
}

/** The change log's mark recorded beside the snapshots for the served snapshot `served` (built-from.json), if any. */
function markOf(served: { readonly id: string; readonly dir: string }): ChangeLogMark | undefined {
  const builtFrom = readBuiltFrom(dirname(served.dir));
  return builtFrom?.snapshot === served.id ? builtFrom.changeLog : undefined;
}

/** Starts the worker and gives it the videos at once. */
export function startDerive(videos: readonly DeriveFields[]): DeriveTask {
  return prepareDerive().give(videos);
}
