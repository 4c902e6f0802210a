// The pages of a snapshot looked up in the manifest's own bytes (docs/reliability.md, "Snapshots"):
// the manifest is written one page a line in key order (manifest.ts manifestLines), so the start of
// every line (a Uint32Array, 1.2 MB at 310,000 pages) is all an index needs; a lookup is a binary
// search over the lines' keys and a parse of the one line found. Opening a snapshot then costs a
// scan of the manifest for line ends (on the verifier's thread) instead of a parse of every page
// into a Map on the event loop: ~12 s and ~120 MB of heap for pyvideo-100k's 310,651 pages.
// Entries parsed are kept (up to ENTRIES_KEPT), so a page asked for again is the same object
// (the static path caches its headers per entry).
import type { PageEntry } from './manifest.ts';
import { BACKSLASH, CLOSE_BRACE, COLON, COMMA, NEWLINE, OPEN_BRACE, QUOTE } from './json-bytes.ts';

/** What the server asks of a snapshot's pages: a Map's reading side. */
export interface PageLookup extends Iterable<[string, PageEntry]> {
  get(key: string): PageEntry | undefined;
  readonly size: number;
}

/** The lines of a manifest's pages: where each starts, and whether their keys ascend (sorted). */
export interface ManifestLines {
  /** byte offset of each page line (the head's line and the closing `}}` excluded) */
  readonly starts: Uint32Array;
  /** the end of the last page line (the newline before `}}`) */
  readonly end: number;
  /** whether the keys ascend strictly in code-unit order, as a binary search needs */
  readonly sorted: boolean;
}


/** Where the key of the page line at `start` is: its opening and closing quotes, and whether it holds escapes. */
function scanKey(bytes: Buffer, start: number): { open: number; close: number; escaped: boolean } {
  let at = start + (bytes[start] === COMMA ? 1 : 0);
  if (bytes[at] !== QUOTE) throw new Error('a manifest line holds no page');
  const open = at;
  let escaped = false;
  for (at++; at < bytes.length; at++) {
    const byte = bytes[at];
    if (byte === BACKSLASH) {
      escaped = true;
      at++;
    } else if (byte === QUOTE) {
      break;
    }
  }
  return { open, close: at, escaped };
}

const keyOf = (bytes: Buffer, { open, close, escaped }: { open: number; close: number; escaped: boolean }): string =>
  (escaped ? (JSON.parse(bytes.toString('utf8', open, close + 1)) as string) : bytes.toString('utf8', open + 1, close));

/** The key of the page line at `start` (its JSON string, unescaped). */
const keyAt = (bytes: Buffer, start: number): string => keyOf(bytes, scanKey(bytes, start));

/**
 * The page of the manifest line in `bytes` from `start` to `end` (`"key":{...}`, after the first
 * with a leading comma), parsed from the bytes: the key, then the entry with one JSON.parse of its
 * own text (half the time of parsing the line as an object). Throws when the line holds no page.
 */
export function parsePageLine(bytes: Buffer, start: number, end: number): [string, PageEntry] {
  const key = scanKey(bytes, start);
  if (key.close + 2 >= end || bytes[key.close + 1] !== COLON || bytes[key.close + 2] !== OPEN_BRACE) throw new Error('a manifest line holds no page');
  const entry: unknown = JSON.parse(bytes.toString('utf8', key.close + 2, end));
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new Error('a manifest line holds no page');
  return [keyOf(bytes, key), entry as PageEntry];
}

/** Finds the page lines of a manifest (its head on the first line, then a page a line, then `}}`). */
export function indexManifestLines(manifest: Buffer): ManifestLines {
  const starts: number[] = [];
  let end = manifest.indexOf(NEWLINE);
  let sorted = true;
  let previous: string | undefined;
  while (end !== -1) {
    const start = end + 1;
    const next = manifest.indexOf(NEWLINE, start);
    const lineEnd = next === -1 ? manifest.length : next;
    // the closing line ends the pages
    if (lineEnd - start === 2 && manifest[start] === CLOSE_BRACE && manifest[start + 1] === CLOSE_BRACE) break;
    const key = keyAt(manifest, start);
    if (previous !== undefined && !(previous < key)) sorted = false;
    previous = key;
    starts.push(start);
    end = next;
  }
  const last = starts.length === 0 ? manifest.indexOf(NEWLINE) : manifest.indexOf(NEWLINE, starts[starts.length - 1]);
  return { starts: Uint32Array.from(starts), end: last === -1 ? manifest.length : last, sorted };
}

/** Entries kept parsed (about 0.4 KB each); beyond, the oldest parsed is let go. */
export const ENTRIES_KEPT = 50_000;

/** A page lookup over a manifest's bytes and its sorted line index. */
export function linePageLookup(manifest: Buffer, lines: ManifestLines): PageLookup {
  const { starts } = lines;
  const count = starts.length;
  const kept = new Map<string, PageEntry>();
  const parse = (i: number): [string, PageEntry] => parsePageLine(manifest, starts[i]!, i + 1 < count ? starts[i + 1]! - 1 : lines.end);
  return {
    size: count,
    get(key) {
      const hit = kept.get(key);
      if (hit) return hit;
      let lo = 0;
      let hi = count - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const at = keyAt(manifest, starts[mid]!);
        if (at === key) {
          const entry = parse(mid)[1];
          if (kept.size >= ENTRIES_KEPT) kept.delete(kept.keys().next().value!);
          kept.set(key, entry);
          return entry;
        }
        if (at < key) lo = mid + 1;
        else hi = mid - 1;
      }
      return undefined;
    },
    *[Symbol.iterator]() {
      for (let i = 0; i < count; i++) {
        const [key, entry] = parse(i);
        yield [key, kept.get(key) ?? entry];
      }
    },
  };
}
