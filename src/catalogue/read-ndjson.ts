// Streams an NDJSON file, plain or gzipped (told by its magic bytes, not its name), as numbered
// lines, holding one chunk and one line at a time whatever the file's size. Splits on "\n" only:
// real catalogues hold raw U+2028 inside strings, which line readers built for text would split
// on. The rules (docs/catalogue.md, "The file"): UTF-8 only, a line that is not valid UTF-8 is
// reported by number, never decoded to U+FFFD; a leading byte-order mark is skipped; blank lines
// are skipped; a line longer than MAX_LINE_BYTES stops the read (it cannot be a valid record).
import { closeSync, createReadStream, openSync, readSync, statSync } from 'node:fs';
import { pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';

export interface NumberedLine {
  readonly line: number;
  readonly text: string;
}

/** A line that could not be read as text; reading goes on with the next one. */
export interface UnreadableLine {
  readonly line: number;
  readonly unreadable: string;
}

/** Where the reader is in the file, for progress: bytes of the file as stored (compressed or not). */
export interface ReadPosition {
  readonly bytesRead: number;
  readonly totalBytes: number;
}

/** The file cannot be read any further: names the file and what went wrong. */
export class NdjsonFileError extends Error {}

/** Longer than any valid record (a description of 20,000 characters is at most 80 KB of UTF-8). */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;
const CHUNK_BYTES = 1 << 20;
const NEWLINE = 0x0a;
const BOM = [0xef, 0xbb, 0xbf];

function startsWithGzipMagic(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(2);
    return readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    closeSync(fd);
  }
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decodes complete lines (no "\n" inside a UTF-8 sequence, so a split at "\n" never cuts one). */
function* decodeLines(bytes: Buffer, firstLine: number): Generator<NumberedLine | UnreadableLine> {
  let texts: string[] | undefined;
  try {
    texts = decoder.decode(bytes).split('\n');
  } catch {
    // some line in this run is not UTF-8: decode them one by one to name it
  }
  if (texts) {
    for (let i = 0; i < texts.length; i++) yield { line: firstLine + i, text: texts[i]! };
    return;
  }
  let start = 0;
  for (let n = firstLine; start <= bytes.length; n++) {
    let end = bytes.indexOf(NEWLINE, start);
    if (end === -1) end = bytes.length;
    const slice = bytes.subarray(start, end);
    let text: string | undefined;
    try {
      text = decoder.decode(slice);
    } catch {
      yield { line: n, unreadable: 'is not valid UTF-8 (the file must be UTF-8 text)' };
    }
    if (text !== undefined) yield { line: n, text };
    start = end + 1;
  }
}

/** Whole lines of the file as bytes, and the number of the first. */
export interface LineBlock {
  readonly firstLine: number;
  readonly bytes: Uint8Array;
}

/** The lines of a block, decoded (see the rules above); blank lines skipped. */
export function* linesOfBlock(block: LineBlock): Generator<NumberedLine | UnreadableLine> {
  for (const line of decodeLines(Buffer.from(block.bytes.buffer, block.bytes.byteOffset, block.bytes.byteLength), block.firstLine)) {
    if ('unreadable' in line) { yield line; continue; }
    const text = line.text.endsWith('\r') ? line.text.slice(0, -1) : line.text;
    if (text.trim() !== '') yield { line: line.line, text };
  }
}

function countNewlines(bytes: Buffer): number {
  let count = 0;
  for (let i = bytes.indexOf(NEWLINE); i !== -1; i = bytes.indexOf(NEWLINE, i + 1)) count++;
  return count;
}

/**
 * The file in blocks of whole lines (about a megabyte each), in order, undecoded: cheap on the
 * reading thread, decoded where they are validated. `onRead` is called after each chunk with the
 * position in the file.
 */
export async function* readNdjsonBlocks(path: string, onRead: (position: ReadPosition) => void = () => {}): AsyncGenerator<LineBlock> {
  const totalBytes = statSync(path).size;
  const gzipped = startsWithGzipMagic(path);
  const file = createReadStream(path, { highWaterMark: CHUNK_BYTES });
  const gunzip = gzipped ? createGunzip({ chunkSize: CHUNK_BYTES }) : undefined;
  if (gunzip) pipeline(file, gunzip, () => {});
  const source: AsyncIterable<Buffer> = gunzip ?? file;

  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let nextLine = 1;
  let atStart = true;
  const block = (bytes: Buffer, lines: number): LineBlock => {
    if (atStart) {
      atStart = false;
      if (bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2]) bytes = bytes.subarray(3);
    }
    const out = { firstLine: nextLine, bytes };
    nextLine += lines;
    return out;
  };

  try {
    for await (const chunk of source) {
      const last = chunk.lastIndexOf(NEWLINE);
      if (last === -1) {
        pending.push(chunk);
        pendingBytes += chunk.length;
      } else {
        const head = chunk.subarray(0, last);
        const complete = pending.length === 0 ? head : Buffer.concat([...pending, head]);
        yield block(complete, countNewlines(complete) + 1);
        pending = [chunk.subarray(last + 1)];
        pendingBytes = chunk.length - last - 1;
      }
      if (pendingBytes > MAX_LINE_BYTES) {
        throw new NdjsonFileError(`${path}: line ${nextLine} is longer than ${MAX_LINE_BYTES / 1024 / 1024} MB; no record is that long`);
      }
      // gzipped: the compressed bytes the decompressor has taken, not those read off the disk,
      // which run megabytes ahead of it through the pipe's buffers
      onRead({ bytesRead: gunzip ? gunzip.bytesWritten : file.bytesRead, totalBytes });
    }
  } catch (error) {
    if (error instanceof NdjsonFileError) throw error;
    const { code, message } = error as NodeJS.ErrnoException;
    if (gzipped && code?.startsWith('Z_')) {
      throw new NdjsonFileError(`${path}: the gzip data is ${code === 'Z_BUF_ERROR' ? 'truncated' : 'corrupt'} after line ${nextLine - 1} (${message})`);
    }
    throw new NdjsonFileError(`${path}: ${message}`);
  } finally {
    file.destroy();
  }
  if (pendingBytes > 0) yield block(Buffer.concat(pending), 1);
  onRead({ bytesRead: totalBytes, totalBytes });
}

/** The file's non-blank lines, in order, with their 1-based numbers. */
export async function* readNdjsonLines(path: string, onRead?: (position: ReadPosition) => void): AsyncGenerator<NumberedLine | UnreadableLine> {
  for await (const block of readNdjsonBlocks(path, onRead)) yield* linesOfBlock(block);
}
