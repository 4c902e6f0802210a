// The page files' write(2) calls and SHA-256 on a worker thread (page-file-sink-worker.ts), so that
// the pages phase's main thread only copies bytes: a rebuild with 1% of the videos changed writes
// nearly every shard (890 MB for pyvideo-100k), whose hashing and writing took its main thread
// about 0.9 s while the second core idled (docs/performance.md, "The 1% rebuild at 15 s"). The main
// thread opens and closes the files (an error opening one is thrown where it was); each append is
// copied into a batch (a 4 MB SharedArrayBuffer made once, zero-filled, then holding only bytes
// copied into it, with the file and range of each append) which the worker holds until it has
// written it: the main thread fills a batch only while the worker does not hold it. Batches are sent when full or at `keepUp` (every 256 pages) once they hold
// a megabyte, not an append at a time: each message wakes the worker, and on a loaded machine
// each wake-up took the main thread tens of microseconds. The appends of a file are written in the
// order given (one worker, one queue), so a file's bytes and SHA-256 are those of writing them
// here. A failed write is thrown here at the next call that takes the worker's answers, with its
// code (a full disk is said as such: disk-faults.ts).
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { workerUrl } from '../lib/worker-url.ts';
import type { FileRecord } from './manifest.ts';

/**
 * What the worker is sent: a batch, bytes of several files one after the other in batch buffer
 * `batch` (the buffer itself the first time it is sent), and what they are: per entry, the file's
 * descriptor, where its bytes start in the batch and how many they are, or (start -1) the file's end.
 */
export interface SinkMessage {
  readonly batch: number;
  readonly buffer?: SharedArrayBuffer | undefined;
  readonly entries: readonly number[];
}

/** What the worker answers: a batch, written (its buffer may be filled again); an ended file's record; its failure. */
export type SinkAnswer =
  | { readonly returned: number }
  | { readonly fd: number; readonly record: FileRecord }
  | { readonly failed: { readonly message: string; readonly code?: string } };

export interface SinkWorkerData {
  /** the port answers go on (read with receiveMessageOnPort) */
  readonly answers: MessagePort;
  /** an Int32 counter the worker adds one to after each answer, and notifies */
  readonly signal: SharedArrayBuffer;
}

/** Bytes a batch holds at most: appends are copied into it one after the other, a bigger one cut. */
const BATCH_BYTES = 4 << 20;
/** Bytes a batch holds from which `keepUp` sends it (else it waits to fill: each message wakes the worker). */
const SEND_AT = 1 << 20;
/** Batch bytes sent and not yet handed back above which `keepUp` waits for the worker. */
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
  /**
   * Starts the worker now, before the first batch, when the caller knows it will write (the page
   * writer, when a shard is sure to be written): its start then overlaps the work before the first
   * batch instead of delaying it. Without it the worker starts with the first batch sent, so
   * nothing written starts no thread.
   */
  start(): void;
}

export function createPageFileSinks(): PageFileSinks {
  const { port1: answers, port2 } = new MessageChannel();
  const signal = new SharedArrayBuffer(4);
  const counter = new Int32Array(signal);
  let ended = false;
  let failure: Error | undefined;
  let gone = false;
  let exited: Promise<void> = Promise.resolve();
  // started with the first batch sent (or by `start`): a rebuild that writes no shard starts no thread
  let worker: Worker | undefined;
  const start = (): Worker => {
    const workerData: SinkWorkerData = { answers: port2, signal };
    const started = new Worker(workerUrl('./page-file-sink-worker.ts', import.meta.url), { workerData, transferList: [port2] });
    exited = new Promise<void>((resolve) => {
      started.once('error', (error) => {
        failure ??= error;
        gone = true;
        resolve();
      });
      started.once('exit', (code) => {
        if (!ended) failure ??= new Error(`the worker writing the page files stopped (exit code ${code}) before they were written`);
        gone = true;
        resolve();
      });
    });
    return started;
  };
  /**
   * The batch buffers: SharedArrayBuffers made once (zero-filled, then holding only bytes copied into
   * them) and reused, shared with the worker, filled here only while the worker does not hold them
   * (sent, not yet returned). Not transferred: a buffer transferred back is a new ArrayBuffer each
   * time, and V8 counted those as new external memory, starting full collections (docs/architecture.md,
   * "Buffers of the pages phase").
   */
  const batches: Uint8Array[] = [];
  /** the batches free to fill */
  const free: number[] = [];
  /** the batch being filled, how much it holds, its entries */
  let batch = -1;
  let used = 0;
  let entries: number[] = [];
  let inFlight = 0;
  /** batches below this one have been sent to the worker once (it keeps their buffers) */
  let sent = 0;
  const records = new Map<number, FileRecord>();
  let ends = 0;

  const take = (message: SinkAnswer) => {
    if ('returned' in message) {
      inFlight -= BATCH_BYTES;
      free.push(message.returned);
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
      if (gone || worker === undefined) throw new Error('the worker writing the page files was ended (or never started) before they were written');
      const wait = Atomics.waitAsync(counter, 0, seen);
      if (wait.async) await Promise.race([wait.value, exited]);
    }
  };
  /** A batch to fill: one returned by the worker, else a new one. */
  const nextBatch = (): number => {
    if (free.length === 0) receive();
    const next = free.pop();
    if (next !== undefined) return next;
    batches.push(new Uint8Array(new SharedArrayBuffer(BATCH_BYTES)));
    return batches.length - 1;
  };
  /** Sends the batch being filled (the worker holds it until it returns it). */
  const send = () => {
    if (entries.length === 0) return;
    const first = batch >= sent;
    (worker ??= start()).postMessage({ batch, buffer: first ? (batches[batch]!.buffer as SharedArrayBuffer) : undefined, entries } satisfies SinkMessage);
    if (first) sent = batch + 1;
    inFlight += BATCH_BYTES;
    batch = -1;
    used = 0;
    entries = [];
  };

  return {
    write(fd, data) {
      if (failure) throw failure;
      for (let at = 0; at < data.length;) {
        if (used === BATCH_BYTES) send();
        if (batch === -1) batch = nextBatch();
        const length = Math.min(data.length - at, BATCH_BYTES - used);
        batches[batch]!.set(data.subarray(at, at + length), used);
        entries.push(fd, used, length);
        used += length;
        at += length;
      }
    },
    end(fd) {
      if (failure) throw failure;
      if (batch === -1) batch = nextBatch();
      entries.push(fd, -1, 0);
      ends++;
    },
    async keepUp() {
      if (used >= SEND_AT) send();
      await waitUntil(() => inFlight <= MAX_IN_FLIGHT);
    },
    async finish() {
      send();
      await waitUntil(() => records.size >= ends);
      ended = true;
      await worker?.terminate();
      answers.close();
      return records;
    },
    async abort() {
      ended = true;
      await worker?.terminate();
      answers.close();
    },
    start() {
      if (!ended) worker ??= start();
    },
  };
}
