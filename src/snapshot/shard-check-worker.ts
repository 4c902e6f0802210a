// Worker thread of the build: checks the served snapshot's page files shard by shard (shard-check.ts)
// while the main thread renders the pages, sends the stamps of the files it found whole, then ends.
import { parentPort, workerData } from 'node:worker_threads';
import { checkShards, type ShardCheckJob } from './shard-check.ts';
import { yieldToMainThread } from '../lib/thread-priority.ts';

yieldToMainThread();

parentPort!.postMessage(checkShards(workerData as ShardCheckJob, true));
