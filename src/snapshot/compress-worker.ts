// Worker thread of the build: compresses batches of page bodies (br and gzip) off the main thread.
// The main thread compresses with the same function when it would otherwise wait (compress-pool.ts).
import { parentPort } from 'node:worker_threads';
import { compress } from '../http/encoding.ts';

export interface CompressJob {
  readonly batch: number;
  readonly bodies: Uint8Array[];
}

export interface CompressResult {
  readonly batch: number;
  /** per body: [br, gzip], each undefined when it would not be smaller */
  readonly variants: [Uint8Array | undefined, Uint8Array | undefined][];
}

/** A body's br and gzip variants, each undefined when it would not be smaller than the body. */
export function compressBody(raw: Uint8Array): [Uint8Array | undefined, Uint8Array | undefined] {
  const body = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  const br = compress(body, 'br', 'build');
  const gzip = compress(body, 'gzip', 'build');
  // Copies of exactly their length: zlib's output may sit in a larger buffer, and posting a view
  // would clone all of it.
  return [br.length < body.length ? Uint8Array.prototype.slice.call(br) : undefined, gzip.length < body.length ? Uint8Array.prototype.slice.call(gzip) : undefined];
}

parentPort?.on('message', (job: CompressJob) => {
  const variants = job.bodies.map(compressBody);
  const result: CompressResult = { batch: job.batch, variants };
  const transfer = variants.flat().filter((v): v is Uint8Array => v !== undefined).map((v) => v.buffer as ArrayBuffer);
  parentPort!.postMessage(result, transfer);
});
