// writeText's bytes (text-files.ts) with the write(2) calls and the SHA-256 on a worker thread
// (text-file-worker.ts): this thread only encodes the pieces, into a few 2 MB buffers passed to the
// worker and back (transferred, never copied). The model data's 215 MB for pyvideo-100k cost the
// build's main thread 0.7 s of writes and 0.3 s of hashing (docs/performance.md, "The model data
// written off the main thread").
import { Worker } from 'node:worker_threads';
import { workerUrl } from '../lib/worker-url.ts';
import type { FileRecord } from './manifest.ts';
import { BUFFER_BYTES, encodedChunks, type FileBytes, type TextPiece } from './text-files.ts';

/** Buffers in flight: one being encoded here while the worker writes another. */
const BUFFERS = 3;
/**
 * A range of a file at least this long is handed to the worker, which reads it; a shorter one is read
 * into the buffers here (the served manifest's lines between changed pages: thousands of short runs).
 */
const HANDED_FROM = 1 << 20;
/**
 * A chunk smaller than this is sent as a copy and its buffer kept here: a run of served lines after
 * each changed line ends a buffer's filling, and waiting for the buffer to come back each time would
 * make this thread wait for the worker's copies of the ranges before it.
 */
const COPIED_BELOW = 1 << 16;
/** The bytes of copies and buffers of their own sent and not yet written, beyond which this thread waits. */
const UNPOOLED_BYTES = 1 << 23;

/** What the worker is sent: a chunk to write (`pooled` when its buffer goes back), a range of an open file to copy, or the end. */
export type TextChunkMessage =
  | { readonly end?: undefined; readonly range?: undefined; readonly chunk: Uint8Array<ArrayBuffer>; readonly pooled: boolean }
  | { readonly end?: undefined; readonly range: FileBytes }
  | { readonly end: true };

/** What the worker answers: a pooled buffer back, the bytes of a chunk not pooled once written, or the file's record. */
export type WorkerAnswer = { readonly returned: ArrayBuffer; readonly written?: undefined } | { readonly written: number; readonly returned?: undefined } | { readonly record: FileRecord };

/** A text file being written on a worker thread (startTextOffThread). */
export interface TextWriting {
  /** settles once this thread has taken every piece (the file may still be being written); rejects with the pieces' failure or the worker's */
  readonly handed: Promise<void>;
  /** the file's size and SHA-256 once written; rejects as `handed` does, or with the worker's later failure (its code kept: a full disk is said as such) */
  readonly record: Promise<FileRecord>;
  /** stops the worker (a failed build): `record` rejects; resolves once the worker is gone, so that nothing it reads from or writes to is in use */
  stop(): Promise<void>;
}

/**
 * Writes `pieces` (text, or ranges of a file's bytes) into `file` as writeText does (the same bytes, size and SHA-256), the writing and
 * hashing on a worker thread. Rejects with the worker's error (its code kept: a full disk is said as
 * such) or this thread's (the pieces' generator threw); the worker is ended either way.
 */
export async function writeTextOffThread(file: string, pieces: Iterable<TextPiece>): Promise<FileRecord> {
  const writing = startTextOffThread(file, pieces);
  await writing.handed;
  return writing.record;
}

/**
 * writeTextOffThread in two steps: `handed` once this thread has encoded every piece of text and
 * passed on every range of a file of a megabyte or more (the worker reads those itself: this thread
 * never copies them),
 * `record` once the worker has written it all. The caller goes on after `handed` and awaits `record`
 * where the file is needed (the model data: before the manifest; docs/architecture.md, "Builds from
 * the change log"). A range's descriptor must stay open until `record` settles.
 */
export function startTextOffThread(file: string, pieces: Iterable<TextPiece>): TextWriting {
  const worker = new Worker(workerUrl('./text-file-worker.ts', import.meta.url), { workerData: { file } });
  // the buffers owned here now (a buffer transferred back is a new ArrayBuffer object)
  const pool = new Set<ArrayBuffer>();
  const free: Buffer[] = [];
  for (let i = 0; i < BUFFERS; i++) {
    const buffer = new ArrayBuffer(BUFFER_BYTES);
    pool.add(buffer);
    free.push(Buffer.from(buffer));
  }
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  let settle: { resolve(record: FileRecord): void; reject(error: Error): void } | undefined;
  const written = new Promise<FileRecord>((resolve, reject) => (settle = { resolve, reject }));
  written.catch(() => {});
  const fail = (error: Error) => {
    failure ??= error;
    settle!.reject(failure);
    wake?.();
  };
  /** bytes sent not pooled (copies, pieces larger than a buffer) that the worker has not written yet */
  let unpooled = 0;
  worker.on('message', (answer: WorkerAnswer) => {
    if ('record' in answer) {
      settle!.resolve(answer.record);
      return;
    }
    if (answer.written !== undefined) {
      unpooled -= answer.written;
      wake?.();
      return;
    }
    pool.add(answer.returned);
    free.push(Buffer.from(answer.returned));
    wake?.();
  });
  worker.once('error', fail);
  worker.once('exit', (code) => fail(new Error(`the worker writing ${file} stopped (exit code ${code}) before it was written`)));
  const handed = (async () => {
    const chunks = encodedChunks(pieces, () => free.pop()!, HANDED_FROM);
    for (;;) {
      // the encoder takes at most one buffer a chunk: one must be free before it goes on
      while ((free.length === 0 || unpooled > UNPOOLED_BYTES) && failure === undefined) await new Promise<void>((resolve) => (wake = resolve));
      if (failure) throw failure;
      const next = chunks.next();
      if (next.done) break;
      const piece = next.value;
      if (!(piece instanceof Uint8Array)) {
        worker.postMessage({ range: { fd: piece.fd, start: piece.start, end: piece.end } } satisfies TextChunkMessage);
        continue;
      }
      // the encoder's chunks are views of ArrayBuffers (its own buffers' or Buffer.from's), never shared ones
      const chunk = piece as Uint8Array<ArrayBuffer>;
      const pooled = pool.delete(chunk.buffer);
      if (pooled && chunk.length < COPIED_BELOW) {
        unpooled += chunk.length;
        worker.postMessage({ chunk: chunk.slice(), pooled: false } satisfies TextChunkMessage);
        pool.add(chunk.buffer);
        free.push(Buffer.from(chunk.buffer));
        continue;
      }
      if (!pooled) unpooled += chunk.length;
      worker.postMessage({ chunk, pooled } satisfies TextChunkMessage, pooled ? [chunk.buffer] : []);
    }
    worker.postMessage({ end: true } satisfies TextChunkMessage);
  })();
  handed.catch((error: Error) => fail(error));
  const record = (async () => {
    try {
      await handed;
      return await written;
    } finally {
      await worker.terminate();
    }
  })();
  record.catch(() => {});
  return {
    handed,
    record,
    async stop() {
      fail(new Error(`the writing of ${file} was stopped`));
      await worker.terminate();
    },
  };
}
