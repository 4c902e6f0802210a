// The snapshot's search index file (search.json): built from the model and written a megabyte at
// a time, or copied from the served snapshot when the model data it was built from is this
// build's (docs/architecture.md, "Incremental builds").
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Model } from '../model/build-model.ts';
import { buildSearchIndex, serialiseSearchIndex } from '../search/search-index.ts';
import { MODEL_FILE, SEARCH_FILE } from './layout.ts';
import type { FileRecord } from './manifest.ts';
import type { PreviousSnapshot } from './previous-snapshot.ts';
import { slices, writeText } from './text-files.ts';

/** Builds the search index and writes it a megabyte at a time (no second copy of it as bytes); its size and SHA-256. */
export function writeSearchIndex(file: string, model: Model): FileRecord {
  return writeText(file, slices(serialiseSearchIndex(buildSearchIndex(model)), 1 << 20));
}

/**
 * Copies the served snapshot's search index when the model data it was built from is this build's
 * (same SHA-256; the same build code, checked by the caller), after checking the copy's hash
 * against its manifest; undefined when it cannot (the caller builds the index).
 */
export function copySearchIndex(previous: PreviousSnapshot, model: FileRecord, file: string): FileRecord | undefined {
  const recorded = previous.head.files[SEARCH_FILE];
  if (recorded === undefined || previous.head.files[MODEL_FILE]?.sha256 !== model.sha256) return undefined;
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(previous.dir, SEARCH_FILE));
  } catch {
    return undefined;
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (bytes.length !== recorded.size || sha256 !== recorded.sha256) return undefined;
  writeFileSync(file, bytes);
  return { size: bytes.length, sha256 };
}
