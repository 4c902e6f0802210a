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
  /** page keys in code-unit order */
  readonly keys: readonly string[];
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
  const { entries } = facts;
  const keys = [...entries.keys()].sort();
  const head: ManifestHead = {
    format: MANIFEST_FORMAT,
    apiVersion: API_VERSION,
    baseUrl: facts.baseUrl,
    counts: { videos: facts.videos, pages: keys.length },
    files: Object.fromEntries(Object.keys(facts.files).sort().map((name) => [name, facts.files[name]!])),
  };
  const id = (await writeTextOffThread(file, manifestPieces(head, keys, entries, facts.served))).sha256.slice(0, SNAPSHOT_ID_LENGTH);
  return { id, head, keys, manifest: () => ({ ...head, pages: Object.fromEntries(keys.map((k) => [k, entries.get(k)!])) }) };
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
