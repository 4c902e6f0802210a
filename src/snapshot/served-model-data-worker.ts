// Worker thread of the build: reads the served model data whole through the descriptor the main
// thread opened (threads share descriptors), its SHA-256 and its video and comment lines
// (served-model-data.ts readWhole), and answers with them, the lines' arrays transferred; or with
// nothing when the file cannot be read (the build then makes every line).
import { parentPort, workerData } from 'node:worker_threads';
import { readWhole, readWholeBuffers, type ReadWhole } from './served-model-data.ts';
import { yieldToMainThread } from '../lib/thread-priority.ts';

yieldToMainThread();

let read: ReadWhole | undefined;
try {
  read = readWhole((workerData as { fd: number }).fd);
} catch {
  read = undefined;
}
parentPort!.postMessage(read, read === undefined ? [] : readWholeBuffers(read));
