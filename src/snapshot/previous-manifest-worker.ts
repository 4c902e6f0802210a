// Worker thread of the build: reads the served snapshot's manifest into a page table
// (previous-snapshot.ts readManifestPages, page-table.ts) while the main thread reads the catalogue,
// and answers with it, its buffers transferred (or with why the manifest cannot be used).
import { parentPort, workerData } from 'node:worker_threads';
import { packedBuffers } from './page-table.ts';
import { readManifestPages } from './previous-snapshot.ts';

const { dir, id } = workerData as { dir: string; id: string };
const read = readManifestPages(dir, id);
parentPort!.postMessage(read, typeof read === 'string' ? [] : packedBuffers(read.packed));
