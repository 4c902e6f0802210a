// Where snapshots live on disk. A snapshot is an immutable directory named by its content hash,
// holding manifest.json, the page bodies (pages.bin, with their br and gzip variants in
// pages.br.bin and pages.gz.bin), model.ndjson and search.json; `current` is a symlink swapped
// atomically to the one being served.
import { join } from 'node:path';

export const MANIFEST_FILE = 'manifest.json';
/** page bodies, and their br and gzip variants, each file in page order */
export const PAGE_FILES = { body: 'pages.bin', br: 'pages.br.bin', gzip: 'pages.gz.bin' } as const;
export const MODEL_FILE = 'model.ndjson';
/** the search index (MiniSearch, per kind, with prefix completions) */
export const SEARCH_FILE = 'search.json';

export interface Layout {
  readonly root: string;
  readonly current: string;
  readonly changes: string;
}

export function layoutOf(distDir: string): Layout {
  const root = join(distDir, 'snapshots');
  return { root, current: join(root, 'current'), changes: join(distDir, 'changes') };
}

/**
 * The file a page is exported to for a plain web server or CDN origin: `pages` + path +
 * (`@` + canonical query) + `.json`, e.g. `/v1/videos/abc` → `pages/v1/videos/abc.json`,
 * `/v1/videos?limit=20&sort=latest` → `pages/v1/videos@limit=20&sort=latest.json`. A path
 * segment that starts with `.` (an id such as `.x`) gets a `~` before it (`pages/v1/videos/~.x.json`):
 * most servers and static hosts hide or refuse dot files, and `~` is never in an id, so the name
 * stays unique. Ids never hold `/` and are never only dots, so every file stays inside its
 * folder; the web server maps a request to its file with the same rule (docs/cdn.md).
 */
export function pageFile(key: string): string {
  const q = key.indexOf('?');
  const path = (q === -1 ? key : key.slice(0, q)).replace(/\/\./g, '/~.');
  return q === -1 ? `pages${path}.json` : `pages${path}@${key.slice(q + 1)}.json`;
}
