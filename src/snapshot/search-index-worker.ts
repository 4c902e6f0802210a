// Worker thread of the build: indexes the search documents it is sent (search-index.ts), or patches
// the served index with those whose digest changed (patch-index.ts), and writes search.json and the
// documents' digests file while the main thread writes the model data and renders the pages
// (search-file.ts startSearchWorker: started before the documents are packed, so its code loads
// meanwhile); answers with the files' sizes and SHA-256s. A served index that cannot be read or
// patched is said so and the index built whole, or, when the worker was handed the changed
// documents alone, refused with NEEDS_EVERY_DOCUMENT (the build hands it every one); any other
// failure is thrown: the main thread's build fails with it.
import { parentPort } from 'node:worker_threads';
import { documentDigests } from '../search/document-digests.ts';
import { sourcesOf } from '../search/packed-documents.ts';
import { patchSearchIndex, type IndexPatch } from '../search/patch-index.ts';
import { buildSearchIndexOf, type SearchIndex } from '../search/search-index.ts';
import { NEEDS_EVERY_DOCUMENT, readServedIndex, writeDigestsFile, writeSearchFile, type SearchFiles, type SearchIndexJob } from './search-file.ts';
import { yieldToMainThread } from '../lib/thread-priority.ts';

yieldToMainThread();

parentPort?.once('message', (job: Omit<SearchIndexJob, 'documents'> & { documents: SearchIndexJob['documents'] | undefined }) => {
  const sources = sourcesOf(job.documents!);
  // the sources hold the text now, each kind's until it is tokenised (packed-documents.ts)
  job.documents = undefined;
  const digests = job.digests ?? documentDigests(sources);
  // the keys of the documents, for the digests file: the packed documents'
  const keyed = { videos: { ...digests.videos, keys: sources.videos.keys }, channels: { ...digests.channels, keys: sources.channels.keys }, playlists: { ...digests.playlists, keys: sources.playlists.keys } };
  let index: SearchIndex | undefined;
  let patch: IndexPatch | undefined;
  let refused: string | undefined;
  if (job.served) {
    try {
      ({ index, patch } = patchSearchIndex(readServedIndex(job.served.files), job.served.digests, sources, digests, { complete: job.complete }));
    } catch (error) {
      refused = (error as Error).message;
      if (!job.complete) throw Object.assign(new Error(`the served index could not be patched (${refused}), and not every document was packed`), { code: NEEDS_EVERY_DOCUMENT });
    }
  }
  index ??= buildSearchIndexOf(sources);
  const files: SearchFiles = { search: writeSearchFile(job.file, index), digests: writeDigestsFile(job.file, keyed), patch, refused };
  parentPort!.postMessage(files);
});
