// Worker thread of writeTextOffThread (write-text-off-thread.ts): writes and hashes the chunks of
// encoded text it is sent, in order, into the file named by its workerData, hands each pooled
// buffer back once written, and answers `end` with the file's size and SHA-256. A failure (a full
// disk: disk-faults.ts) is thrown, with its code: the build fails with it, said as such.
import { parentPort, workerData } from 'node:worker_threads';
import { createFileSink } from './text-files.ts';
import type { TextChunkMessage } from './write-text-off-thread.ts';

const sink = createFileSink((workerData as { file: string }).file);
parentPort!.on('message', (message: TextChunkMessage) => {
  if (message.end) {
    sink.close();
    parentPort!.postMessage({ record: sink.record() });
    parentPort!.close();
    return;
  }
  sink.write(message.chunk);
  if (message.pooled) parentPort!.postMessage({ returned: message.chunk.buffer }, [message.chunk.buffer]);
});
