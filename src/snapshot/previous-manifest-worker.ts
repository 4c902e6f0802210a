// Worker thread of the build: reads the served snapshot's manifest into a page table
// (previous-snapshot.ts readManifestPages, page-table.ts) while the main thread reads the catalogue,
// and where each page's line is in the file, and answers with them, their buffers transferred (or
// with why the manifest cannot be used).
import { parentPort, workerData } from 'node:worker_threads';
import { packedBuffers } from './page-table.ts';
import { readManifestPages } from './previous-snapshot.ts';
import { yieldToMainThread } from '../lib/thread-priority.ts';

yieldToMainThread();

const { dir, id, fd } = workerData as { dir: string; id: string; fd: number | undefined };
// through the main thread's descriptor when it opened one (threads share them)
const read = readManifestPages(dir, id, fd);
parentPort!.postMessage(read, typeof read === 'string' ? [] : [...packedBuffers(read.packed), read.breaks.buffer]);
