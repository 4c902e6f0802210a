// One page body's compressed variants, written in place (the page arena's room after the body):
// what the build's compress workers do to each page of a batch (compress-worker.ts), and what the
// main thread does itself when it would otherwise wait for them (compress-pool.ts), so the bytes are
// the same whichever thread made them. A module of its own so that the worker's module is only ever
// a thread's entry, never loaded by the main thread (its first act lowers its thread's priority:
// src/lib/thread-priority.ts).
import { compress } from '../http/encoding.ts';

/**
 * Compresses the body of `length` bytes at `offset` in `bytes` and writes its br variant right
 * after it, its gzip variant after that (the room of a page is three times its body: a kept
 * variant is smaller than the body); the variants' lengths, -1 for one not kept.
 */
export function compressInPlace(bytes: Buffer, offset: number, length: number): [number, number] {
  const body = bytes.subarray(offset, offset + length);
  const lengths: [number, number] = [-1, -1];
  (['br', 'gzip'] as const).forEach((encoding, k) => {
    const variant = compress(body, encoding, 'build');
    if (variant.length >= length) return;
    bytes.set(variant, offset + length * (k + 1));
    lengths[k] = variant.length;
  });
  return lengths;
}
