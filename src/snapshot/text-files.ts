// Writing a large text file a piece at a time (never one string of it whole), with its size and
// SHA-256 for the manifest.
import { createHash } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import { writeAll } from './disk-faults.ts';
import type { FileRecord } from './manifest.ts';

/** Writes text given a piece at a time, a megabyte at a time; the size and SHA-256 of what it wrote. */
export function writeText(file: string, pieces: Iterable<string>): FileRecord {
  const hash = createHash('sha256');
  let size = 0;
  const fd = openSync(file, 'w');
  try {
    let chunk: string[] = [];
    let length = 0;
    const flush = () => {
      const data = Buffer.from(chunk.join(''));
      writeAll(fd, data);
      hash.update(data);
      size += data.length;
      chunk = [];
      length = 0;
    };
    for (const piece of pieces) {
      chunk.push(piece);
      length += piece.length;
      if (length > 1 << 20) flush();
    }
    flush();
  } finally {
    closeSync(fd);
  }
  return { size, sha256: hash.digest('hex') };
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
