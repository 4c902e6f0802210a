// Loads a snapshot for serving: the manifest as a Map, the page files held in memory (or read by
// range when they are larger than the cache budget), and the model rebuilt from model.ndjson, so dynamic
// answers come from exactly the data the static pages were rendered from.
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SnapshotInfo } from '../api/endpoint.ts';
import { buildModel, type Model } from '../model/build-model.ts';
import { loadSearchIndex, type SearchIndex } from '../search/search-index.ts';
import { MANIFEST_FILE, MODEL_FILE, PAGE_FILES, SEARCH_FILE } from '../snapshot/layout.ts';
import type { Manifest, PageEntry, Range } from '../snapshot/manifest.ts';
import { readModelData } from '../snapshot/model-data.ts';

export interface PageSource {
  read(range: Range): Buffer;
  close(): void;
}

export interface Snapshot {
  readonly id: string;
  readonly dir: string;
  readonly baseUrl: string;
  readonly pages: ReadonlyMap<string, PageEntry>;
  /** identity bodies, br and gzip variants */
  readonly sources: { readonly body: PageSource; readonly br: PageSource; readonly gzip: PageSource };
  readonly model: Model;
  readonly info: SnapshotInfo;
  /** its search index; absent for a snapshot built before search (handlers then build one on first use) */
  readonly search: SearchIndex | undefined;
  /** when its directory was written (ms since the epoch) */
  readonly builtAt: number;
}

function memorySource(file: string): PageSource {
  const all = readFileSync(file);
  return { read: ([offset, length]) => all.subarray(offset, offset + length), close: () => {} };
}

/** Reads each range from disk; the OS page cache keeps hot pages in memory. */
function diskSource(file: string): PageSource {
  const fd = openSync(file, 'r');
  return {
    read([offset, length]) {
      const buffer = Buffer.allocUnsafe(length);
      readSync(fd, buffer, 0, length, offset);
      return buffer;
    },
    close: () => closeSync(fd),
  };
}

/**
 * Loads a snapshot, in the order that keeps the peak of memory lowest: the search index and the
 * pages' table first (each parsed from one JSON text, let go before the next), then the model,
 * streamed a line at a time.
 */
export function loadSnapshot(dir: string, id: string, cacheBytes: number): Snapshot {
  const search = existsSync(join(dir, SEARCH_FILE)) ? loadSearchIndex(readFileSync(join(dir, SEARCH_FILE), 'utf8')) : undefined;
  const { pages, baseUrl } = readPages(join(dir, MANIFEST_FILE), id);
  const files = { body: join(dir, PAGE_FILES.body), br: join(dir, PAGE_FILES.br), gzip: join(dir, PAGE_FILES.gzip) };
  const total = statSync(files.body).size + statSync(files.br).size + statSync(files.gzip).size;
  const open = total <= cacheBytes ? memorySource : diskSource;
  const sources = { body: open(files.body), br: open(files.br), gzip: open(files.gzip) };
  const data = readModelData(join(dir, MODEL_FILE));
  const model = buildModel(data.catalogue, data.derived, data.baseUrl);
  return {
    id,
    dir,
    baseUrl,
    pages,
    sources,
    model,
    info: { id, videos: data.catalogue.videos.length, pages: pages.size, loadedAt: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z') },
    search,
    builtAt: statSync(join(dir, MANIFEST_FILE)).mtimeMs,
  };
}

/** The manifest's pages as a Map, filled entry by entry (no array of every entry on the way). */
function readPages(file: string, id: string): { pages: Map<string, PageEntry>; baseUrl: string } {
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  if (manifest.format !== 1) throw new Error(`snapshot ${id} has format ${String(manifest.format)}; rebuild it with npm run build`);
  const pages = new Map<string, PageEntry>();
  for (const key in manifest.pages) pages.set(key, manifest.pages[key]!);
  return { pages, baseUrl: manifest.baseUrl };
}

export function closeSnapshot(snapshot: Snapshot): void {
  for (const source of Object.values(snapshot.sources)) source.close();
}
