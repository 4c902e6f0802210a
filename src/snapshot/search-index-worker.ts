// Worker thread of the build: indexes the search documents it is given (search-index.ts) and writes
// search.json while the main thread renders the pages (search-file.ts startSearchIndex); answers
// with the file's size and SHA-256. A failure is thrown: the main thread's build fails with it.
import { parentPort, workerData } from 'node:worker_threads';
import { unpackDocuments } from '../search/packed-documents.ts';
import { buildSearchIndexOf } from '../search/search-index.ts';
import { writeSearchFile, type SearchIndexJob } from './search-file.ts';

if (parentPort) {
  const { file, documents } = workerData as SearchIndexJob;
  parentPort.postMessage(writeSearchFile(file, buildSearchIndexOf(unpackDocuments(documents))));
}
