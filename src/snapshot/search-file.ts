// The snapshot's search index (search.json) and its documents' keys and digests
// (SEARCH_DIGESTS_FILE, document-digests.ts). A rebuild that has the served snapshot's digests packs
// the text of only the documents the change log says may have changed (and of those the served
// index does not have), takes every other document's digest from the served file, and then:
// copies the served search.json when every document is the served one (same keys, same digests),
// or has the worker patch the served index with the documents whose digest changed
// (search-index-worker.ts, patch-index.ts). Any other build packs every document and the worker
// indexes them whole. The worker runs while the main thread writes the model data and renders the
// pages. Every way the bytes are those of serialiseSearchIndex(buildSearchIndex(model))
// (docs/architecture.md, "Incremental builds").
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { workerUrl } from '../lib/worker-url.ts';
import type { Changes } from '../catalogue/change-log.ts';
import type { Model } from '../model/build-model.ts';
import { documentDigests, keysDigestOf, parseDigests, sameDocuments, serialiseDigests, type DocumentDigests, type KeyedDigests } from '../search/document-digests.ts';
import { documentsNamedBy, SEARCH_KINDS, searchSources, type SearchKind } from '../search/documents.ts';
import { packedBuffers, packSources, sourcesOf, type PackedDocuments } from '../search/packed-documents.ts';
import type { IndexPatch } from '../search/patch-index.ts';
import { assembleSearchIndex, decodeSearchIndex, serialisedPieces, type SearchIndex } from '../search/search-index.ts';
import { runSteps } from '../model/steps.ts';
import { SEARCH_FILE } from './layout.ts';
import type { FileRecord } from './manifest.ts';
import type { PreviousSnapshot } from './previous-snapshot.ts';
import { slices, writeText } from './text-files.ts';

/** The keys and digests of the documents an index was made of (document-digests.ts): what a rebuild compares to copy or patch it. */
export const SEARCH_DIGESTS_FILE = 'search-documents.json';

/** The served snapshot's search files: its folder and the records its manifest holds of them. */
export interface ServedSearch {
  readonly dir: string;
  readonly search: FileRecord;
  readonly digests: FileRecord;
}

/** What the search index worker is given: where to write (search.json, and the digests file beside it), the documents, and the served index to patch. */
export interface SearchIndexJob {
  readonly file: string;
  readonly documents: PackedDocuments;
  /** whether every document's text is packed; else only those whose digest is not the served one's, and the worker can only patch */
  readonly complete: boolean;
  /** the documents' digests, when the main thread took them (a rebuild from the served digests); else the worker takes them */
  readonly digests?: DocumentDigests | undefined;
  /** the served index to patch, and its documents' digests (read on the main thread) */
  readonly served?: { readonly files: ServedSearch; readonly digests: DocumentDigests } | undefined;
}

/** The search files written, and how: the patch of the served index, or why it could not be patched (neither: built whole with nothing to patch). */
export interface SearchFiles {
  readonly search: FileRecord;
  readonly digests: FileRecord;
  readonly patch?: IndexPatch | undefined;
  readonly refused?: string | undefined;
}

/** The worker's failure when it was handed only the changed documents and the served index cannot be patched: the build hands it every document instead. */
export const NEEDS_EVERY_DOCUMENT = 'ERR_SEARCH_NEEDS_EVERY_DOCUMENT';

/** A search index being built on its worker thread. */
export interface SearchIndexTask {
  /** the written files' records; rejects when the worker failed or stopped first */
  readonly record: Promise<SearchFiles>;
  /** ends the worker (after a failure elsewhere, or when the index is copied instead): it writes nothing more */
  stop(): Promise<void>;
}

/** The search index worker, started before the documents are packed so that its code loads meanwhile; it waits for them. */
export interface SearchWorker extends SearchIndexTask {
  /** hands it the job (the documents' buffers transferred, not copied: unusable after) */
  index(job: Omit<SearchIndexJob, 'file'>): void;
}

/** Writes the index's text a megabyte at a time (never one string of it whole); its size and SHA-256. */
export function writeSearchFile(file: string, index: SearchIndex): FileRecord {
  return writeText(file, serialisedPieces(index).flatMap((piece) => [...slices(piece, 1 << 20)]));
}

/** The digests file of search.json `file`: beside it. */
export const digestsFileOf = (file: string): string => join(dirname(file), SEARCH_DIGESTS_FILE);

/** Writes the documents' keys and digests beside search.json `file`; its size and SHA-256. */
export function writeDigestsFile(file: string, digests: KeyedDigests): FileRecord {
  return writeText(digestsFileOf(file), [serialiseDigests(digests)]);
}

/** A file of the served snapshot, read whole and checked against the size and SHA-256 its manifest records; throws when it does not match. */
function readChecked(dir: string, name: string, record: FileRecord): Buffer {
  const bytes = readFileSync(join(dir, name));
  if (bytes.length !== record.size || createHash('sha256').update(bytes).digest('hex') !== record.sha256) throw new Error(`the served ${name} does not match its manifest`);
  return bytes;
}

/** The served index, checked against the served manifest and decoded without its typo index (a patch does not read it); throws when it is missing, damaged or of another format. */
export function readServedIndex(served: ServedSearch): SearchIndex {
  return runSteps(assembleSearchIndex(decodeSearchIndex(readChecked(served.dir, SEARCH_FILE, served.search), { typos: false })));
}

/** The served documents' keys and digests, checked against the served manifest; throws when the file is missing, damaged or not such a file. */
export function readServedDigests(served: ServedSearch): KeyedDigests {
  return parseDigests(readChecked(served.dir, SEARCH_DIGESTS_FILE, served.digests).toString('utf8'));
}

/** The served snapshot's search files when its manifest records both (a snapshot of older code has no digests: nothing to copy or patch). */
export function servedSearchOf(previous: PreviousSnapshot): ServedSearch | undefined {
  const search = previous.head.files[SEARCH_FILE];
  const digests = previous.head.files[SEARCH_DIGESTS_FILE];
  return search && digests ? { dir: previous.dir, search, digests } : undefined;
}

/** Every search document of the model packed, for a worker that indexes them whole (and takes their digests). */
export function packSearchDocuments(model: Model): PackedDocuments {
  return packSources(searchSources(model));
}

/**
 * The search documents of a rebuild from the served digests: every document's key; the text of
 * those the change log names (`changes`: their records changed since the served snapshot,
 * documents.ts documentsNamedBy) and of those the served index does not have, or of every one
 * when the log cannot be trusted (`changes` undefined); and every document's digest, those left
 * out taken from the served digests by key.
 */
export function packChangedDocuments(model: Model, changes: Changes | undefined, served: KeyedDigests): { documents: PackedDocuments; digests: KeyedDigests; complete: boolean; packed: number } {
  const sources = searchSources(model);
  let include: Record<SearchKind, (d: number) => boolean> | undefined;
  if (changes) {
    const named = documentsNamedBy(model, changes);
    const kind = (k: SearchKind) => {
      // the served documents' keys in the same order (the common rebuild): every document is in the served index
      if (keysDigestOf(sources[k].keys) === served[k].keysDigest) return named[k];
      const servedKeys = new Set(served[k].keys);
      return (d: number) => named[k](d) || !servedKeys.has(sources[k].keys[d]!);
    };
    include = { videos: kind('videos'), channels: kind('channels'), playlists: kind('playlists') };
  }
  const documents = packSources(sources, include);
  // the digests of the packed documents, read from the very buffers the worker is handed
  const digests = documentDigests(sourcesOf(documents, { videos: sources.videos.keys, channels: sources.channels.keys, playlists: sources.playlists.keys }), include, served);
  let packed = 0;
  for (const k of SEARCH_KINDS) for (let d = 0; d < sources[k].count; d++) if (!include || include[k](d)) packed++;
  return { documents, digests, complete: include === undefined, packed };
}

/**
 * Copies the served search.json and digests file when this build's documents are the served ones
 * (`digests`: same keys, same digests; `servedDigests` read by readServedDigests, which checked
 * that file), after checking search.json against the served manifest; undefined
 * when they are other documents or the served files fail their check (the caller builds the index).
 */
export function copySearchIndex(served: ServedSearch, servedDigests: KeyedDigests, digests: KeyedDigests, file: string): SearchFiles | undefined {
  if (!sameDocuments(digests, servedDigests)) return undefined;
  let search: Buffer;
  try {
    search = readChecked(served.dir, SEARCH_FILE, served.search);
  } catch {
    return undefined;
  }
  writeFileSync(file, search);
  // the same documents make the same digests file: the served one, checked when it was read (readServedDigests)
  copyFileSync(join(served.dir, SEARCH_DIGESTS_FILE), digestsFileOf(file));
  return { search: served.search, digests: served.digests };
}

/**
 * Starts the worker that will build the search index into `file` once it is handed its job
 * (SearchWorker.index). `limits` bounds the worker's heap (the default is V8's, as for the main thread).
 */
export function startSearchWorker(file: string, limits?: ResourceLimits): SearchWorker {
  const worker = new Worker(workerUrl('./search-index-worker.ts', import.meta.url), { resourceLimits: limits });
  let handed = false;
  const record = new Promise<SearchFiles>((resolve, reject) => {
    let settled = false;
    worker.once('message', (written: SearchFiles) => {
      settled = true;
      resolve(written);
    });
    worker.once('error', (error: Error & { code?: string }) => {
      settled = true;
      // the code is kept: a full disk met by the worker is said as such (disk-faults.ts), and NEEDS_EVERY_DOCUMENT
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
    index(job) {
      if (handed) throw new Error('the search index worker was already handed its documents');
      handed = true;
      worker.postMessage({ ...job, file } satisfies SearchIndexJob, packedBuffers(job.documents));
    },
    async stop() {
      await worker.terminate();
    },
  };
}
