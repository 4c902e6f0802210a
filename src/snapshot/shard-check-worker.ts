// Worker thread of the build: checks the served snapshot's page files shard by shard (shard-check.ts)
// while the main thread renders the pages, then ends.
import { workerData } from 'node:worker_threads';
import { checkShards, type ShardCheckJob } from './shard-check.ts';

checkShards(workerData as ShardCheckJob, true);
