// writeText's bytes (text-files.ts) with the write(2) calls and the SHA-256 on a worker thread
// (text-file-worker.ts): this thread only encodes the pieces, into a few 2 MB buffers passed to the
// worker and back (transferred, never copied). The model data's 215 MB for pyvideo-100k cost the
// build's main thread 0.7 s of writes and 0.3 s of hashing (docs/performance.md, "The model data
// written off the main thread").
import { Worker } from 'node:worker_threads';
import type { FileRecord } from './manifest.ts';
import { BUFFER_BYTES, encodedChunks, type TextPiece } from './text-files.ts';

/** Buffers in flight: one being encoded here while the worker writes another. */
const BUFFERS = 3;

/** What the worker is sent: a chunk to write (`pooled` when its buffer goes back), or the end. */
export type TextChunkMessage = { readonly end?: undefined; readonly chunk: Uint8Array<ArrayBuffer>; readonly pooled: boolean } | { readonly end: true };

type WorkerAnswer = { readonly returned: ArrayBuffer } | { readonly record: FileRecord };

/**
 * Writes `pieces` (text, or ranges of a file's bytes) into `file` as writeText does (the same bytes, size and SHA-256), the writing and
 * hashing on a worker thread. Rejects with the worker's error (its code kept: a full disk is said as
 * such) or this thread's (the pieces' generator threw); the worker is ended either way.
 */
export async function writeTextOffThread(file: string, pieces: Iterable<TextPiece>): Promise<FileRecord> {
  const worker = new Worker(new URL('./text-file-worker.ts', import.meta.url), { workerData: { file } });
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
  const record = new Promise<FileRecord>((resolve, reject) => (settle = { resolve, reject }));
  record.catch(() => {});
  const fail = (error: Error) => {
    failure ??= error;
    settle!.reject(failure);
    wake?.();
  };
  worker.on('message', (answer: WorkerAnswer) => {
    if ('record' in answer) {
      settle!.resolve(answer.record);
      return;
    }
    pool.add(answer.returned);
    free.push(Buffer.from(answer.returned));
    wake?.();
  });
  worker.once('error', fail);
  worker.once('exit', (code) => fail(new Error(`the worker writing ${file} stopped (exit code ${code}) before it was written`)));
  try {
    const chunks = encodedChunks(pieces, () => free.pop()!);
    for (;;) {
      // the encoder takes at most one buffer a chunk: one must be free before it goes on
      while (free.length === 0 && failure === undefined) await new Promise<void>((resolve) => (wake = resolve));
      if (failure) throw failure;
      const next = chunks.next();
      if (next.done) break;
      // the encoder's chunks are views of ArrayBuffers (its own buffers' or Buffer.from's), never shared ones
      const chunk = next.value as Uint8Array<ArrayBuffer>;
      const pooled = pool.delete(chunk.buffer);
      const message: TextChunkMessage = { chunk, pooled };
      worker.postMessage(message, pooled ? [chunk.buffer] : []);
    }
    worker.postMessage({ end: true } satisfies TextChunkMessage);
    return await record;
  } finally {
    await worker.terminate();
  }
}
