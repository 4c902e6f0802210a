// Writing a large text file a piece at a time (never one string of it whole), with its size and
// SHA-256 for the manifest.
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { writeAll } from './disk-faults.ts';
import type { FileRecord } from './manifest.ts';

/** The buffer pieces are encoded into: written, and hashed, each time it is full. */
export const BUFFER_BYTES = 1 << 21;
/** UTF-8 takes at most 3 bytes a UTF-16 unit (4 for a pair of 2). */
const MOST_BYTES_PER_UNIT = 3;

/**
 * Bytes of an open file, from `start` to `end`, to be written as they are among the text pieces: a
 * run of a served file's lines taken unchanged (served-model-data.ts). The file was checked whole
 * against its recorded size and SHA-256 before its ranges are given.
 */
export interface FileBytes {
  readonly fd: number;
  readonly start: number;
  readonly end: number;
}

/** A piece of a text file: text, encoded as UTF-8, or bytes copied from a file. */
export type TextPiece = string | FileBytes;

/**
 * Writes text given a piece at a time, encoding each piece straight into a reused 2 MB buffer (no
 * joined string, no buffer a write: joining a megabyte of pieces and encoding it again cost 4.4 s of
 * CPU for pyvideo-100k's 215 MB of model data, against 0.4 s this way; docs/performance.md,
 * "Reading the catalogue"); the size and SHA-256 of what it wrote. The bytes are those of the pieces
 * joined and encoded as UTF-8: a surrogate pair split between two pieces is encoded whole.
 */
export function writeText(file: string, pieces: Iterable<TextPiece>): FileRecord {
  const sink = createFileSink(file);
  try {
    const buffer = Buffer.allocUnsafe(BUFFER_BYTES);
    // each chunk is written before the next is encoded: one buffer serves them all
    for (const chunk of encodedChunks(pieces, () => buffer)) sink.write(chunk);
  } finally {
    sink.close();
  }
  return sink.record();
}

/** A file being written from its start, hashed as it is: what writeText and the text file worker write through. */
export interface FileSink {
  write(data: Uint8Array): void;
  close(): void;
  /** the size and SHA-256 of everything written (once, after the last write) */
  record(): FileRecord;
}

/** Opens `file` (created, or emptied) for a FileSink. */
export function createFileSink(file: string): FileSink {
  const hash = createHash('sha256');
  let size = 0;
  const fd = openSync(file, 'w');
  return {
    write(data) {
      writeAll(fd, data);
      hash.update(data);
      size += data.length;
    },
    close: () => closeSync(fd),
    record: () => ({ size, sha256: hash.digest('hex') }),
  };
}

/**
 * The pieces encoded as UTF-8, a chunk at a time: each piece is encoded into the buffer `take`
 * gave, and the filled part of it is yielded when the next piece does not fit (a buffer is taken
 * again, after that, for the next pieces); a piece larger than a buffer is yielded as a buffer of its own.
 * A high surrogate ending a piece is encoded with the piece after it (the pair whole). A piece of
 * file bytes is read into the buffers as they come (no buffer of its own: a run of a served file's
 * lines is copied a buffer at a time), after any high surrogate left pending, encoded alone; one of
 * `passFrom` bytes or more is yielded as it is instead, after the buffer's filled part, for the
 * consumer to copy (write-text-off-thread.ts: its worker thread reads it).
 */
export function encodedChunks(pieces: Iterable<TextPiece>, take: () => Buffer): Generator<Uint8Array>;
export function encodedChunks(pieces: Iterable<TextPiece>, take: () => Buffer, passFrom: number): Generator<Uint8Array | FileBytes>;
export function* encodedChunks(pieces: Iterable<TextPiece>, take: () => Buffer, passFrom = Infinity): Generator<Uint8Array | FileBytes> {
  let buffer = take();
  let used = 0;
  let pending = '';
  for (const given of pieces) {
    if (typeof given !== 'string') {
      if (pending !== '') {
        if (used + MOST_BYTES_PER_UNIT > buffer.length) {
          yield buffer.subarray(0, used);
          buffer = take();
          used = 0;
        }
        used += buffer.write(pending, used);
        pending = '';
      }
      if (given.end - given.start >= passFrom) {
        if (used > 0) {
          yield buffer.subarray(0, used);
          buffer = take();
          used = 0;
        }
        yield given;
        continue;
      }
      for (let at = given.start; at < given.end;) {
        if (used === buffer.length) {
          yield buffer.subarray(0, used);
          buffer = take();
          used = 0;
        }
        const read = readRange(given, at, buffer, used);
        used += read;
        at += read;
      }
      continue;
    }
    let piece = pending === '' ? given : pending + given;
    pending = '';
    const last = piece.charCodeAt(piece.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      pending = piece.slice(-1);
      piece = piece.slice(0, -1);
    }
    if (used + MOST_BYTES_PER_UNIT * piece.length > buffer.length) {
      if (used > 0) {
        yield buffer.subarray(0, used);
        buffer = take();
        used = 0;
      }
      if (MOST_BYTES_PER_UNIT * piece.length > buffer.length) {
        yield Buffer.from(piece);
        continue;
      }
    }
    used += buffer.write(piece, used);
  }
  if (used > 0) yield buffer.subarray(0, used);
  if (pending !== '') yield Buffer.from(pending);
}

/**
 * Reads the bytes of `range` from `at` into `buffer` from `offset`, as many as fit; how many were
 * read. A file that ends before the range does (shortened since it was checked) is a failure: its
 * bytes are never made up.
 */
export function readRange(range: FileBytes, at: number, buffer: Uint8Array, offset: number): number {
  const read = readSync(range.fd, buffer, offset, Math.min(range.end - at, buffer.length - offset), at);
  if (read === 0) throw new Error(`a file ended at byte ${at}, before the ${range.end} bytes its range was checked for`);
  return read;
}

/** A string in pieces of about `size` UTF-16 units, never splitting a surrogate pair. */
export function* slices(text: string, size: number): Generator<string> {
  for (let start = 0; start < text.length;) {
    let end = Math.min(text.length, start + size);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    yield text.slice(start, end);
    start = end;
  }
}
