// Writes a snapshot's manifest (manifest.ts: the head, then one page a line, pages in key order)
// and names the snapshot by its SHA-256: the manifest records every other file's size and hash, so
// its own hash names them all. The lines are encoded here and written and hashed on a worker thread
// (write-text-off-thread.ts); the line of a page taken from the served snapshot as it was, in a
// shard the page writer hard-linked, is copied from the served manifest's bytes instead of being
// made again (docs/architecture.md, "Incremental builds"): it is the same text, the served
// manifest having been written by the same code from the same entry.
import { API_VERSION } from '../api/version.ts';
import { MANIFEST_FORMAT, SNAPSHOT_ID_LENGTH, type FileRecord, type Manifest, type ManifestHead, type PageEntry } from './manifest.ts';
import type { PageTable } from './page-table.ts';
import type { ServedManifestLines } from './previous-snapshot.ts';
import type { FileBytes, TextPiece } from './text-files.ts';
import { writeTextOffThread } from './write-text-off-thread.ts';

export interface WrittenManifest {
  readonly id: string;
  readonly head: ManifestHead;
  /** how many pages it lists */
  readonly pages: number;
  /** the manifest as an object (only for the static-file export, which needs it whole) */
  manifest(): Manifest;
}

/**
 * The served snapshot's manifest as a source of lines: its page table (page numbers in the
 * file's order, which is key order), where each page's line is in it, and the shards the page
 * writer hard-linked, whose pages' entries are the served ones, each the entry of its served line.
 */
export interface ServedManifest {
  readonly pages: PageTable;
  readonly lines: ServedManifestLines;
  readonly linked: ReadonlySet<number>;
  /**
   * Whether the build's pages have exactly the served pages' keys (the page writer counts those it
   * took or wrote whose key the served snapshot has): the new manifest's order is then the served
   * one, walked without sorting or comparing keys.
   */
  readonly sameKeys: boolean;
}

export interface ManifestFacts {
  readonly baseUrl: string;
  readonly videos: number;
  readonly files: Record<string, FileRecord>;
  readonly entries: ReadonlyMap<string, PageEntry>;
  /** the served manifest, when the page writer linked shards of the served snapshot */
  readonly served?: ServedManifest | undefined;
}

/** Writes `file` from the files and pages of a build; the snapshot's id. */
export async function writeManifest(file: string, facts: ManifestFacts): Promise<WrittenManifest> {
  const { entries, served } = facts;
  const head: ManifestHead = {
    format: MANIFEST_FORMAT,
    apiVersion: API_VERSION,
    baseUrl: facts.baseUrl,
    counts: { videos: facts.videos, pages: entries.size },
    files: Object.fromEntries(Object.keys(facts.files).sort().map((name) => [name, facts.files[name]!])),
  };
  const sorted = () => [...entries.keys()].sort();
  const pieces = served?.sameKeys && served.pages.size === entries.size ? inServedOrder(head, entries, served) : manifestPieces(head, sorted(), entries, served);
  const id = (await writeTextOffThread(file, pieces)).sha256.slice(0, SNAPSHOT_ID_LENGTH);
  return { id, head, pages: entries.size, manifest: () => ({ ...head, pages: Object.fromEntries(sorted().map((k) => [k, entries.get(k)!])) }) };
}

/**
 * manifestPieces when the pages are exactly the served pages (`sameKeys`): their order is the served
 * manifest's (sorted the same way, by the same code), so the served pages are walked in their order,
 * the line of a page of a linked shard copied (its entry is the served one) and any other page's
 * made from its entry, its key read from the table: a few thousand keys in a one-title rebuild,
 * no sort of 310,000 and no comparison.
 */
export function* inServedOrder(head: ManifestHead, entries: ReadonlyMap<string, PageEntry>, served: ServedManifest): Generator<TextPiece> {
  yield `${JSON.stringify(head).slice(0, -1)},"pages":{`;
  const { pages, linked, lines: { fd, breaks } } = served;
  let run: { fd: number; start: number; end: number } | undefined;
  for (let n = 0; n < pages.size; n++) {
    if (linked.has(pages.shardAt(n))) {
      if (run !== undefined && run.end === breaks[n]) {
        run.end = breaks[n + 1]!;
      } else {
        if (run !== undefined) yield run satisfies FileBytes;
        run = { fd, start: breaks[n]!, end: breaks[n + 1]! };
      }
      continue;
    }
    if (run !== undefined) {
      yield run;
      run = undefined;
    }
    const key = pages.keyAt(n);
    const entry = entries.get(key);
    if (entry === undefined) throw new Error(`the manifest has no page ${key}, which the served snapshot has, though the keys were counted the same`);
    yield `\n${n === 0 ? '' : ','}${JSON.stringify(key)}:${JSON.stringify(entry)}`;
  }
  if (run !== undefined) yield run;
  yield '\n}}';
}

/**
 * The manifest's text (manifest.ts manifestLinesOf's, byte for byte) in pieces: each page's line
 * made from its entry, or, for a page of a linked shard, the served line of the same key as bytes
 * of the served file (lines that follow each other there joined into one range). The pages of the
 * linked shards are the served pages of those shards, in the same key order, so they are met in
 * the order of the served page numbers whose shard is linked; each is compared with its key
 * before its line is taken (a line not taken is made: the same text).
 */
export function* manifestPieces(head: ManifestHead, keys: readonly string[], entries: ReadonlyMap<string, PageEntry>, served?: ServedManifest): Generator<TextPiece> {
  yield `${JSON.stringify(head).slice(0, -1)},"pages":{`;
  const count = served?.pages.size ?? 0;
  /** the next served page number to look at for a page of a linked shard */
  let next = 0;
  let run: { fd: number; start: number; end: number } | undefined;
  for (let n = 0; n < keys.length; n++) {
    const key = keys[n]!;
    const entry = entries.get(key)!;
    if (served !== undefined && served.linked.has(entry.body[3])) {
      while (next < count && !served.linked.has(served.pages.shardAt(next))) next++;
      const at = next < count && served.pages.keyIs(next, key) ? next++ : -1;
      // the first line has no comma: a served line is taken only where it has the same place
      if (at !== -1 && (at === 0) === (n === 0)) {
        const { breaks, fd } = served.lines;
        const start = breaks[at]!;
        const end = breaks[at + 1]!;
        if (run !== undefined && run.end === start) {
          run.end = end;
        } else {
          if (run !== undefined) yield run satisfies FileBytes;
          run = { fd, start, end };
        }
        continue;
      }
    }
    if (run !== undefined) {
      yield run;
      run = undefined;
    }
    yield `\n${n === 0 ? '' : ','}${JSON.stringify(key)}:${JSON.stringify(entry)}`;
  }
  if (run !== undefined) yield run;
  yield '\n}}';
}
