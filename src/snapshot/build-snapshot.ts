// `npm run build`: catalogue → model → every planned page rendered by its endpoint's handler →
// a new immutable snapshot directory → atomic swap of `current`. A failure at any step removes the
// half-written directory and leaves the served snapshot untouched.
import { createHash, type Hash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Context } from '../api/endpoint.ts';
import { API_VERSION } from '../api/version.ts';
import { STATIC_DIR, writeStaticFiles } from './static-files.ts';
import { openCatalogue } from '../catalogue/open-catalogue.ts';
import { checkCatalogue } from '../catalogue/check-catalogue.ts';
import { readCatalogue } from '../catalogue/read-catalogue.ts';
import { readRevision } from '../catalogue/revision.ts';
import { buildModel, deriveCatalogue } from '../model/build-model.ts';
import { checkDeploymentOrigin, recordDeployment } from './deployment.ts';
import { diffManifests, type PageEtags } from './diff-manifests.ts';
import { describeDiskFault, writeAll } from './disk-faults.ts';
import { layoutOf, MANIFEST_FILE, MODEL_FILE, SEARCH_FILE } from './layout.ts';
import { buildSearchIndex, serialiseSearchIndex } from '../search/search-index.ts';
import { MANIFEST_FORMAT, manifestLines, SNAPSHOT_ID_LENGTH, type FileRecord, type Manifest } from './manifest.ts';
import { modelLines } from './model-data.ts';
import { createPageWriter, type PageWriter } from './page-writer.ts';
import { planPages } from './plan-pages.ts';
import { renderPage } from './render-page.ts';
import { currentSnapshotId, pruneSnapshots, recordBuiltFrom, recordServed, removeLeftovers, swapCurrent, withBuildLock, writeWhole } from './swap.ts';

export interface BuildOptions {
  readonly catalogue: string;
  readonly distDir: string;
  readonly baseUrl: string;
  readonly onProgress?: (message: string) => void;
  /** snapshots served before the current one that are kept, for rollback and nginx's old workers */
  readonly keep?: number;
  /**
   * The build may be for another base URL than the one this deployment serves (dist/deployment.json),
   * and records its own; without it such a build is refused before anything is written.
   */
  readonly newOrigin?: boolean;
  /** where `baseUrl` came from, for the refusal's message (deployment.ts baseUrlSource) */
  readonly baseUrlSource?: string;
  /** also write the pages as plain files under `static/` (static-files.ts) */
  readonly staticFiles?: boolean;
}

export interface BuildSummary {
  readonly id: string;
  readonly pages: number;
  readonly bytes: { identity: number; br: number; gzip: number; model: number };
  readonly videos: number;
  readonly seconds: number;
  readonly unchanged: boolean;
  readonly changed: number;
  readonly changesFile: string | undefined;
}

/** The ETags of the snapshot being served, read before the build grows its heap. */
function readPreviousEtags(current: string): PageEtags | undefined {
  const file = join(current, MANIFEST_FILE);
  if (!existsSync(file)) return undefined;
  const { pages } = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  return { pages: Object.fromEntries(Object.entries(pages).map(([key, entry]) => [key, { etag: entry.etag }])) };
}

export async function buildSnapshot(options: BuildOptions): Promise<BuildSummary> {
  const started = performance.now();
  const progress = options.onProgress ?? (() => {});
  const layout = layoutOf(options.distDir);
  if (!existsSync(options.catalogue)) {
    throw new Error(`no catalogue at ${options.catalogue}: create one with npm run seed or npm run import -- FILE`);
  }
  mkdirSync(layout.root, { recursive: true });

  return withBuildLock(layout.root, async () => {
    checkDeploymentOrigin(options.distDir, options.baseUrl, { newOrigin: options.newOrigin ?? false, source: options.baseUrlSource ?? 'the base URL it was given' });
    const leftovers = removeLeftovers(options.distDir, layout.root, layout.changes);
    if (leftovers.length > 0) progress(`removed ${leftovers.length} leftover${leftovers.length === 1 ? '' : 's'} of builds that were stopped: ${leftovers.map((l) => basename(l)).join(', ')}`);
    const lap = (() => {
      let last = performance.now();
      return () => {
        const now = performance.now();
        const seconds = ((now - last) / 1000).toFixed(1);
        last = now;
        const m = process.memoryUsage();
        return `${seconds} s, heap ${(m.heapUsed / 1e6).toFixed(0)} MB, rss ${(m.rss / 1e6).toFixed(0)} MB, buffers ${(m.arrayBuffers / 1e6).toFixed(0)} MB`;
      };
    })();
    const previous = readPreviousEtags(layout.current);
    progress(`reading ${options.catalogue}`);
    const db = openCatalogue(options.catalogue, { readonly: true });
    const { catalogue, revision } = (() => {
      try {
        return db.transaction(() => {
          checkCatalogue(db); // names the record and field that would break the site
          return { catalogue: readCatalogue(db), revision: readRevision(db) };
        })();
      } finally {
        db.close();
      }
    })();
    progress(`read ${catalogue.videos.length} visible videos, ${catalogue.comments.length} comments (${lap()}); computing trending and related`);
    const derived = deriveCatalogue(catalogue);
    progress(`trending and related computed (${lap()}); building the model`);
    const model = buildModel(catalogue, derived, options.baseUrl);
    progress(`model ready (${lap()}); building the search index`);
    const context: Context = { model, snapshot: undefined, liveStreams: () => model.live };

    const tmp = join(layout.root, `.building-${process.pid}-${Date.now()}`);
    mkdirSync(tmp);
    let writer: PageWriter | undefined;
    /** the snapshot directory this build created, until it is swapped in */
    let created: string | undefined;
    let changesFile: string | undefined;
    try {
      writer = createPageWriter(tmp);
      // Before the pages, while memory holds only the model: the index is written and let go.
      let searchFile: FileRecord;
      {
        const searchJson = Buffer.from(serialiseSearchIndex(buildSearchIndex(model)));
        writeFileSync(join(tmp, SEARCH_FILE), searchJson);
        searchFile = { size: searchJson.length, sha256: createHash('sha256').update(searchJson).digest('hex') };
        progress(`search index written: ${(searchJson.length / 1e6).toFixed(1)} MB (${lap()}); rendering pages`);
      }
      let rendered = 0;
      let lastReport = performance.now();
      for (const planned of planPages(model)) {
        let url: string | undefined = planned.url;
        for (let n = 0; url !== undefined && n < planned.pages; n++) {
          const page = renderPage(url, context);
          writer.write(page.key, page.rendered);
          url = page.next;
          if (++rendered % 256 === 0) await writer.keepUp();
          if (performance.now() - lastReport > 5000) {
            lastReport = performance.now();
            progress(`rendered ${rendered} pages (${(writer.bytes.identity / 1e6).toFixed(0)} MB of JSON)`);
          }
        }
      }

      await writer.close();
      progress(`rendered ${rendered} pages (${lap()}); writing model data`);
      const modelHash = createHash('sha256');
      let modelBytes = 0;
      const fd = openSync(join(tmp, MODEL_FILE), 'w');
      try {
        let chunk: string[] = [];
        let size = 0;
        const flush = () => {
          const data = Buffer.from(chunk.join(''));
          writeAll(fd, data);
          modelHash.update(data);
          modelBytes += data.length;
          chunk = [];
          size = 0;
        };
        for (const line of modelLines(catalogue, derived, options.baseUrl)) {
          chunk.push(line);
          size += line.length;
          if (size > 1 << 20) flush();
        }
        flush();
      } finally {
        closeSync(fd);
      }

      progress(`model data written (${lap()}); writing manifest`);
      const keys = [...writer.entries.keys()].sort();
      const files: Record<string, FileRecord> = { ...writer.files, [MODEL_FILE]: { size: modelBytes, sha256: modelHash.digest('hex') }, [SEARCH_FILE]: searchFile };
      const manifest: Manifest = {
        format: MANIFEST_FORMAT,
        apiVersion: API_VERSION,
        baseUrl: options.baseUrl,
        counts: { videos: catalogue.videos.length, pages: keys.length },
        files: Object.fromEntries(Object.keys(files).sort().map((name) => [name, files[name]!])),
        pages: Object.fromEntries(keys.map((k) => [k, writer!.entries.get(k)!])),
      };
      // The manifest records every other file's size and hash, so its own hash names them all.
      const id = writeManifest(join(tmp, MANIFEST_FILE), manifest).digest('hex').slice(0, SNAPSHOT_ID_LENGTH);

      // Everything is written aside (static files included) before anything is renamed into place.
      const target = join(layout.root, id);
      const unchanged = existsSync(target);
      if (options.staticFiles && !unchanged) {
        progress(`writing the pages as static files (${lap()})`);
        const files = writeStaticFiles(tmp, manifest, progress);
        progress(`${files} static files written (${lap()})`);
      }
      const changes = diffManifests(previous, manifest);
      if (changes.length > 0) {
        mkdirSync(layout.changes, { recursive: true });
        changesFile = join(layout.changes, `${id}.txt`);
        writeWhole(changesFile, changes.map((key) => `${options.baseUrl}${key}\n`).join(''));
      }
      if (unchanged) rmSync(tmp, { recursive: true, force: true });
      else {
        renameSync(tmp, target);
        created = target;
      }
      if (options.staticFiles && !existsSync(join(target, STATIC_DIR))) {
        progress(`writing the pages as static files (${lap()})`);
        const files = writeStaticFiles(target, manifest, progress);
        progress(`${files} static files written (${lap()})`);
      }
      // The records first, the swap last: a failure before it leaves the served snapshot as it was.
      recordServed(layout.root, id);
      recordDeployment(options.distDir, options.baseUrl);
      recordBuiltFrom(layout.root, { snapshot: id, catalogueRevision: revision });
      swapCurrent(layout.root, id);
      created = undefined;

      const pruned = pruneSnapshots(layout.root, id, options.keep ?? 2);
      if (pruned.length > 0) progress(`removed ${pruned.length} older snapshot${pruned.length === 1 ? '' : 's'} (${options.keep ?? 2} served before this one are kept)`);
      return {
        id,
        pages: keys.length,
        bytes: { identity: writer.bytes.identity, br: writer.bytes.br, gzip: writer.bytes.gzip, model: modelBytes },
        videos: catalogue.videos.length,
        seconds: (performance.now() - started) / 1000,
        unchanged,
        changed: changes.length,
        changesFile,
      };
    } catch (error) {
      // Remove everything this build wrote; a failure while cleaning up must not hide the first one.
      try {
        await writer?.abort();
      } catch { /* the files are removed below */ }
      rmSync(tmp, { recursive: true, force: true });
      if (created !== undefined) rmSync(created, { recursive: true, force: true });
      if (changesFile !== undefined && currentSnapshotId(layout.root) !== basename(changesFile, '.txt')) rmSync(changesFile, { force: true });
      const served = currentSnapshotId(layout.root);
      throw describeDiskFault(error, layout.root,
        `what this build wrote was removed, and ${served === undefined ? 'no snapshot is served yet' : `snapshot ${served} is still served`}`,
        served === undefined ? undefined : snapshotBytes(layout.current));
    }
  });
}

/** The bytes of a snapshot's own files (its static/ copy aside). */
function snapshotBytes(dir: string): number | undefined {
  try {
    return readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile()).reduce((sum, e) => sum + statSync(join(dir, e.name)).size, 0);
  } catch {
    return undefined;
  }
}

/**
 * Writes the manifest as JSON a page a line (manifest.ts manifestLines, without holding a string
 * of every page at once) and returns the running hash of what it wrote.
 */
function writeManifest(file: string, manifest: Manifest): Hash {
  const hash = createHash('sha256');
  const fd = openSync(file, 'w');
  try {
    let chunk = '';
    const put = (text: string, force = false) => {
      chunk += text;
      if (chunk.length > 1 << 20 || force) {
        const data = Buffer.from(chunk);
        writeAll(fd, data);
        hash.update(data);
        chunk = '';
      }
    };
    for (const line of manifestLines(manifest)) put(line);
    put('', true);
  } finally {
    closeSync(fd);
  }
  return hash;
}
