// Reading a large text file line by line without holding it whole: the build's previous manifest
// and a snapshot's model data are hundreds of megabytes.
import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

/** The lines of a text file, read a megabyte at a time (no string of the whole file is held). */
export function* fileLines(file: string): Generator<string> {
  const fd = openSync(file, 'r');
  try {
    const decoder = new StringDecoder('utf8');
    const chunk = Buffer.allocUnsafe(1 << 20);
    let rest = '';
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      const text = rest + decoder.write(chunk.subarray(0, read));
      const lines = text.split('\n');
      rest = lines.pop()!;
      yield* lines;
    }
    rest += decoder.end();
    if (rest !== '') yield rest;
  } finally {
    closeSync(fd);
  }
}

const NEWLINE = 0x0a;

/**
 * Shows each line of the file open as `fd` to `line` as a place in its bytes (bytes, start, end:
 * the newline excluded; the file offset of `start`), until `line` answers false; a last line
 * without its newline is shown only when `partialLast`. Read `chunkBytes` at a time into one window
 * (a line cut by a chunk's end is moved to the window's start, the window doubled for a line longer
 * than it): a file of hundreds of thousands of lines is parsed from its bytes, with no string of a
 * chunk or of the whole file and no object a line (the build's previous manifest, a snapshot's model
 * data). Each chunk is shown to `seen` as it is read (a SHA-256 of the whole). Reads at a position,
 * not the descriptor's own: the descriptor may be shared with another thread. Answers the bytes read.
 */
export function forEachByteLine(
  fd: number,
  chunkBytes: number,
  seen: (chunk: Buffer) => void,
  line: (bytes: Buffer, start: number, end: number, at: number) => boolean,
  partialLast: boolean,
): number {
  let window = Buffer.allocUnsafe(chunkBytes);
  /** the file offset of window[0]; the window holds `filled` bytes; lines before `from` are done */
  let base = 0;
  let filled = 0;
  let from = 0;
  for (;;) {
    if (from > 0) {
      window.copy(window, 0, from, filled);
      base += from;
      filled -= from;
      from = 0;
    }
    if (filled === window.length) {
      const larger = Buffer.allocUnsafe(window.length * 2);
      window.copy(larger, 0, 0, filled);
      window = larger;
    }
    const read = readSync(fd, window, filled, window.length - filled, base + filled);
    if (read === 0) break;
    seen(window.subarray(filled, filled + read));
    filled += read;
    const view = window.subarray(0, filled);
    for (let end = view.indexOf(NEWLINE, from); end !== -1; end = view.indexOf(NEWLINE, from)) {
      if (!line(view, from, end, base + from)) return base + filled;
      from = end + 1;
    }
  }
  if (partialLast && filled > from) line(window.subarray(0, filled), from, filled, base + from);
  return base + filled;
}
