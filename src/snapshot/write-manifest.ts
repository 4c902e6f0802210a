// Writes a snapshot's manifest (manifest.ts: the head, then one page a line, pages in key order)
// and names the snapshot by its SHA-256: the manifest records every other file's size and hash, so
// its own hash names them all.
import { API_VERSION } from '../api/version.ts';
import { MANIFEST_FORMAT, manifestLinesOf, SNAPSHOT_ID_LENGTH, type FileRecord, type Manifest, type ManifestHead, type PageEntry } from './manifest.ts';
import { writeText } from './text-files.ts';

export interface WrittenManifest {
  readonly id: string;
  readonly head: ManifestHead;
  /** page keys in code-unit order */
  readonly keys: readonly string[];
  /** the manifest as an object (only for the static-file export, which needs it whole) */
  manifest(): Manifest;
}

/** Writes `file` from the files and pages of a build; the snapshot's id. */
export function writeManifest(file: string, facts: { baseUrl: string; videos: number; files: Record<string, FileRecord>; entries: ReadonlyMap<string, PageEntry> }): WrittenManifest {
  const { entries } = facts;
  const keys = [...entries.keys()].sort();
  const head: ManifestHead = {
    format: MANIFEST_FORMAT,
    apiVersion: API_VERSION,
    baseUrl: facts.baseUrl,
    counts: { videos: facts.videos, pages: keys.length },
    files: Object.fromEntries(Object.keys(facts.files).sort().map((name) => [name, facts.files[name]!])),
  };
  const pages = (function* (): Generator<[string, PageEntry]> {
    for (const key of keys) yield [key, entries.get(key)!];
  })();
  const id = writeManifestLines(file, manifestLinesOf(head, pages)).slice(0, SNAPSHOT_ID_LENGTH);
  return { id, head, keys, manifest: () => ({ ...head, pages: Object.fromEntries(keys.map((k) => [k, entries.get(k)!])) }) };
}

/**
 * Writes the lines through text-files.ts writeText (each line encoded straight into a reused
 * buffer: never the whole manifest as one string, nor a joined chunk of lines encoded again); the
 * SHA-256 (hex) of what it wrote.
 */
function writeManifestLines(file: string, lines: Iterable<string>): string {
  return writeText(file, lines).sha256;
}
