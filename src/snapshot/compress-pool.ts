// Compresses page bodies on worker threads while the main thread renders. Pages are queued one by
// one and handed back in the order queued, whatever order the workers finish in, so the snapshot
// stays byte-identical. A page's bytes are copied into the page arena when queued (page-arena.ts:
// chunks shared with the workers, reused), the workers write the variants next to them, and
// `done` gets views of them: nothing is allocated, posted or transferred per page, so the pages
// phase does not make V8 collect the whole heap for the memory its buffers take
// (docs/architecture.md, "Buffers of the pages phase").
// Pages go to the workers in batches; each worker holds at most IN_FLIGHT batches and the rest
// wait here, so that a main thread that has rendered far enough ahead (a full build on two cores:
// compression is the slower half) compresses the next waiting batch itself (`compressHere`)
// instead of idling, with the same function, so the bytes are the same whichever thread made them.
// The workers' results arrive on ports the main thread also reads without waiting (`receive`):
// a thread that never yields (an incremental build copying pages) takes them as it goes and hands
// the worker its next batch at once, instead of leaving the worker idle until the next wait and
// compressing the batches itself (docs/performance.md, "The pages phase, tenth round: runs appended
// whole, the compress worker kept busy").
import { availableParallelism } from 'node:os';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { workerUrl } from '../lib/worker-url.ts';
import { compressInPlace } from './compress-in-place.ts';
import type { CompressMessage, CompressResult, CompressWorkerData } from './compress-worker.ts';
import { createPageArena, type Slot } from './page-arena.ts';

/** A page's br and gzip variants, each undefined when it would not be smaller than the body. */
export type Variants = readonly [Buffer | undefined, Buffer | undefined];

/** batches a worker holds at once: one compressing, one ready to start when it posts the first back */
const IN_FLIGHT = 2;
/** how long a worker told to stop may take to finish its batch before it is terminated */
const STOP_MS = 30_000;
/** pages a batch holds at most (a batch is sent once full, or at `flush`) */
export const BATCH_PAGES = 64;

/** A page in a batch: a body to compress (its slot has room for the variants after it), or variants it already had. */
interface QueuedPage {
  readonly slot: Slot;
  /** the body's length when it is compressed; undefined for variants queued ready */
  readonly body: number | undefined;
  /** the lengths of the ready variants (-1: none), in the slot one after the other */
  readonly ready: readonly [number, number] | undefined;
  readonly done: (variants: Variants) => void;
}

interface Batch {
  readonly id: number;
  readonly pages: QueuedPage[];
  /** per compressed page, the lengths of its variants, once compressed */
  lengths: number[] | undefined;
}

export interface CompressPool {
  /**
   * Queues a page: its `body`, compressed into br and gzip, or the variants it already has
   * (`ready`); either is copied, so the caller may reuse its buffers at once. `done` receives the
   * page's variants in the order pages were queued, as views valid only during the call (copy
   * what is kept).
   */
  queue(page: { readonly body: Buffer } | { readonly ready: Variants }, done: (variants: Variants) => void): void;
  /** Sends the pages queued since the last batch (a batch is sent every BATCH_PAGES pages anyway). */
  flush(): void;
  /** Compresses the oldest batch no worker has taken yet, on this thread; false when there is none. */
  compressHere(): boolean;
  /** Takes the results the workers have posted so far, without waiting: delivers what is ready, hands out the next batches. */
  receive(): void;
  /** Sends what is queued and waits until every page has been handed to its `done`. */
  drain(): Promise<void>;
  /** Batches sent but not yet handed back. */
  readonly pending: number;
  /** Whether no page waits for its variants (one with its variants at hand may be placed at once). */
  readonly idle: boolean;
  /** Bytes of the arena the pages are held in. */
  readonly arenaBytes: number;
  close(): Promise<void>;
}

export function createCompressPool(size = Math.max(1, availableParallelism() - 1)): CompressPool {
  const workers = Array.from({ length: size }, () => {
    const { port1: results, port2 } = new MessageChannel();
    const workerData: CompressWorkerData = { results: port2 };
    const worker = new Worker(workerUrl('./compress-worker.ts', import.meta.url), { workerData, transferList: [port2] });
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    return { worker, exited, results, inFlight: 0 };
  });
  const post = (message: CompressMessage) => {
    for (const { worker } of workers) worker.postMessage(message);
  };
  const arena = createPageArena({ made: (id, buffer) => post({ type: 'chunk', id, buffer }), dropped: (id) => post({ type: 'drop', id }) });
  /** batches sent, not yet delivered, by id */
  const sent = new Map<number, Batch>();
  /** batches no worker has taken yet, oldest first */
  const waiting: Batch[] = [];
  let open: QueuedPage[] = [];
  let next = 0;
  let delivered = 0;
  let failure: Error | undefined;
  let waiters: (() => void)[] = [];

  const viewsOf = (page: QueuedPage, lengths: readonly number[], at: number): Variants => {
    const [br, gzip] = page.ready ?? [lengths[at]!, lengths[at + 1]!];
    const start = page.body ?? 0;
    return [br >= 0 ? arena.view(page.slot, start, br) : undefined, gzip >= 0 ? arena.view(page.slot, page.body === undefined ? Math.max(br, 0) : 2 * page.body, gzip) : undefined];
  };
  const deliver = () => {
    for (let batch = sent.get(delivered); batch?.lengths !== undefined && !failure; batch = sent.get(delivered)) {
      sent.delete(delivered);
      let at = 0;
      try {
        for (const page of batch.pages) {
          page.done(viewsOf(page, batch.lengths, at));
          if (page.body !== undefined) at += 2;
        }
      } catch (error) {
        // e.g. a full disk while appending the variants: drain() rejects with it (no uncaught throw)
        failure = error as Error;
      }
      for (const page of batch.pages) arena.release(page.slot);
      delivered++;
    }
    if (delivered === next || failure) for (const wake of waiters.splice(0)) wake();
  };
  const jobOf = (batch: Batch): number[] => {
    const pages: number[] = [];
    for (const page of batch.pages) if (page.body !== undefined) pages.push(page.slot.chunk, page.slot.offset, page.body);
    return pages;
  };
  /** Hands waiting batches to the workers that have room, the least busy first. */
  const dispatch = () => {
    while (waiting.length > 0) {
      const free = workers.reduce<(typeof workers)[number] | undefined>((best, w) => (w.inFlight < IN_FLIGHT && (best === undefined || w.inFlight < best.inFlight) ? w : best), undefined);
      if (free === undefined) return;
      const batch = waiting.shift()!;
      free.inFlight++;
      free.worker.postMessage({ type: 'job', batch: batch.id, pages: jobOf(batch) } satisfies CompressMessage);
    }
  };
  for (const slot of workers) {
    // each result is taken once: by `receive`, or by the event loop when this thread waits
    slot.results.on('message', (result: CompressResult) => {
      slot.inFlight--;
      sent.get(result.batch)!.lengths = result.lengths;
      dispatch();
      deliver();
    });
    slot.worker.on('error', (error) => {
      failure = error;
      deliver();
    });
  }

  const flush = () => {
    if (open.length === 0) return;
    const batch: Batch = { id: next++, pages: open, lengths: undefined };
    open = [];
    sent.set(batch.id, batch);
    if (batch.pages.every((page) => page.body === undefined)) {
      // nothing to compress (every page of the batch had its variants): delivered in its turn
      batch.lengths = [];
      deliver();
      return;
    }
    waiting.push(batch);
    dispatch();
  };

  return {
    queue(page, done) {
      if (failure) throw failure;
      if ('body' in page) {
        const { body } = page;
        const slot = arena.take(3 * body.length);
        arena.view(slot, 0, body.length).set(body);
        open.push({ slot, body: body.length, ready: undefined, done });
      } else {
        const [br, gzip] = page.ready;
        const slot = arena.take((br?.length ?? 0) + (gzip?.length ?? 0));
        if (br) arena.view(slot, 0, br.length).set(br);
        if (gzip) arena.view(slot, br?.length ?? 0, gzip.length).set(gzip);
        open.push({ slot, body: undefined, ready: [br?.length ?? -1, gzip?.length ?? -1], done });
      }
      if (open.length === BATCH_PAGES) flush();
    },
    flush,
    receive() {
      for (const slot of workers) {
        if (slot.inFlight === 0) continue;
        for (let got = receiveMessageOnPort(slot.results); got !== undefined; got = slot.inFlight > 0 ? receiveMessageOnPort(slot.results) : undefined) {
          const result = got.message as CompressResult;
          slot.inFlight--;
          sent.get(result.batch)!.lengths = result.lengths;
        }
      }
      dispatch();
      deliver();
    },
    compressHere() {
      const batch = waiting.shift();
      if (batch === undefined) return false;
      const lengths: number[] = [];
      for (const page of batch.pages) {
        if (page.body === undefined) continue;
        const { slot } = page;
        lengths.push(...compressInPlace(arena.view(slot), 0, page.body));
      }
      batch.lengths = lengths;
      deliver();
      return true;
    },
    async drain() {
      flush();
      while (delivered < next && !failure) await new Promise<void>((wake) => waiters.push(wake));
      if (failure) throw failure;
    },
    get pending() {
      return next - delivered;
    },
    get idle() {
      return open.length === 0 && next === delivered;
    },
    get arenaBytes() {
      return arena.bytes;
    },
    async close() {
      waiters = [];
      waiting.length = 0;
      open = [];
      for (const w of workers) w.results.close();
      // Each worker is told to stop and ends between two batches, never in the middle of one: a
      // worker terminated in a synchronous compression aborted the whole process (node's zlib,
      // "close before init", met by a build failing on a full disk; docs/reliability.md, "Faults of the file system").
      // A worker that has not stopped after STOP_MS (stuck) is terminated after all.
      for (const w of workers) w.worker.postMessage({ type: 'stop' } satisfies CompressMessage);
      await Promise.all(workers.map(async (w) => {
        let timer: NodeJS.Timeout | undefined;
        const stuck = new Promise<'stuck'>((resolve) => (timer = setTimeout(() => resolve('stuck'), STOP_MS)));
        if ((await Promise.race([w.exited, stuck])) === 'stuck') await w.worker.terminate();
        clearTimeout(timer);
      }));
    },
  };
}
