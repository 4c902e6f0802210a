// The snapshot's search index file (search.json): built from the model's search documents on a
// worker thread while the main thread renders the pages (search-index-worker.ts), or copied from
// the served snapshot when the packed documents it was built from are this build's (their SHA-256,
// recorded with the file: manifest.ts SearchFileRecord; docs/architecture.md, "Incremental
// builds"). Either way the bytes are those of serialiseSearchIndex(buildSearchIndex(model)).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { Model } from '../model/build-model.ts';
import { searchSources } from '../search/documents.ts';
import { packedBuffers, packedDigest, packSources, type PackedDocuments } from '../search/packed-documents.ts';
import { serialisedPieces, type SearchIndex } from '../search/search-index.ts';
import { SEARCH_FILE } from './layout.ts';
import type { FileRecord, SearchFileRecord } from './manifest.ts';
import type { PreviousSnapshot } from './previous-snapshot.ts';
import { slices, writeText } from './text-files.ts';

/** What the search index worker is given: where to write, and the documents to index. */
export interface SearchIndexJob {
  readonly file: string;
  readonly documents: PackedDocuments;
}

/** The model's search documents packed for the worker, and the SHA-256 of those very bytes (packedDigest). */
export interface SearchDocuments {
  readonly packed: PackedDocuments;
  readonly digest: string;
}

/** A search index being built on its worker thread. */
export interface SearchIndexTask {
  /** the written file's record; rejects when the worker failed or stopped first */
  readonly record: Promise<SearchFileRecord>;
  /** ends the worker (after a failure elsewhere, or when the index is copied instead): it writes nothing more */
  stop(): Promise<void>;
}

/** The search index worker, started before the documents are packed so that its code loads meanwhile; it waits for them. */
export interface SearchWorker extends SearchIndexTask {
  /** hands it the documents (their buffers transferred, not copied: `documents` is unusable after) to index into its file */
  index(documents: SearchDocuments): void;
}

/** Writes the index's text a megabyte at a time (never one string of it whole); its size and SHA-256. */
export function writeSearchFile(file: string, index: SearchIndex): FileRecord {
  return writeText(file, serialisedPieces(index).flatMap((piece) => [...slices(piece, 1 << 20)]));
}

/** The model's search documents packed (searchSources, packSources: straight from the model), and their digest. */
export function packSearchDocuments(model: Model): SearchDocuments {
  const packed = packSources(searchSources(model));
  return { packed, digest: packedDigest(packed) };
}

/**
 * Starts the worker that will build the search index into `file` once it is handed the documents
 * (SearchWorker.index). `limits` bounds the worker's heap (the default is V8's, as for the main thread).
 */
export function startSearchWorker(file: string, limits?: ResourceLimits): SearchWorker {
  const worker = new Worker(new URL('./search-index-worker.ts', import.meta.url), { resourceLimits: limits });
  let digest: string | undefined;
  const record = new Promise<SearchFileRecord>((resolve, reject) => {
    let settled = false;
    worker.once('message', (written: FileRecord) => {
      settled = true;
      resolve({ size: written.size, sha256: written.sha256, documents: digest! });
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
  // whoever awaits the record sees a failure; until then (the pages failed first, or the index was copied) it is not unhandled
  record.catch(() => {});
  return {
    record,
    index(documents) {
      if (digest !== undefined) throw new Error('the search index worker was already handed its documents');
      digest = documents.digest;
      const job: SearchIndexJob = { file, documents: documents.packed };
      worker.postMessage(job, packedBuffers(documents.packed));
    },
    async stop() {
      await worker.terminate();
    },
  };
}

/**
 * Copies the served snapshot's search index when the packed documents it was built from are this
 * build's (`documents`, their digest, is the one its manifest records with it; the same build
 * code, checked by the caller), after checking the copy's size and SHA-256 against its manifest;
 * undefined when it cannot (the caller builds the index). A served manifest that records no digest
 * (a snapshot of older code) is never copied from.
 */
export function copySearchIndex(previous: PreviousSnapshot, documents: string, file: string): SearchFileRecord | undefined {
  const recorded = previous.head.files[SEARCH_FILE] as Partial<SearchFileRecord> | undefined;
  if (recorded === undefined || typeof recorded.documents !== 'string' || recorded.documents !== documents) return undefined;
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(previous.dir, SEARCH_FILE));
  } catch {
    return undefined;
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (bytes.length !== recorded.size || sha256 !== recorded.sha256) return undefined;
  writeFileSync(file, bytes);
  return { size: bytes.length, sha256, documents };
}
