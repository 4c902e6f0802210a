// Worker thread of the page writer's sinks (page-file-sinks.ts): hashes (SHA-256) and writes the
// bytes of each batch it is sent to the page files whose descriptors the main thread opened, in the
// order sent, returns each batch once written (the main thread fills it again), and answers a file's end with its size
// and SHA-256. A failed write (a full disk: disk-faults.ts) is answered with its code and message,
// and nothing more is written: the build fails with it, said as such. Answers go on the port given
// in workerData, and each is signalled on the shared counter, so the main thread takes them
// without yielding to its event loop (receiveMessageOnPort) and can wait for one (Atomics).
import { createHash, type Hash } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { writeAll } from './disk-faults.ts';
import type { SinkAnswer, SinkMessage, SinkWorkerData } from './page-file-sinks.ts';
import { yieldToMainThread } from '../lib/thread-priority.ts';

yieldToMainThread();

const { answers, signal } = workerData as SinkWorkerData;
const counter = new Int32Array(signal);
const files = new Map<number, { readonly hash: Hash; size: number }>();
let failed = false;

const answer = (message: SinkAnswer) => {
  answers.postMessage(message);
  Atomics.add(counter, 0, 1);
  Atomics.notify(counter, 0);
};

/** the batch buffers, by number, as the main thread sent each the first time */
const batches: Uint8Array[] = [];

parentPort!.on('message', ({ batch, buffer, entries }: SinkMessage) => {
  if (buffer !== undefined) batches[batch] = new Uint8Array(buffer);
  const bytesOf = batches[batch]!;
  for (let i = 0; i < entries.length; i += 3) {
    const fd = entries[i]!;
    const start = entries[i + 1]!;
    let file = files.get(fd);
    if (file === undefined) files.set(fd, (file = { hash: createHash('sha256'), size: 0 }));
    if (start === -1) {
      files.delete(fd);
      if (!failed) answer({ fd, record: { size: file.size, sha256: file.hash.digest('hex') } });
      continue;
    }
    if (failed) continue;
    const bytes = bytesOf.subarray(start, start + entries[i + 2]!);
    try {
      file.hash.update(bytes);
      writeAll(fd, bytes);
      file.size += bytes.length;
    } catch (error) {
      failed = true;
      const { code } = error as NodeJS.ErrnoException;
      answer({ failed: { message: (error as Error).message, ...(code !== undefined && { code }) } });
    }
  }
  answer({ returned: batch });
});
