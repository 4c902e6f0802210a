// The page files' write(2) calls and SHA-256 on a worker thread (page-file-sink-worker.ts), so that
// the pages phase's main thread only copies bytes: a rebuild with 1% of the videos changed writes
// nearly every shard (890 MB for pyvideo-100k), whose hashing and writing took its main thread
// about 0.9 s while the second core idled (docs/performance.md, "The 1% rebuild"). The main thread
// opens and closes the files (an error opening one is thrown where it was); each write is a copy
// of the bytes into a chunk (an ArrayBuffer made zero-filled, then holding only bytes copied into
// it) transferred to the worker and back once written, never shared. The chunks of a file are
// written in the order given (one worker, one queue), so a file's bytes and SHA-256 are those of
// writing them here. A failed write is thrown here at the next call that takes the worker's
// answers, with its code (a full disk is said as such: disk-faults.ts).
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { FileRecord } from './manifest.ts';

/** What the worker is sent: a chunk to append to the file `fd`, or (no chunk) the file's end. */
export type SinkMessage = { readonly fd: number; readonly chunk: Uint8Array<ArrayBuffer> } | { readonly fd: number; readonly chunk?: undefined };

/** What the worker answers: a chunk's buffer, written; an ended file's record; its failure. */
export type SinkAnswer =
  | { readonly returned: ArrayBuffer }
  | { readonly fd: number; readonly record: FileRecord }
  | { readonly failed: { readonly message: string; readonly code?: string } };

export interface SinkWorkerData {
  /** the port answers go on (read with receiveMessageOnPort) */
  readonly answers: MessagePort;
  /** an Int32 counter the worker adds one to after each answer, and notifies */
  readonly signal: SharedArrayBuffer;
}

/** Chunk sizes: a page file's 64 KB buffer goes in a small chunk, bigger appends in large ones. */
const SMALL_CHUNK = 64 << 10;
const LARGE_CHUNK = 1 << 20;
/** Chunk bytes posted and not yet handed back above which `keepUp` waits for the worker. */
const MAX_IN_FLIGHT = 32 << 20;

export interface PageFileSinks {
  /** Appends a copy of `data` to the file `fd` (opened by the caller), after what was written to it before; keeps nothing of `data`. */
  write(fd: number, data: Uint8Array): void;
  /** Ends the file `fd`: its size and SHA-256 come with `finish` (the caller closes it then). */
  end(fd: number): void;
  /** Waits while more than MAX_IN_FLIGHT bytes are posted and not written (keeps memory bounded); throws the worker's failure. */
  keepUp(): Promise<void>;
  /** Waits until every file ended is written; their records by descriptor. Ends the worker. */
  finish(): Promise<Map<number, FileRecord>>;
  /** Ends the worker without waiting for its writes (after a failure). */
  abort(): Promise<void>;
}

export function createPageFileSinks(): PageFileSinks {
  const { port1: answers, port2 } = new MessageChannel();
  const signal = new SharedArrayBuffer(4);
  const counter = new Int32Array(signal);
  const workerData: SinkWorkerData = { answers: port2, signal };
  const worker = new Worker(new URL('./page-file-sink-worker.ts', import.meta.url), { workerData, transferList: [port2] });
  let ended = false;
  let failure: Error | undefined;
  let gone = false;
  const exited = new Promise<void>((resolve) => {
    worker.once('error', (error) => {
      failure ??= error;
      gone = true;
      resolve();
    });
    worker.once('exit', (code) => {
      if (!ended) failure ??= new Error(`the worker writing the page files stopped (exit code ${code}) before they were written`);
      gone = true;
      resolve();
    });
  });
  /** the chunks owned here, free, by size */
  const free = new Map<number, ArrayBuffer[]>([[SMALL_CHUNK, []], [LARGE_CHUNK, []]]);
  let inFlight = 0;
  const records = new Map<number, FileRecord>();
  let ends = 0;

  const take = (message: SinkAnswer) => {
    if ('returned' in message) {
      inFlight -= message.returned.byteLength;
      free.get(message.returned.byteLength)!.push(message.returned);
    } else if ('record' in message) {
      records.set(message.fd, message.record);
    } else {
      failure ??= Object.assign(new Error(message.failed.message), message.failed.code === undefined ? {} : { code: message.failed.code });
    }
  };
  /** Takes every answer posted so far; throws the worker's failure. */
  const receive = () => {
    for (let answer = receiveMessageOnPort(answers); answer !== undefined; answer = receiveMessageOnPort(answers)) take(answer.message as SinkAnswer);
    if (failure) throw failure;
  };
  /** Takes the worker's answers until `done`, waiting for each next one (or the worker's end). */
  const waitUntil = async (done: () => boolean) => {
    for (;;) {
      const seen = Atomics.load(counter, 0);
      receive();
      if (done()) return;
      if (gone) throw new Error('the worker writing the page files was ended before they were written');
      const wait = Atomics.waitAsync(counter, 0, seen);
      if (wait.async) await Promise.race([wait.value, exited]);
    }
  };
  const chunkFor = (size: number): ArrayBuffer => {
    let chunk = free.get(size)!.pop();
    if (chunk === undefined) {
      receive();
      chunk = free.get(size)!.pop() ?? new ArrayBuffer(size);
    }
    inFlight += size;
    return chunk;
  };

  return {
    write(fd, data) {
      if (failure) throw failure;
      for (let at = 0; at < data.length; at += LARGE_CHUNK) {
        const piece = data.subarray(at, Math.min(data.length, at + LARGE_CHUNK));
        const chunk = new Uint8Array(chunkFor(piece.length <= SMALL_CHUNK ? SMALL_CHUNK : LARGE_CHUNK), 0, piece.length);
        chunk.set(piece);
        worker.postMessage({ fd, chunk } satisfies SinkMessage, [chunk.buffer]);
      }
    },
    end(fd) {
      if (failure) throw failure;
      worker.postMessage({ fd } satisfies SinkMessage);
      ends++;
    },
    async keepUp() {
      await waitUntil(() => inFlight <= MAX_IN_FLIGHT);
    },
    async finish() {
      await waitUntil(() => records.size >= ends);
      ended = true;
      await worker.terminate();
      return records;
    },
    async abort() {
      ended = true;
      await worker.terminate();
    },
  };
}
