// The snapshot's search index file (search.json): built from the model's search documents on a
// worker thread while the main thread renders the pages (search-index-worker.ts), or copied from
// the served snapshot when the model data it was built from is this build's (docs/architecture.md,
// "Incremental builds"). Either way the bytes are those of serialiseSearchIndex(buildSearchIndex(model)).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { Model } from '../model/build-model.ts';
import { searchSources } from '../search/documents.ts';
import { packedBuffers, packSources, type PackedDocuments } from '../search/packed-documents.ts';
import { serialisedPieces, type SearchIndex } from '../search/search-index.ts';
import { MODEL_FILE, SEARCH_FILE } from './layout.ts';
import type { FileRecord } from './manifest.ts';
import type { PreviousSnapshot } from './previous-snapshot.ts';
import { slices, writeText } from './text-files.ts';

/** What the search index worker is given: where to write, and the documents to index. */
export interface SearchIndexJob {
  readonly file: string;
  readonly documents: PackedDocuments;
}

/** A search index being built on its worker thread. */
export interface SearchIndexTask {
  /** the written file's size and SHA-256; rejects when the worker failed or stopped first */
  readonly record: Promise<FileRecord>;
  /** ends the worker (after a failure elsewhere): it writes nothing more */
  stop(): Promise<void>;
}

/** Writes the index's text a megabyte at a time (never one string of it whole); its size and SHA-256. */
export function writeSearchFile(file: string, index: SearchIndex): FileRecord {
  return writeText(file, serialisedPieces(index).flatMap((piece) => [...slices(piece, 1 << 20)]));
}

/**
 * Starts building the search index of `model` into `file` on a worker thread: the worker is
 * started first, so that it loads its code while the documents are packed here, straight from the
 * model (searchSources, packSources), then handed to it (transferred, not copied). `limits`
 * bounds the worker's heap (the default is V8's, as for the main thread).
 */
export function startSearchIndex(file: string, model: Model, limits?: ResourceLimits): SearchIndexTask {
  const worker = new Worker(new URL('./search-index-worker.ts', import.meta.url), { resourceLimits: limits });
  let documents: PackedDocuments;
  try {
    documents = packSources(searchSources(model));
  } catch (error) {
    void worker.terminate();
    throw error;
  }
  const job: SearchIndexJob = { file, documents };
  worker.postMessage(job, packedBuffers(documents));
  const record = new Promise<FileRecord>((resolve, reject) => {
    let settled = false;
    worker.once('message', (written: FileRecord) => {
      settled = true;
      resolve(written);
    });
    worker.once('error', (error: Error & { code?: string }) => {
      settled = true;
      // the code is kept: a full disk met by the worker is said as such (disk-faults.ts)
      reject(Object.assign(new Error(`the search index could not be built: ${error.message}`, { cause: error }), { code: error.code }));
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`the search index worker stopped (exit code ${code}) before writing ${SEARCH_FILE}`));
    });
  });
  // whoever awaits the record sees a failure; until then (the pages failed first) it is not unhandled
  record.catch(() => {});
  return {
    record,
    async stop() {
      await worker.terminate();
    },
  };
}

/**
 * Copies the served snapshot's search index when the model data it was built from is this build's
 * (same SHA-256; the same build code, checked by the caller), after checking the copy's hash
 * against its manifest; undefined when it cannot (the caller builds the index).
 */
export function copySearchIndex(previous: PreviousSnapshot, model: FileRecord, file: string): FileRecord | undefined {
  const recorded = previous.head.files[SEARCH_FILE];
  if (recorded === undefined || previous.head.files[MODEL_FILE]?.sha256 !== model.sha256) return undefined;
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(previous.dir, SEARCH_FILE));
  } catch {
    return undefined;
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (bytes.length !== recorded.size || sha256 !== recorded.sha256) return undefined;
  writeFileSync(file, bytes);
  return { size: bytes.length, sha256 };
}
