// Worker thread of the build: indexes the search documents it is sent (search-index.ts) and writes
// search.json while the main thread writes the model data and renders the pages (search-file.ts
// startSearchWorker: started before the documents are packed, so its code loads meanwhile);
// answers with the file's size and SHA-256. A failure is thrown: the main thread's build fails with it.
import { parentPort } from 'node:worker_threads';
import { sourcesOf } from '../search/packed-documents.ts';
import { buildSearchIndexOf } from '../search/search-index.ts';
import { writeSearchFile, type SearchIndexJob } from './search-file.ts';

parentPort?.once('message', (job: { file: string; documents: SearchIndexJob['documents'] | undefined }) => {
  const sources = sourcesOf(job.documents!);
  // the sources hold the text now, each kind's until it is tokenised (packed-documents.ts)
  job.documents = undefined;
  parentPort!.postMessage(writeSearchFile(job.file, buildSearchIndexOf(sources)));
});
