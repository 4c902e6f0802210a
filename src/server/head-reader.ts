// Reads request heads out of a connection's bytes in linear time: each byte is scanned once for
// line ends, and bytes are copied only when a head spans packets, into a buffer that doubles when
// full. A slow client sending one byte at a time costs one scan step per byte, not a copy and a
// rescan of everything it sent before (docs/reliability.md, "HTTP front").
import { FAST_HEAD_LIMIT } from './simple-request.ts';

/** The head could not be read as the fast path reads heads: a bare LF, a leading blank line, or too long. */
export const UNREADABLE = Symbol('unreadable');

export interface HeadReader {
  /** Adds bytes read from the connection. */
  push(chunk: Buffer): void;
  /**
   * The next complete head (its lines joined by CRLF, without the blank line that ends it), undefined
   * until one is complete, or UNREADABLE.
   */
  next(): string | undefined | typeof UNREADABLE;
  /** Puts the head `next` returned last back, so that `rest` starts with it. */
  giveBack(): void;
  /** Lets go of the bytes taken; whether bytes of an unfinished head are held. */
  settle(): boolean;
  /** The bytes not yet taken as a head (for the hand-off to node:http). */
  rest(): Buffer | undefined;
}

export function createHeadReader(limit = FAST_HEAD_LIMIT): HeadReader {
  let buffer: Buffer | undefined;
  /** whether `buffer` is a view of our own allocation, which may have room after its end */
  let store: Buffer | undefined;
  let start = 0;
  let scan = 0;
  let lineStart = 0;
  /** where the head `next` returned last began */
  let last = 0;

  return {
    push(chunk) {
      if (buffer === undefined || start >= buffer.length) {
        buffer = chunk;
        store = undefined;
        start = scan = lineStart = 0;
        return;
      }
      const kept = buffer.length - start;
      const size = kept + chunk.length;
      if (store !== undefined && start === 0 && store.length >= size) {
        chunk.copy(store, kept);
        buffer = store.subarray(0, size);
        return;
      }
      const next = Buffer.allocUnsafe(Math.max(1024, size * 2));
      buffer.copy(next, 0, start);
      chunk.copy(next, kept);
      scan -= start;
      lineStart -= start;
      start = 0;
      store = next;
      buffer = next.subarray(0, size);
    },
    next() {
      if (buffer === undefined) return undefined;
      for (;;) {
        const lf = buffer.indexOf(10, scan);
        if (lf === -1) {
          scan = buffer.length;
          return buffer.length - start > limit ? UNREADABLE : undefined;
        }
        if (lf === start || buffer[lf - 1] !== 13 || lf - start > limit) return UNREADABLE;
        if (lf - 1 === lineStart) {
          if (lineStart === start) return UNREADABLE; // a blank line before the request line
          const head = buffer.toString('latin1', start, lineStart - 2);
          last = start;
          start = scan = lineStart = lf + 1;
          return head;
        }
        scan = lineStart = lf + 1;
      }
    },
    giveBack() {
      start = scan = lineStart = last;
    },
    settle() {
      if (buffer !== undefined && start >= buffer.length) {
        buffer = store = undefined;
        start = scan = lineStart = last = 0;
      }
      return buffer !== undefined;
    },
    rest() {
      return buffer?.subarray(start);
    },
  };
}
