// The snapshot's search index file (search.json) and its documents' digests (SEARCH_DIGESTS_FILE):
// built from the model's search documents on a worker thread while the main thread renders the
// pages (search-index-worker.ts), patched there from the served index when one of the same code is
// at hand (only the documents whose digest changed are indexed: patch-index.ts), or copied from
// the served snapshot when the packed documents it was built from are this build's (their SHA-256,
// recorded with the file: manifest.ts SearchFileRecord; docs/architecture.md, "Incremental
// builds"). Every way the bytes are those of serialiseSearchIndex(buildSearchIndex(model)).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { Model } from '../model/build-model.ts';
import { parseDigests, serialiseDigests, type DocumentDigests } from '../search/document-digests.ts';
import { SEARCH_KINDS, searchSources, type SearchKind } from '../search/documents.ts';
import { packedBuffers, packedDigest, packSources, type PackedDocuments } from '../search/packed-documents.ts';
import type { IndexPatch } from '../search/patch-index.ts';
import { assembleSearchIndex, decodeSearchIndex, serialisedPieces, type SearchIndex } from '../search/search-index.ts';
import { runSteps } from '../model/steps.ts';
import { SEARCH_FILE } from './layout.ts';
import type { FileRecord, SearchFileRecord } from './manifest.ts';
import type { PreviousSnapshot } from './previous-snapshot.ts';
import { slices, writeText } from './text-files.ts';

/** The digests of the search documents an index was made of (document-digests.ts): what a rebuild compares to patch it. */
export const SEARCH_DIGESTS_FILE = 'search-documents.json';

/** The served snapshot's search files, to be patched: its folder and the records its manifest holds of them. */
export interface ServedSearch {
  readonly dir: string;
  readonly search: FileRecord;
  readonly digests: FileRecord;
}

/** What the search index worker is given: where to write (search.json and the digests beside it), the documents to index, and the served index to patch. */
export interface SearchIndexJob {
  readonly file: string;
  readonly documents: PackedDocuments;
  readonly served: ServedSearch | undefined;
}

/** The search files written, and how: the patch of the served index, or why it could not be patched (undefined: no served index to patch). */
export interface SearchFiles {
  readonly search: SearchFileRecord;
  readonly digests: FileRecord;
  readonly patch?: IndexPatch | undefined;
  readonly refused?: string | undefined;
}

/** What the worker answers: SearchFiles, search.json's record without the documents' digest (the main thread took it). */
export type WrittenSearchFiles = Omit<SearchFiles, 'search'> & { readonly search: FileRecord };

/** The model's search documents packed for the worker, and the SHA-256 of those very bytes (packedDigest). */
export interface SearchDocuments {
  readonly packed: PackedDocuments;
  readonly digest: string;
}

/** A search index being built on its worker thread. */
export interface SearchIndexTask {
  /** the written files' records; rejects when the worker failed or stopped first */
  readonly record: Promise<SearchFiles>;
  /** ends the worker (after a failure elsewhere, or when the index is copied instead): it writes nothing more */
  stop(): Promise<void>;
}

/** The search index worker, started before the documents are packed so that its code loads meanwhile; it waits for them. */
export interface SearchWorker extends SearchIndexTask {
  /** hands it the documents (their buffers transferred, not copied: `documents` is unusable after) to index into its file, patching `served` when it can */
  index(documents: SearchDocuments, served?: ServedSearch): void;
}

/** Writes the index's text a megabyte at a time (never one string of it whole); its size and SHA-256. */
export function writeSearchFile(file: string, index: SearchIndex): FileRecord {
  return writeText(file, serialisedPieces(index).flatMap((piece) => [...slices(piece, 1 << 20)]));
}

/** The digests file of the documents of search.json `file`: beside it. */
export const digestsFileOf = (file: string): string => join(dirname(file), SEARCH_DIGESTS_FILE);

/** Writes the documents' digests beside search.json `file`; its size and SHA-256. */
export function writeDigestsFile(file: string, digests: DocumentDigests): FileRecord {
  return writeText(digestsFileOf(file), [serialiseDigests(digests)]);
}

/** A file of the served snapshot, read whole and checked against the size and SHA-256 its manifest records; throws when it does not match. */
function readChecked(dir: string, name: string, record: FileRecord): Buffer {
  const bytes = readFileSync(join(dir, name));
  if (bytes.length !== record.size || createHash('sha256').update(bytes).digest('hex') !== record.sha256) throw new Error(`the served ${name} does not match its manifest`);
  return bytes;
}

/**
 * The served index and its documents' digests, each file checked against the served manifest and
 * decoded (without the typo index, which a patch does not read); throws when either is missing,
 * damaged or of another format.
 */
export function readServedSearch(served: ServedSearch): { index: SearchIndex; digests: DocumentDigests } {
  const index = runSteps(assembleSearchIndex(decodeSearchIndex(readChecked(served.dir, SEARCH_FILE, served.search), { typos: false })));
  const counts = Object.fromEntries(SEARCH_KINDS.map((k) => [k, index[k].keys.length])) as Record<SearchKind, number>;
  const digests = parseDigests(readChecked(served.dir, SEARCH_DIGESTS_FILE, served.digests).toString('latin1'), counts);
  return { index, digests };
}

/** The served snapshot's search files when its manifest records both (a snapshot of older code has no digests: nothing to patch). */
export function servedSearchOf(previous: PreviousSnapshot): ServedSearch | undefined {
  const search = previous.head.files[SEARCH_FILE];
  const digests = previous.head.files[SEARCH_DIGESTS_FILE];
  return search && digests ? { dir: previous.dir, search, digests } : undefined;
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
  const record = new Promise<SearchFiles>((resolve, reject) => {
    let settled = false;
    worker.once('message', (written: WrittenSearchFiles) => {
      settled = true;
      resolve({ ...written, search: { size: written.search.size, sha256: written.search.sha256, documents: digest! } });
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
    index(documents, served) {
      if (digest !== undefined) throw new Error('the search index worker was already handed its documents');
      digest = documents.digest;
      const job: SearchIndexJob = { file, documents: documents.packed, served };
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
export function copySearchIndex(previous: PreviousSnapshot, documents: string, file: string): SearchFiles | undefined {
  const recorded = previous.head.files[SEARCH_FILE] as Partial<SearchFileRecord> | undefined;
  const served = servedSearchOf(previous);
  if (recorded === undefined || served === undefined || typeof recorded.documents !== 'string' || recorded.documents !== documents) return undefined;
  let search: Buffer;
  let digests: Buffer;
  try {
    search = readChecked(previous.dir, SEARCH_FILE, served.search);
    digests = readChecked(previous.dir, SEARCH_DIGESTS_FILE, served.digests);
  } catch {
    return undefined;
  }
  writeFileSync(file, search);
  writeFileSync(digestsFileOf(file), digests);
  return { search: { size: served.search.size, sha256: served.search.sha256, documents }, digests: served.digests };
}
