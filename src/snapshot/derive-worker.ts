// Worker thread of the build: computes trending scores and related lists (build-model.ts
// deriveCatalogue) and the public videos' sort orders (model/video-orders.ts) from the fields of
// the videos, while the main thread reads the catalogue and takes the model's records
// (derive-on-worker.ts: started before the catalogue is read). The fields are read here from the
// catalogue (read-catalogue.ts readDeriveFields, answered with their fingerprint for the main
// thread to check), or given. When the served snapshot's derived.bin (derived-file.ts) was
// computed from fields of the same fingerprint, its numbers are answered instead of computed.
// Answers with the scores, the lists packed in one transferred buffer and each order as one
// transferred Int32Array. A failure to compute is thrown: the main thread's build fails with it; a
// failure to read is answered, and the main thread gives its fields instead.
import { join } from 'node:path';
import { parentPort } from 'node:worker_threads';
import { openCatalogue } from '../catalogue/open-catalogue.ts';
import { readDeriveFields } from '../catalogue/read-catalogue.ts';
import { computeRelated } from '../model/related.ts';
import { runSteps } from '../model/steps.ts';
import { trendingScores } from '../model/trending.ts';
import { sortVideoOrdersInSteps } from '../model/video-orders.ts';
import { fingerprintOf, type DeriveAnswer, type DeriveFields, type DeriveJob, type DerivedPacked, type ServedDerived } from './derive-on-worker.ts';
import { DERIVED_FILE, readDerivedFile, recordedDerived } from './derived-file.ts';

/** Answers `packed`, its buffers transferred. */
function answer(packed: DerivedPacked & { fingerprint?: string; served?: ServedDerived }): void {
  parentPort!.postMessage(packed, [packed.trending.buffer, packed.pool.buffer, packed.offsets.buffer, ...Object.values(packed.orders).map((o) => o.buffer)] as ArrayBuffer[]);
}

/** Computes and answers (derive-on-worker.ts prepareDerive). */
function derive(videos: readonly DeriveFields[], fingerprint: string | undefined): void {
  // what build-model.ts deriveCatalogue computes (trending.ts, related.ts read nothing else)
  const trending = trendingScores(videos);
  const related = computeRelated(videos, trending);
  const offsets = new Int32Array(related.length + 1);
  for (let i = 0; i < related.length; i++) offsets[i + 1] = offsets[i]! + related[i]!.length;
  const pool = new Int32Array(offsets[related.length]!);
  for (let i = 0; i < related.length; i++) pool.set(related[i]!, offsets[i]!);
  // the sort orders too (video-orders.ts), which the main thread's model would otherwise sort
  const orders = runSteps(sortVideoOrdersInSteps(videos, trending));
  answer({ trending: Float64Array.from(trending), pool, offsets, orders, ...(fingerprint === undefined ? {} : { fingerprint }) });
}

/** The numbers the served snapshot's build computed from fields of this fingerprint, when its derived.bin holds them. */
function takeServed(served: { id: string; dir: string }, fingerprint: string, videos: number): (DerivedPacked & { served: ServedDerived }) | undefined {
  const record = recordedDerived(served.dir);
  const packed = record && readDerivedFile(join(served.dir, DERIVED_FILE), record, fingerprint, videos);
  return packed && record ? { ...packed, served: { id: served.id, record } } : undefined;
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
    derive(job.videos, undefined);
    return;
  }
  let videos: DeriveFields[];
  try {
    videos = readFields(job.catalogue);
  } catch (error) {
    parentPort!.postMessage({ unread: (error as Error).message } satisfies DeriveAnswer);
    return;
  }
  const fingerprint = fingerprintOf(videos);
  const taken = job.served && takeServed(job.served, fingerprint, videos.length);
  if (taken) answer({ ...taken, fingerprint });
  else derive(videos, fingerprint);
});
