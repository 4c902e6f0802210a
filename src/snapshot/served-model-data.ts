// The served snapshot's model data as a source of lines (docs/architecture.md, "Builds from the
// change log"): a build that knows which records changed since the served snapshot (the change log,
// src/catalogue/change-log.ts) copies the lines of the records that did not change from the served
// model.ndjson instead of serialising them again (model-data.ts modelPieces). The file is read once
// whole first: its size and SHA-256 must be those the served manifest records (as every reuse of a
// served file), and each video and comment line is found by the id its record starts with, without
// parsing it. Only then are its ranges given out, read from the same open file. The whole read (the
// SHA-256 and the lines of 215 MB for pyvideo-100k, about a quarter of a second) is made on a worker
// thread of its own (served-model-data-worker.ts), started with the build: it runs on the second
// core while this thread reads the catalogue, and the build takes its answer when the model data is
// written (startServedModelData).
import { createHash } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { workerUrl } from '../lib/worker-url.ts';
import { forEachByteLine } from '../lib/file-lines.ts';
import type { FileRecord } from './manifest.ts';
import type { FileBytes } from './text-files.ts';

/** The kinds of line that are copied: the many records (channels, playlists and the rest are few, and made anew). */
export type CopiedKind = 'video' | 'comment';

/** How a line of each kind begins, up to its record's id: `JSON.stringify` of the line's array, the id the record's first field. */
const PREFIXES: Readonly<Record<CopiedKind, Buffer>> = {
  video: Buffer.from('["video",{"id":"'),
  comment: Buffer.from('["comment",{"id":"'),
};

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** The window the file is read through (doubled for a line longer than it). */
const WINDOW_BYTES = 1 << 22;

export interface ServedModelData {
  /** the served line of the record of `kind` with `id` (its newline included), as a range of the open file */
  line(kind: CopiedKind, id: string): FileBytes | undefined;
  /** lines found, by kind */
  readonly counts: Readonly<Record<CopiedKind, number>>;
  close(): void;
}

/**
 * The lines of one kind, as the read found them, in file order: their ids' UTF-8 bytes one after
 * the other (`ids`, the i-th from `idAt[i]` to `idAt[i + 1]`), and each line's start and end in the
 * file. Typed arrays only: the worker hands them over transferred, with no string made for an id
 * (a string a line, and the one string of them all, were a quarter of the worker's time).
 */
export interface FoundLines {
  readonly ids: Uint8Array<ArrayBuffer>;
  readonly idAt: Int32Array<ArrayBuffer>;
  readonly starts: Float64Array<ArrayBuffer>;
  readonly ends: Float64Array<ArrayBuffer>;
}

/** What a whole read of the file found: its size and SHA-256 (to be compared with the manifest's record), and its lines. */
export interface ReadWhole {
  readonly size: number;
  readonly sha256: string;
  readonly lines: Readonly<Record<CopiedKind, FoundLines>>;
}

/**
 * Where each line of one kind is. A build asks for them in catalogue order, which is the file's
 * when the same records are read again, and skips the changed ones, so the line after the last one
 * found is tried first, then the few after it (each compared in place in the string of ids: no
 * string made); a map of the ids is made only when a record is asked farther out of that order
 * (records added or removed: a string and a hash of every id are made then, not for every build).
 */
class LinesOf {
  private next = 0;
  private at: Map<string, number> | undefined;
  readonly found: FoundLines;
  constructor(found: FoundLines) {
    this.found = found;
  }
  get count(): number {
    return this.found.starts.length;
  }
  /** Whether line i's id is `id`, compared with its bytes (no string made; an id beyond ASCII as its UTF-8). */
  private is(i: number, id: string): boolean {
    const { ids, idAt } = this.found;
    const start = idAt[i]!;
    const length = idAt[i + 1]! - start;
    if (length !== id.length) return length === Buffer.byteLength(id) && this.idOf(i) === id;
    for (let c = 0; c < length; c++) {
      const unit = id.charCodeAt(c);
      if (unit >= 0x80) return this.idOf(i) === id;
      if (ids[start + c] !== unit) return false;
    }
    return true;
  }
  private idOf(i: number): string {
    const { ids, idAt } = this.found;
    return Buffer.from(ids.buffer, ids.byteOffset, ids.byteLength).toString('utf8', idAt[i]!, idAt[i + 1]!);
  }
  find(id: string): number | undefined {
    let i: number | undefined = this.next;
    const near = Math.min(this.count, i + LOOK_AHEAD);
    while (i < near && !this.is(i, id)) i++;
    if (i === near) {
      this.at ??= new Map(Array.from({ length: this.count }, (_, n) => [this.idOf(n), n]));
      i = this.at.get(id);
      if (i === undefined) return undefined;
    }
    this.next = i + 1;
    return i;
  }
}

/** Lines tried after the last one found before the map is made: a few changed records skipped. */
const LOOK_AHEAD = 16;

/**
 * Opens and checks the served model data (`recorded`: its size and SHA-256 in the served manifest)
 * and finds its video and comment lines, on this thread; undefined, with the file closed, when it
 * cannot be read or is not the file recorded. A line whose id is escaped in JSON is not found (its
 * record is made anew). The build reads it on a worker thread instead (startServedModelData).
 */
export function openServedModelData(file: string, recorded: FileRecord | undefined): ServedModelData | undefined {
  if (recorded === undefined) return undefined;
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  let read: ReadWhole | undefined;
  try {
    read = readWhole(fd);
  } catch {
    read = undefined;
  }
  return servedIfRecorded(fd, read, recorded);
}

/** The served model data read from `fd` when `read` is the file `recorded` (size and SHA-256); else undefined, `fd` closed (by `close`). */
function servedIfRecorded(fd: number, read: ReadWhole | undefined, recorded: FileRecord | undefined, close = () => closeSync(fd)): ServedModelData | undefined {
  if (read === undefined || recorded === undefined || read.size !== recorded.size || read.sha256 !== recorded.sha256) {
    close();
    return undefined;
  }
  const lines: Record<CopiedKind, LinesOf> = { video: new LinesOf(read.lines.video), comment: new LinesOf(read.lines.comment) };
  return {
    line(kind, id) {
      const of = lines[kind];
      const i = of.find(id);
      return i === undefined ? undefined : { fd, start: of.found.starts[i]!, end: of.found.ends[i]! };
    },
    counts: { video: lines.video.count, comment: lines.comment.count },
    close,
  };
}

/** The served model data being read on a worker thread: `opened` answers once it is read, `stop` ends the read. */
export interface ServedModelDataTask {
  /**
   * The served model data, once read whole, when it has the size and SHA-256 `recorded` (the served
   * manifest's record) names; undefined when not (or when it could not be read), the file closed.
   * Called at most once; the caller closes what it answers.
   */
  opened(recorded: FileRecord | undefined): Promise<ServedModelData | undefined>;
  /** Ends the read and closes the file, when `opened` is not called (a failed build, or no reuse). */
  stop(): Promise<void>;
}

/**
 * Opens the served model data `file` and starts reading it whole on a worker thread
 * (served-model-data-worker.ts): its SHA-256 and its lines, found as openServedModelData finds them.
 * The worker reads through this thread's descriptor (threads share them), so the bytes checked are
 * those of the file the ranges are later read from. When the worker cannot run, the file is read
 * here, when asked.
 */
export function startServedModelData(file: string): ServedModelDataTask {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return { opened: async () => undefined, stop: async () => {} };
  }
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    closeSync(fd);
  };
  let worker: Worker | undefined;
  let read: Promise<ReadWhole | undefined>;
  const here = (): ReadWhole | undefined => {
    try {
      return readWhole(fd);
    } catch {
      return undefined;
    }
  };
  try {
    const started = new Worker(workerUrl('./served-model-data-worker.ts', import.meta.url), { workerData: { fd } });
    worker = started;
    // the descriptor is closed only once the worker is gone: it reads through it until it answers
    read = new Promise<ReadWhole | undefined>((resolve) => {
      let answer: ReadWhole | undefined;
      started.once('message', (message: ReadWhole | undefined) => (answer = message));
      started.once('error', () => {});
      started.once('exit', () => resolve(answer));
    });
  } catch {
    read = Promise.resolve().then(here);
  }
  return {
    async opened(recorded) {
      return servedIfRecorded(fd, await read, recorded, close);
    },
    async stop() {
      await worker?.terminate();
      close();
    },
  };
}

/**
 * Reads the open file whole once, from its start: its size and SHA-256, and where its video and
 * comment lines are (on the worker thread during a build: served-model-data-worker.ts).
 */
export function readWhole(fd: number): ReadWhole {
  const hash = createHash('sha256');
  const lines: Record<CopiedKind, Finding> = { video: new Finding(), comment: new Finding() };
  const size = forEachByteLine(fd, WINDOW_BYTES, (chunk) => hash.update(chunk), (window, start, end, at) => {
    noteLine(window, start, end, at - start, lines);
    return true;
  }, false);
  // a last line without its newline is not a line the writer writes: the SHA-256 decides anyway
  return { size, sha256: hash.digest('hex'), lines: { video: lines.video.found(), comment: lines.comment.found() } };
}

/** The lines of one kind as they are found: ids' bytes, and where each one's line starts and ends, in arrays grown by doubling. */
class Finding {
  ids = new Uint8Array(1 << 16);
  idBytes = 0;
  idAt = new Int32Array(1 << 12);
  starts = new Float64Array(1 << 12);
  ends = new Float64Array(1 << 12);
  count = 0;

  /** Notes a line whose id is window[idStart, idEnd) (plain: no escape), from `start` to `end` of the file. */
  note(window: Buffer, idStart: number, idEnd: number, start: number, end: number): void {
    const length = idEnd - idStart;
    if (this.idBytes + length > this.ids.length) this.ids = grown(this.ids, this.idBytes + length, (n) => new Uint8Array(n));
    if (this.count + 2 > this.idAt.length) {
      this.idAt = grown(this.idAt, this.count + 2, (n) => new Int32Array(n));
      this.starts = grown(this.starts, this.count + 2, (n) => new Float64Array(n));
      this.ends = grown(this.ends, this.count + 2, (n) => new Float64Array(n));
    }
    window.copy(this.ids, this.idBytes, idStart, idEnd);
    this.idBytes += length;
    this.starts[this.count] = start;
    this.ends[this.count] = end;
    this.idAt[++this.count] = this.idBytes;
  }

  /** What was found, in arrays of their own length (to be transferred). */
  found(): FoundLines {
    return { ids: this.ids.slice(0, this.idBytes), idAt: this.idAt.slice(0, this.count + 1), starts: this.starts.slice(0, this.count), ends: this.ends.slice(0, this.count) };
  }
}

/** A copy of `array` with room for at least `needed` elements (twice as many, or more). */
function grown<T extends Uint8Array<ArrayBuffer> | Int32Array<ArrayBuffer> | Float64Array<ArrayBuffer>>(array: T, needed: number, make: (n: number) => T): T {
  let size = array.length * 2;
  while (size < needed) size *= 2;
  const next = make(size);
  next.set(array);
  return next;
}

/** The buffers a ReadWhole's lines are in, to transfer them. */
export const readWholeBuffers = (read: ReadWhole): ArrayBuffer[] =>
  [read.lines.video, read.lines.comment].flatMap((f) => [f.ids.buffer, f.idAt.buffer, f.starts.buffer, f.ends.buffer]);

/** Notes the line window[start, end) (its newline at `end`) when it is a video's or a comment's with a plain id. */
function noteLine(window: Buffer, start: number, end: number, base: number, lines: Record<CopiedKind, Finding>): void {
  const kind: CopiedKind | undefined = window[start + 2] === 0x76 ? 'video' : window[start + 2] === 0x63 ? 'comment' : undefined;
  if (kind === undefined) return;
  // byte by byte: a call to Buffer's compare or indexOf costs more than these few bytes, hundreds of thousands of times
  const prefix = PREFIXES[kind];
  const idStart = start + prefix.length;
  if (idStart >= end) return;
  for (let i = 0; i < prefix.length; i++) if (window[start + i] !== prefix[i]) return;
  let quote = idStart;
  for (let byte = window[quote]!; byte !== QUOTE; byte = window[++quote]!) {
    if (quote >= end || byte === BACKSLASH) return;
  }
  lines[kind].note(window, idStart, quote, base + start, base + end + 1);
}
