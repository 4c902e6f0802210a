// Worker thread of the build: computes trending scores and related lists (build-model.ts
// deriveCatalogue) and answers with the scores and the lists packed in one transferred buffer.
// Given a catalogue file (derive-on-worker.ts startCheckAndDerive), it first checks the catalogue
// and reads the fields those are made from on its own connection, in one transaction, while the
// main thread reads the records (read-build-input.ts), and computes once told the main thread has
// read them (`go`); given videos (prepareDerive), it computes from their fields. A failure is thrown: the main thread's build fails with it.
import { parentPort } from 'node:worker_threads';
import { CatalogueCheckError, checkCatalogue } from '../catalogue/check-catalogue.ts';
import { openCatalogue } from '../catalogue/open-catalogue.ts';
import { readDeriveFields } from '../catalogue/read-catalogue.ts';
import { readRevision } from '../catalogue/revision.ts';
import { computeRelated } from '../model/related.ts';
import { runSteps } from '../model/steps.ts';
import { trendingScores } from '../model/trending.ts';
import { sortVideoOrdersInSteps } from '../model/video-orders.ts';
import type { CheckedFields, DeriveFields, DerivedPacked, DeriveMessage } from './derive-on-worker.ts';

/** What build-model.ts deriveCatalogue computes (trending.ts, related.ts read nothing else), packed. */
function derive(videos: readonly DeriveFields[]): DerivedPacked {
  const trending = trendingScores(videos);
  const related = computeRelated(videos, trending);
  const offsets = new Int32Array(related.length + 1);
  for (let i = 0; i < related.length; i++) offsets[i + 1] = offsets[i]! + related[i]!.length;
  const pool = new Int32Array(offsets[related.length]!);
  for (let i = 0; i < related.length; i++) pool.set(related[i]!, offsets[i]!);
  // the sort orders too (video-orders.ts), which the main thread's model would otherwise sort
  return { trending: Float64Array.from(trending), pool, offsets, orders: runSteps(sortVideoOrdersInSteps(videos, trending)) };
}

/** The check's verdict and the derive fields of the catalogue at `file`, from one read transaction. */
function checkAndRead(file: string): { check: CheckedFields['check']; revision: string; fields: DeriveFields[] } {
  const db = openCatalogue(file, { readonly: true });
  try {
    return db.transaction(() => {
      const revision = readRevision(db);
      try {
        checkCatalogue(db);
      } catch (error) {
        if (!(error instanceof CatalogueCheckError)) throw error;
        return { check: { problems: error.problems, total: error.total }, revision, fields: [] };
      }
      return { check: undefined, revision, fields: readDeriveFields(db) };
    })();
  } finally {
    db.close();
  }
}

const transfer = (packed: DerivedPacked) =>
  [packed.trending.buffer, packed.pool.buffer, packed.offsets.buffer, ...Object.values(packed.orders).map((o) => o.buffer)] as ArrayBuffer[];

parentPort?.once('message', (message: DeriveMessage) => {
  if ('videos' in message) {
    const packed = derive(message.videos);
    parentPort!.postMessage(packed, transfer(packed));
    return;
  }
  if (!('file' in message)) throw new Error('the trending and related worker was told to go before it was given a catalogue');
  const { check, revision, fields } = checkAndRead(message.file);
  // computed once the main thread has read its records (its `go`, at once when it came during the
  // read above): computing beside that read took its CPU and garbage-collection time under load
  parentPort!.once('message', () => {
    const packed = derive(fields);
    const answer: CheckedFields = { check, revision, videos: fields.length, derived: packed };
    parentPort!.postMessage(answer, transfer(packed));
  });
});
