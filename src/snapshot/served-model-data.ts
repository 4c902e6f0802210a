// The served snapshot's model data as a source of lines (docs/architecture.md, "Builds from the
// change log"): a build that knows which records changed since the served snapshot (the change log,
// src/catalogue/change-log.ts) copies the lines of the records that did not change from the served
// model.ndjson instead of serialising them again (model-data.ts modelPieces). The file is read once
// whole first: its size and SHA-256 must be those the served manifest records (as every reuse of a
// served file), and each video and comment line is found by the id its record starts with, without
// parsing it. Only then are its ranges given out, read from the same open file.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { FileRecord } from './manifest.ts';
import type { FileBytes } from './text-files.ts';

/** The kinds of line that are copied: the many records (channels, playlists and the rest are few, and made anew). */
export type CopiedKind = 'video' | 'comment';

/** How a line of each kind begins, up to its record's id: `JSON.stringify` of the line's array, the id the record's first field. */
const PREFIXES: Readonly<Record<CopiedKind, Buffer>> = {
  video: Buffer.from('["video",{"id":"'),
  comment: Buffer.from('["comment",{"id":"'),
};

const NEWLINE = 0x0a;
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
 * Where each line of one kind is: its id, and its start and end in the file, in file order. A build
 * asks for them in catalogue order, which is the file's when the same records are read again, and
 * skips the changed ones, so the line after the last one found is tried first, then the few after
 * it; a map of the ids is made only when a record is asked farther out of that order (records added
 * or removed: a hash of every id is made then, not for every build).
 */
class LinesOf {
  readonly ids: string[] = [];
  readonly starts: number[] = [];
  readonly ends: number[] = [];
  private next = 0;
  private at: Map<string, number> | undefined;
  find(id: string): number | undefined {
    let i: number | undefined = this.next;
    const near = Math.min(this.ids.length, i + LOOK_AHEAD);
    while (i < near && this.ids[i] !== id) i++;
    if (i === near) {
      this.at ??= new Map(this.ids.map((known, n) => [known, n]));
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
 * and finds its video and comment lines; undefined, with the file closed, when it cannot be read or
 * is not the file recorded. A line whose id is escaped in JSON is not found (its record is made anew).
 */
export function openServedModelData(file: string, recorded: FileRecord | undefined): ServedModelData | undefined {
  if (recorded === undefined) return undefined;
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const lines = fstatSync(fd).size === recorded.size ? indexLines(fd, recorded) : undefined;
    if (lines === undefined) {
      closeSync(fd);
      return undefined;
    }
    return {
      line(kind, id) {
        const of = lines[kind];
        const i = of.find(id);
        return i === undefined ? undefined : { fd, start: of.starts[i]!, end: of.ends[i]! };
      },
      counts: { video: lines.video.ids.length, comment: lines.comment.ids.length },
      close: () => closeSync(fd),
    };
  } catch {
    closeSync(fd);
    return undefined;
  }
}

/** Reads the file whole once: hashes it and finds its lines; undefined when it is not the file recorded. */
function indexLines(fd: number, recorded: FileRecord): Record<CopiedKind, LinesOf> | undefined {
  const hash = createHash('sha256');
  const lines: Record<CopiedKind, LinesOf> = { video: new LinesOf(), comment: new LinesOf() };
  let window = Buffer.allocUnsafe(WINDOW_BYTES);
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
    hash.update(window.subarray(filled, filled + read));
    filled += read;
    const view = window.subarray(0, filled);
    for (let end = view.indexOf(NEWLINE, from); end !== -1; end = view.indexOf(NEWLINE, from)) {
      noteLine(view, from, end, base, lines);
      from = end + 1;
    }
  }
  // a last line without its newline is not a line the writer writes: the SHA-256 decides anyway
  if (base + filled !== recorded.size || hash.digest('hex') !== recorded.sha256) return undefined;
  return lines;
}

/** Notes the line window[start, end) (its newline at `end`) when it is a video's or a comment's with a plain id. */
function noteLine(window: Buffer, start: number, end: number, base: number, lines: Record<CopiedKind, LinesOf>): void {
  const kind: CopiedKind | undefined = window[start + 2] === 0x76 ? 'video' : window[start + 2] === 0x63 ? 'comment' : undefined;
  if (kind === undefined) return;
  // byte by byte: a call to Buffer's compare or indexOf costs more than these few bytes, hundreds of thousands of times
  const prefix = PREFIXES[kind];
  const idStart = start + prefix.length;
  if (idStart >= end) return;
  for (let i = 0; i < prefix.length; i++) if (window[start + i] !== prefix[i]) return;
  let quote = idStart;
  let ascii = true;
  for (let byte = window[quote]!; byte !== QUOTE; byte = window[++quote]!) {
    if (quote >= end || byte === BACKSLASH) return;
    if (byte >= 0x80) ascii = false;
  }
  const of = lines[kind];
  of.ids.push(ascii ? window.toString('latin1', idStart, quote) : window.toString('utf8', idStart, quote));
  of.starts.push(base + start);
  of.ends.push(base + end + 1);
}
