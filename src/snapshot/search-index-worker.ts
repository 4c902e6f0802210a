// Worker thread of the build: indexes the search documents it is given (search-index.ts) and writes
// search.json while the main thread renders the pages (search-file.ts startSearchIndex); answers
// with the file's size and SHA-256. A failure is thrown: the main thread's build fails with it.
import { parentPort, workerData } from 'node:worker_threads';
import { sourcesOf } from '../search/packed-documents.ts';
import { buildSearchIndexOf } from '../search/search-index.ts';
import { writeSearchFile, type SearchIndexJob } from './search-file.ts';

if (parentPort) {
  const job = workerData as { file: string; documents: SearchIndexJob['documents'] | undefined };
  const sources = sourcesOf(job.documents!);
  // the sources hold the text now, each kind's until it is tokenised (packed-documents.ts)
  job.documents = undefined;
  parentPort.postMessage(writeSearchFile(job.file, buildSearchIndexOf(sources)));
}
