// Compresses page bodies on worker threads while the main thread renders. Results come back in
// submission order, whatever order the workers finish in, so the snapshot stays byte-identical.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { CompressJob, CompressResult } from './compress-worker.ts';

export type Variants = readonly [Buffer | undefined, Buffer | undefined];

export interface CompressPool {
  /** Queues bodies; `done` receives each body's [br, gzip] in the order submitted (an empty batch too, in its turn). */
  submit(bodies: Buffer[], done: (variants: Variants[]) => void): void;
  /** Waits until every submitted batch has been handed to its `done`. */
  drain(): Promise<void>;
  /** Batches submitted but not yet handed back. */
  readonly pending: number;
  close(): Promise<void>;
}

export function createCompressPool(size = Math.max(1, availableParallelism() - 1)): CompressPool {
  const workers = Array.from({ length: size }, () => new Worker(new URL('./compress-worker.ts', import.meta.url)));
  const callbacks = new Map<number, (variants: Variants[]) => void>();
  const results = new Map<number, Variants[]>();
  let next = 0;
  let delivered = 0;
  let failure: Error | undefined;
  let waiters: (() => void)[] = [];

  const deliver = () => {
    while (results.has(delivered) && !failure) {
      const variants = results.get(delivered)!;
      results.delete(delivered);
      try {
        callbacks.get(delivered)!(variants);
      } catch (error) {
        // e.g. a full disk while appending the variants: drain() rejects with it (no uncaught throw)
        failure = error as Error;
      }
      callbacks.delete(delivered);
      delivered++;
    }
    if (delivered === next || failure) for (const wake of waiters.splice(0)) wake();
  };
  for (const worker of workers) {
    worker.on('message', (result: CompressResult) => {
      results.set(result.batch, result.variants.map(([br, gzip]) => [br && Buffer.from(br.buffer, br.byteOffset, br.byteLength), gzip && Buffer.from(gzip.buffer, gzip.byteOffset, gzip.byteLength)]));
      deliver();
    });
    worker.on('error', (error) => {
      failure = error;
      deliver();
    });
  }

  return {
    submit(bodies, done) {
      if (failure) throw failure;
      const batch = next++;
      callbacks.set(batch, done);
      if (bodies.length === 0) {
        // nothing to compress (every page of the batch reused its variants): delivered in its turn
        results.set(batch, []);
        deliver();
        return;
      }
      const job: CompressJob = { batch, bodies: bodies.map((b) => new Uint8Array(b)) };
      workers[batch % workers.length]!.postMessage(job, job.bodies.map((b) => b.buffer as ArrayBuffer));
    },
    async drain() {
      while (delivered < next && !failure) await new Promise<void>((wake) => waiters.push(wake));
      if (failure) throw failure;
    },
    get pending() {
      return next - delivered;
    },
    async close() {
      waiters = [];
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
