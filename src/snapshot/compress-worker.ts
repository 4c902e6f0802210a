// Worker thread of the build: compresses batches of page bodies (br and gzip) off the main thread.
// The bodies are in the page arena's chunks (page-arena.ts), shared with this thread, and the
// variants are written back into them, each in the room reserved after its body: nothing is
// copied into a message or transferred per page (compress-pool.ts). The main thread compresses
// with the same function (compress-in-place.ts) when it would otherwise wait, so the bytes are the
// same whichever thread made them. Results go back on the port the pool gives in workerData (not the
// worker's own port), so that the main thread can take them without waiting (receiveMessageOnPort:
// compress-pool.ts). The main thread loads only this module's types.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { compressInPlace } from './compress-in-place.ts';
import { yieldToMainThread } from '../lib/thread-priority.ts';

yieldToMainThread();

/** What the main thread posts: a chunk of the arena, a chunk to forget, a batch to compress, or the end (after the batches posted before it). */
export type CompressMessage =
  | { readonly type: 'chunk'; readonly id: number; readonly buffer: SharedArrayBuffer }
  | { readonly type: 'drop'; readonly id: number }
  | { readonly type: 'stop' }
  | { readonly type: 'job'; readonly batch: number; readonly pages: readonly number[] };

/**
 * A compressed batch: per page, the length of its br and gzip variants, -1 for a variant that
 * would not be smaller than the body (none is kept).
 */
export interface CompressResult {
  readonly batch: number;
  readonly lengths: number[];
}

/** Numbers a page takes in a job: its chunk, where its room starts, its body's length. */
const JOB_FIELDS = 3;

/** What the pool gives the worker when it starts it. */
export interface CompressWorkerData {
  /** where the worker posts its results (CompressResult) */
  readonly results: MessagePort;
}

if (parentPort) {
  const port = parentPort;
  const { results } = workerData as CompressWorkerData;
  const chunks = new Map<number, Buffer>();
  port.on('message', (message: CompressMessage) => {
    if (message.type === 'chunk') chunks.set(message.id, Buffer.from(message.buffer));
    else if (message.type === 'drop') chunks.delete(message.id);
    // ends here, between two batches: the pool never terminates a worker in the middle of one (compress-pool.ts close)
    else if (message.type === 'stop') process.exit(0);
    else {
      const { pages } = message;
      const lengths: number[] = [];
      for (let i = 0; i < pages.length; i += JOB_FIELDS) {
        const bytes = chunks.get(pages[i]!);
        if (bytes === undefined) throw new Error(`compress worker: no chunk ${pages[i]}`);
        lengths.push(...compressInPlace(bytes, pages[i + 1]!, pages[i + 2]!));
      }
      const result: CompressResult = { batch: message.batch, lengths };
      results.postMessage(result);
    }
  });
}
