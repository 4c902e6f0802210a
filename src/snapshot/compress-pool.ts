// Compresses page bodies on worker threads while the main thread renders. Results come back in
// submission order, whatever order the workers finish in, so the snapshot stays byte-identical.
// Each worker holds at most IN_FLIGHT batches; the rest wait here, so that a main thread that has
// rendered far enough ahead (a full build on two cores: compression is the slower half) compresses
// the next waiting batch itself (`compressHere`) instead of idling, with the same function, so the
// bytes are the same whichever thread made them.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { compressBody, type CompressJob, type CompressResult } from './compress-worker.ts';

export type Variants = readonly [Buffer | undefined, Buffer | undefined];

/** batches a worker holds at once: one compressing, one ready to start when it posts the first back */
const IN_FLIGHT = 2;

export interface CompressPool {
  /** Queues bodies; `done` receives each body's [br, gzip] in the order submitted (an empty batch too, in its turn). */
  submit(bodies: Buffer[], done: (variants: Variants[]) => void): void;
  /** Compresses the oldest batch no worker has taken yet, on this thread; false when there is none. */
  compressHere(): boolean;
  /** Waits until every submitted batch has been handed to its `done`. */
  drain(): Promise<void>;
  /** Batches submitted but not yet handed back. */
  readonly pending: number;
  close(): Promise<void>;
}

const asBuffer = (v: Uint8Array | undefined) => v && Buffer.from(v.buffer, v.byteOffset, v.byteLength);

export function createCompressPool(size = Math.max(1, availableParallelism() - 1)): CompressPool {
  const workers = Array.from({ length: size }, () => ({ worker: new Worker(new URL('./compress-worker.ts', import.meta.url)), inFlight: 0 }));
  const callbacks = new Map<number, (variants: Variants[]) => void>();
  const results = new Map<number, Variants[]>();
  /** batches no worker has taken yet, oldest first */
  const waiting: CompressJob[] = [];
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
  /** Hands waiting batches to the workers that have room, the least busy first. */
  const dispatch = () => {
    while (waiting.length > 0) {
      const free = workers.reduce<(typeof workers)[number] | undefined>((best, w) => (w.inFlight < IN_FLIGHT && (best === undefined || w.inFlight < best.inFlight) ? w : best), undefined);
      if (free === undefined) return;
      const job = waiting.shift()!;
      free.inFlight++;
      free.worker.postMessage(job, job.bodies.map((b) => b.buffer as ArrayBuffer));
    }
  };
  for (const slot of workers) {
    slot.worker.on('message', (result: CompressResult) => {
      slot.inFlight--;
      results.set(result.batch, result.variants.map(([br, gzip]) => [asBuffer(br), asBuffer(gzip)]));
      dispatch();
      deliver();
    });
    slot.worker.on('error', (error) => {
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
      waiting.push({ batch, bodies: bodies.map((b) => new Uint8Array(b)) });
      dispatch();
    },
    compressHere() {
      const job = waiting.shift();
      if (job === undefined) return false;
      results.set(job.batch, job.bodies.map((body): Variants => {
        const [br, gzip] = compressBody(body);
        return [asBuffer(br), asBuffer(gzip)];
      }));
      deliver();
      return true;
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
      waiting.length = 0;
      await Promise.all(workers.map((w) => w.worker.terminate()));
    },
  };
}
