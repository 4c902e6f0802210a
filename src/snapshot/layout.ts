// Where snapshots live on disk. A snapshot is an immutable directory named by its content hash,
// holding manifest.json, the page bodies in shards (pages-000.bin, ..., with their br and gzip
// variants in pages-000.br.bin and pages-000.gz.bin: page-shards.ts says which page goes to which
// shard), model.ndjson and search.json, and what a rebuild starts from (page-inputs.ndjson,
// site-files.json, derived.bin); `current` is a symlink swapped atomically to the one being served.
import { join } from 'node:path';

export const MANIFEST_FILE = 'manifest.json';
/** what a page file holds: identity bodies, or their br or gzip variants */
export const PAGE_KINDS = ['body', 'br', 'gzip'] as const;
export type PageKind = (typeof PAGE_KINDS)[number];
const PAGE_SUFFIXES: Readonly<Record<PageKind, string>> = { body: '.bin', br: '.br.bin', gzip: '.gz.bin' };

/** The page file of one kind of one shard (each in page order): `pages-007.bin`, `pages-007.br.bin`, `pages-007.gz.bin`. */
export const pageFileName = (kind: PageKind, shard: number): string => `pages-${String(shard).padStart(3, '0')}${PAGE_SUFFIXES[kind]}`;

/** Every page file of a snapshot of `shards` shards, shard by shard. */
export const pageFileNames = (shards: number): string[] =>
  Array.from({ length: shards }, (_, shard) => PAGE_KINDS.map((kind) => pageFileName(kind, shard))).flat();

/**
 * How many shards a snapshot's files (its manifest's `files`) hold: the shards numbered from 0
 * whose three page files are all recorded. 0 for a snapshot of the single-file format.
 */
export function pageShardsOf(files: Readonly<Record<string, unknown>>): number {
  let shards = 0;
  while (PAGE_KINDS.every((kind) => files[pageFileName(kind, shards)] !== undefined)) shards++;
  return shards;
}
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
