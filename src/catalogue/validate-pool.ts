// Decodes and validates an import's blocks of lines on worker threads (validate-worker.ts) while
// the main thread reads and writes. Each block's answer is a promise; the import awaits them in the order it submitted
// them and keeps only a few in flight, so memory stays bounded and records are written in file order.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { workerUrl } from '../lib/worker-url.ts';
import type { LineBlock } from './read-ndjson.ts';
import { validateBlock, type ValidatedBlock, type ValidateJob, type ValidateResult } from './validate-worker.ts';

export interface ValidatePool {
  readonly size: number;
  validate(block: LineBlock): Promise<ValidatedBlock>;
  close(): Promise<void>;
}

export function createValidatePool(size = Math.max(1, Math.min(3, availableParallelism() - 1))): ValidatePool {
  // A small heap: a worker holds one block (about a megabyte of text) and its records at a time.
  const workers = Array.from({ length: size }, () => new Worker(workerUrl('./validate-worker.ts', import.meta.url), {
    resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 },
  }));
  const waiting = new Map<number, { resolve: (r: ValidatedBlock) => void; reject: (e: Error) => void }>();
  let next = 0;
  let failure: Error | undefined;
  const failAll = (error: Error) => {
    failure ??= error;
    for (const w of waiting.values()) w.reject(failure);
    waiting.clear();
  };
  for (const worker of workers) {
    worker.on('message', (result: ValidateResult) => {
      waiting.get(result.batch)?.resolve({ lines: result.lines, records: JSON.parse(result.records) as ValidatedBlock['records'], errors: result.errors });
      waiting.delete(result.batch);
    });
    worker.on('error', failAll);
    worker.on('exit', (code) => { if (code !== 0) failAll(new Error(`an import validation worker stopped (exit code ${code})`)); });
  }
  return {
    size,
    validate(block) {
      if (failure) return Promise.reject(failure);
      const batch = next++;
      const answer = new Promise<ValidatedBlock>((resolve, reject) => {
        waiting.set(batch, { resolve, reject });
        const job: ValidateJob = { batch, block };
        workers[batch % workers.length]!.postMessage(job);
      });
      answer.catch(() => {}); // a failure is seen where the answer is awaited, not as an unhandled rejection
      return answer;
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}

/** Validates on the calling thread: for small files, where starting a worker costs more than it saves. */
export function createInlineValidator(): ValidatePool {
  return {
    size: 1,
    validate: async (block) => validateBlock(block),
    close: async () => {},
  };
}
