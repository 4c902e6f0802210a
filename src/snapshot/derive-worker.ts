// Worker thread of the build: computes trending scores and related lists (build-model.ts
// deriveCatalogue) and the public videos' sort orders (model/video-orders.ts) from the fields of
// the videos, while the main thread reads the catalogue and takes the model's records
// (derive-on-worker.ts: started before the catalogue is read). The fields are read here from the
// catalogue (read-catalogue.ts readDeriveFields, answered with their fingerprint for the main
// thread to check), or given. When the served snapshot's derived.bin (derived-file.ts) was
// computed from fields of the same fingerprint, its numbers are answered instead of computed; when
// the change log names no video whose fields differ from those the file's digests hold
// (derive-on-worker.ts FieldDigests), they are answered with the file's fingerprint before any
// other video is read (the main thread's own records must have it).
// Answers with the scores, the lists packed in one transferred buffer and each order as one
// transferred Int32Array. A failure to compute is thrown: the main thread's build fails with it; a
// failure to read is answered, and the main thread gives its fields instead.
import { join } from 'node:path';
import { parentPort } from 'node:worker_threads';
import { readChangesSince } from '../catalogue/change-log.ts';
import { openCatalogue } from '../catalogue/open-catalogue.ts';
import { readDeriveFields, readDeriveFieldsOf } from '../catalogue/read-catalogue.ts';
import { computeRelated } from '../model/related.ts';
import { runSteps } from '../model/steps.ts';
import { trendingScores } from '../model/trending.ts';
import { sortVideoOrdersInSteps } from '../model/video-orders.ts';
import { digestOf, fieldsLine, fingerprintAndDigests, holds, type DeriveAnswer, type DeriveFields, type DeriveJob, type DerivedPacked, type FieldDigests, type ServedForDerive, type TakenDerived } from './derive-on-worker.ts';
import { DERIVED_FILE, derivedFrom, readServedDerived, recordedDerived } from './derived-file.ts';
import { yieldToMainThread } from '../lib/thread-priority.ts';

yieldToMainThread();

/** Answers `packed`, its buffers transferred. */
function answer(packed: DerivedPacked & { fingerprint?: string; served?: TakenDerived }): void {
  const { trending, pool, offsets, orders, digests } = packed;
  parentPort!.postMessage(packed, [trending.buffer, pool.buffer, offsets.buffer, digests.fields.buffer, digests.ids.buffer, ...Object.values(orders).map((o) => o.buffer)] as ArrayBuffer[]);
}

/** Computes and answers (derive-on-worker.ts prepareDerive); `fingerprint` is answered with the numbers when the fields were read here. */
function derive(videos: readonly DeriveFields[], fingerprint: string | undefined, digests: FieldDigests): void {
  // what build-model.ts deriveCatalogue computes (trending.ts, related.ts read nothing else)
  const trending = trendingScores(videos);
  const related = computeRelated(videos, trending);
  const offsets = new Int32Array(related.length + 1);
  for (let i = 0; i < related.length; i++) offsets[i + 1] = offsets[i]! + related[i]!.length;
  const pool = new Int32Array(offsets[related.length]!);
  for (let i = 0; i < related.length; i++) pool.set(related[i]!, offsets[i]!);
  // the sort orders too (video-orders.ts), which the main thread's model would otherwise sort
  const orders = runSteps(sortVideoOrdersInSteps(videos, trending));
  answer({ trending: Float64Array.from(trending), pool, offsets, orders, digests, ...(fingerprint === undefined ? {} : { fingerprint }) });
}

/** The served snapshot's derived.bin, when its manifest's head records it and it is that file (size, SHA-256, format). */
function readServed(served: ServedForDerive): { packed: DerivedPacked; fingerprint: string; record: TakenDerived['record'] } | undefined {
  const record = recordedDerived(served.dir);
  const read = record && readServedDerived(join(served.dir, DERIVED_FILE), record);
  return read && record ? { ...read, record } : undefined;
}

/** Videos the change log may name for the worker to read them alone: beyond this share of the served videos, every video is read. */
const MOST_NAMED = 1 / 4;

/**
 * Whether the fields of the visible videos are, by the change log, those `digests` were made of:
 * every video it names since the served snapshot's mark is either visible with fields the digests
 * hold, or not visible and not among the digests' ids. Only those videos are read (their fields by
 * key), in one transaction with the log. False when the log cannot say (change-log.ts
 * readChangesSince), names too many videos, or the catalogue cannot be read: every video is read.
 */
function unchangedByLog(file: string, mark: NonNullable<ServedForDerive['mark']>, digests: FieldDigests): boolean {
  let db: ReturnType<typeof openCatalogue> | undefined;
  try {
    db = openCatalogue(file, { readonly: true });
    const opened = db;
    return opened.transaction(() => {
      const { changes } = readChangesSince(opened, mark);
      if (changes === undefined) return false;
      const named = [...changes.video];
      if (named.length > digests.ids.length * MOST_NAMED) return false;
      const visible = new Set<string>();
      for (const record of readDeriveFieldsOf(opened, named)) {
        if (!holds(digests.fields, digestOf(fieldsLine(record)))) return false;
        visible.add(record.id);
      }
      // a video no longer visible (made private, removed) that the served numbers counted
      return named.every((id) => visible.has(id) || !holds(digests.ids, digestOf(id)));
    })();
  } catch {
    return false;
  } finally {
    db?.close();
  }
}

/** The fields of the visible videos, read in one transaction of a read-only connection of this thread's own. */
function readFields(file: string): DeriveFields[] {
  const db = openCatalogue(file, { readonly: true });
  try {
    return db.transaction(() => readDeriveFields(db))();
  } finally {
    db.close();
  }
}

parentPort?.on('message', (job: DeriveJob) => {
  if ('videos' in job) {
    derive(job.videos, undefined, fingerprintAndDigests(job.videos).digests);
    return;
  }
  let served = job.served && readServed(job.served);
  if (served && job.served?.mark && unchangedByLog(job.catalogue, job.served.mark, served.packed.digests)) {
    answer({ ...served.packed, fingerprint: served.fingerprint, served: { id: job.served.id, record: served.record, by: 'log' } });
    return;
  }
  // the served numbers are let go while every video is read and, most often, the numbers computed;
  // read again only when the fields turn out to be those they were computed from
  const servedFingerprint = served?.fingerprint;
  served = undefined;
  let videos: DeriveFields[];
  try {
    videos = readFields(job.catalogue);
  } catch (error) {
    parentPort!.postMessage({ unread: (error as Error).message } satisfies DeriveAnswer);
    return;
  }
  const { fingerprint, digests } = fingerprintAndDigests(videos);
  const again = job.served && servedFingerprint === fingerprint ? readServed(job.served) : undefined;
  if (again && job.served && derivedFrom(again, fingerprint, videos.length)) {
    answer({ ...again.packed, fingerprint, served: { id: job.served.id, record: again.record, by: 'read' } });
  } else {
    derive(videos, fingerprint, digests);
  }
});
