// Worker thread of writeTextOffThread (write-text-off-thread.ts): writes and hashes, in order, into
// the file named by its workerData, the chunks of encoded text it is sent (saying when a chunk that
// is not a pooled buffer is written) and the ranges of open files it is sent (read through the
// sender's descriptor: threads share them); hands each pooled buffer back once written, and answers
// `end` with the file's size and SHA-256. A failure (a full
// disk: disk-faults.ts) is thrown, with its code: the build fails with it, said as such.
import { parentPort, workerData } from 'node:worker_threads';
import { BUFFER_BYTES, createFileSink, readRange } from './text-files.ts';
import type { TextChunkMessage, WorkerAnswer } from './write-text-off-thread.ts';
import { yieldToMainThread } from '../lib/thread-priority.ts';

yieldToMainThread();

const sink = createFileSink((workerData as { file: string }).file);
/** the buffer ranges are copied through: only the bytes read into it are written */
let copying: Buffer | undefined;
parentPort!.on('message', (message: TextChunkMessage) => {
  if (message.end) {
    sink.close();
    parentPort!.postMessage({ record: sink.record() } satisfies WorkerAnswer);
    parentPort!.close();
    return;
  }
  if (message.range) {
    const { range } = message;
    copying ??= Buffer.allocUnsafe(BUFFER_BYTES);
    for (let at = range.start; at < range.end;) {
      const read = readRange(range, at, copying, 0);
      sink.write(copying.subarray(0, read));
      at += read;
    }
    return;
  }
  sink.write(message.chunk);
  if (message.pooled) parentPort!.postMessage({ returned: message.chunk.buffer } satisfies WorkerAnswer, [message.chunk.buffer]);
  else parentPort!.postMessage({ written: message.chunk.byteLength } satisfies WorkerAnswer);
});
