// A snapshot's signature: the sizes and times of its files. When it changes, a refused snapshot is
// worth another look (the holder and npm start's supervisor: docs/reliability.md, "Refused
// snapshots, fallback, base URL"); while it stays, the refusal stands.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST_FILE, MODEL_FILE, SEARCH_FILE } from '../snapshot/layout.ts';

/** a shard's page file (layout.ts pageFileName) */
const PAGE_FILE = /^pages-\d+\.(?:bin|br\.bin|gz\.bin)$/;

/** Sizes and times of a snapshot's files. */
export function signatureOf(dir: string): string {
  let pageFiles: string[];
  try {
    pageFiles = readdirSync(dir).filter((name) => PAGE_FILE.test(name)).sort();
  } catch {
    pageFiles = [];
  }
  return [MANIFEST_FILE, MODEL_FILE, SEARCH_FILE, ...pageFiles].map((name) => {
    try {
      const s = statSync(join(dir, name));
      return `${s.size}:${s.mtimeMs}`;
    } catch {
      return '-';
    }
  }).join(' ');
}
