// `npm run build`: catalogue → model → every planned page rendered by its endpoint's handler →
// a new immutable snapshot directory → atomic swap of `current`. A failure at any step removes the
// half-written directory and leaves the served snapshot untouched. The build starts from the
// snapshot being served (docs/architecture.md, "Incremental builds"): when that snapshot was built
// by the same code, a page whose bytes did not change takes its compressed variants from it and
// is not checked against its schema again, and when the model data did not change the search
// index is copied from it; the result is byte-identical to a full build (`full`).
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
import { diffPages } from './diff-manifests.ts';
import { diffSiteFiles, readSiteFileStamps, SITE_FILES_FILE, stampSiteFiles, writeSiteFileStamps } from './site-file-stamps.ts';
import { describeDiskFault, writeAll } from './disk-faults.ts';
import { layoutOf, MANIFEST_FILE, MODEL_FILE, PAGE_FILES, SEARCH_FILE } from './layout.ts';
import { hashFile } from './page-files.ts';
import { buildSearchIndex, serialiseSearchIndex } from '../search/search-index.ts';
import { MANIFEST_FORMAT, manifestLinesOf, SNAPSHOT_ID_LENGTH, type FileRecord, type Manifest, type ManifestHead, type PageEntry } from './manifest.ts';
import { modelLines } from './model-data.ts';
import { createPageWriter, type PageWriter } from './page-writer.ts';
import { planPages } from './plan-pages.ts';
import { buildCodeId, openPreviousSnapshot, type PreviousSnapshot } from './previous-snapshot.ts';
import { renderPage } from './render-page.ts';
import { currentSnapshotId, pruneSnapshots, readBuiltFrom, recordBuiltFrom, recordServed, removeLeftovers, swapCurrent, withBuildLock, writeWhole } from './swap.ts';

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
  /** reuse nothing of the snapshot being served: render, check and compress every page */
  readonly full?: boolean;
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
  /** what was reused of the snapshot served before: why nothing, or how much */
  readonly reuse: Reuse;
}

export interface Reuse {
  /** why nothing of the previous snapshot was reused (undefined when it was used) */
  readonly none: string | undefined;
  /** pages whose bytes were the previous snapshot's: variants copied, schema check skipped */
  readonly pages: number;
  /** pages compressed anew */
  readonly compressed: number;
  /** whether search.json was copied (the model data did not change) */
  readonly search: boolean;
  /** why reading the previous page files stopped part way (a range failed its check) */
  readonly stopped: string | undefined;
  /** false when the model data was the served snapshot's, which was taken whole without rendering */
  readonly rendered: boolean;
}

/** Whether a snapshot is whole: its manifest's SHA-256 names it, and every file has the size and SHA-256 recorded. */
function snapshotWhole(snapshot: PreviousSnapshot): boolean {
  try {
    if (hashFile(join(snapshot.dir, MANIFEST_FILE)).sha256.slice(0, SNAPSHOT_ID_LENGTH) !== snapshot.id) return false;
    return Object.entries(snapshot.head.files).every(([name, recorded]) => {
      const file = hashFile(join(snapshot.dir, name));
      return file.size === recorded.size && file.sha256 === recorded.sha256;
    });
  } catch {
    return false;
  }
}

/**
 * The snapshot being served, for the purge list, and whether its bytes may be reused: only when
 * the same build code made it (buildCodeId, recorded beside the snapshots) and its page files have
 * the sizes its manifest records. `full` reuses nothing.
 */
function previousSnapshot(root: string, full: boolean, code: string): { previous: PreviousSnapshot | undefined; none: string | undefined } {
  const id = currentSnapshotId(root);
  if (id === undefined) return { previous: undefined, none: 'no snapshot is served yet' };
  const opened = openPreviousSnapshot(join(root, id), id);
  if (typeof opened === 'string') return { previous: undefined, none: `the served snapshot ${id} cannot be read: ${opened}` };
  const builtFrom = readBuiltFrom(root);
  const none = full ? 'a full build was asked for (--full)'
    : builtFrom?.snapshot !== id || builtFrom.code !== code ? `the served snapshot ${id} was built by other code`
    : typeof opened.files === 'string' ? `the served snapshot ${id} is damaged: ${opened.files}`
    : undefined;
  if (none !== undefined && typeof opened.files !== 'string') opened.files.close();
  return { previous: opened, none };
}

/** "1 h 2 min", "3 min 4 s", "5 s": a duration for progress lines. */
function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  if (s >= 60) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${s} s`;
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
    const code = buildCodeId();
    const { previous, none: reuseNone } = previousSnapshot(layout.root, options.full ?? false, code);
    const reuse = reuseNone === undefined ? previous : undefined;
    progress(reuse ? `starting from the served snapshot ${reuse.id} (${reuse.pages.size} pages)` : `building every page anew: ${reuseNone}`);
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
    progress(`model ready (${lap()}); writing model data`);
    const context: Context = { model, snapshot: undefined, liveStreams: () => model.live };

    const tmp = join(layout.root, `.building-${process.pid}-${Date.now()}`);
    mkdirSync(tmp);
    let writer: PageWriter | undefined;
    /** the snapshot directory this build created, until it is swapped in */
    let created: string | undefined;
    let changesFile: string | undefined;
    let whole: boolean | undefined;
    /** whether the served snapshot is whole (hashed once, when first asked) */
    const previousWhole = () => (whole ??= previous !== undefined && snapshotWhole(previous));
    /** The records first, the swap last: a failure before it leaves the served snapshot as it was. */
    const swapIn = (id: string) => {
      recordServed(layout.root, id);
      recordDeployment(options.distDir, options.baseUrl);
      recordBuiltFrom(layout.root, { snapshot: id, catalogueRevision: revision, code });
      swapCurrent(layout.root, id);
      const pruned = pruneSnapshots(layout.root, id, options.keep ?? 2);
      if (pruned.length > 0) progress(`removed ${pruned.length} older snapshot${pruned.length === 1 ? '' : 's'} (${options.keep ?? 2} served before this one are kept)`);
    };
    try {
      const modelFile = writeModelData(join(tmp, MODEL_FILE), modelLines(catalogue, derived, options.baseUrl));
      progress(`model data written (${lap()}); building the search index`);
      // Before the pages, while memory holds only the model: the index is written and let go. The
      // model data is everything the pages and the index are made from (the server rebuilds the
      // same model from it), so when it did not change, neither did the index.
      const searchFile = (reuse && copySearchIndex(reuse, modelFile, join(tmp, SEARCH_FILE))) || writeSearchIndex(join(tmp, SEARCH_FILE), model);
      const searchReused = reuse !== undefined && reuse.head.files[SEARCH_FILE]?.sha256 === searchFile.sha256 && reuse.head.files[MODEL_FILE]?.sha256 === modelFile.sha256;
      progress(`search index ${searchReused ? 'copied from the served snapshot' : 'written'}: ${(searchFile.size / 1e6).toFixed(1)} MB (${lap()}); rendering pages`);

      // The same model data and code make the same snapshot: when the served one is whole (its
      // manifest names it, every file has the SHA-256 recorded), it is the result: nothing is rendered.
      if (searchReused && reuse !== undefined && typeof reuse.files !== 'string' && !options.staticFiles && previousWhole()) {
        reuse.files.close();
        rmSync(tmp, { recursive: true, force: true });
        progress(`the model data is the served snapshot's, which is whole: it is this build's result, nothing rendered (${lap()})`);
        swapIn(reuse.id);
        const size = (name: string) => reuse.head.files[name]?.size ?? 0;
        return {
          id: reuse.id,
          pages: reuse.pages.size,
          bytes: { identity: size(PAGE_FILES.body), br: size(PAGE_FILES.br), gzip: size(PAGE_FILES.gzip), model: modelFile.size },
          videos: catalogue.videos.length,
          seconds: (performance.now() - started) / 1000,
          unchanged: true,
          changed: 0,
          changesFile: undefined,
          reuse: { none: undefined, pages: reuse.pages.size, compressed: 0, search: true, stopped: undefined, rendered: false },
        };
      }

      // The site's sitemaps and feeds are answered from the model; their ETags go with the
      // snapshot so the purge list names the ones that changed (site-file-stamps.ts).
      const siteStamps = stampSiteFiles(model);
      const siteFilesRecord = writeSiteFileStamps(tmp, siteStamps);
      progress(`${siteStamps.size} sitemaps and feeds stamped (${lap()})`);
      writer = createPageWriter(tmp, { reuse: reuse && typeof reuse.files !== 'string' ? { pages: reuse.pages, files: reuse.files } : undefined });
      const checkedBefore = reuse ? writer.isPrevious : undefined;
      // The pages the served snapshot has is the best estimate of the total before the plan is walked.
      const expected = previous?.pages.size ?? 0;
      const renderStarted = performance.now();
      let rendered = 0;
      let lastReport = performance.now();
      const report = () => {
        const w = writer!;
        const elapsed = (performance.now() - renderStarted) / 1000;
        const of = expected > rendered ? ` of about ${expected} (${Math.floor((rendered / expected) * 100)}%, ${formatDuration((elapsed / rendered) * (expected - rendered))} left)` : '';
        progress(`rendered ${rendered} pages${of}: ${w.counts.reused} as before, ${w.counts.compressed} compressed (${(w.bytes.identity / 1e6).toFixed(0)} MB of JSON)`);
      };
      for (const planned of planPages(model)) {
        let url: string | undefined = planned.url;
        for (let n = 0; url !== undefined && n < planned.pages; n++) {
          const page = renderPage(url, context, checkedBefore);
          writer.write(page.key, page.rendered);
          url = page.next;
          if (++rendered % 256 === 0) await writer.keepUp();
          if (performance.now() - lastReport > 5000) {
            lastReport = performance.now();
            report();
          }
        }
      }

      await writer.close();
      report();
      if (writer.reuseStopped) progress(`stopped reading the served snapshot's page files: ${writer.reuseStopped}; the pages after it were compressed anew`);
      progress(`pages written (${lap()}); writing manifest`);
      const keys = [...writer.entries.keys()].sort();
      const files: Record<string, FileRecord> = { ...writer.files, [MODEL_FILE]: modelFile, [SEARCH_FILE]: searchFile, [SITE_FILES_FILE]: siteFilesRecord };
      const head: ManifestHead = {
        format: MANIFEST_FORMAT,
        apiVersion: API_VERSION,
        baseUrl: options.baseUrl,
        counts: { videos: catalogue.videos.length, pages: keys.length },
        files: Object.fromEntries(Object.keys(files).sort().map((name) => [name, files[name]!])),
      };
      const entries = writer.entries;
      const pages = (function* (): Generator<[string, PageEntry]> {
        for (const key of keys) yield [key, entries.get(key)!];
      })();
      // The manifest records every other file's size and hash, so its own hash names them all.
      const id = writeManifest(join(tmp, MANIFEST_FILE), head, pages).digest('hex').slice(0, SNAPSHOT_ID_LENGTH);
      /** the manifest as an object, only for the static-file export */
      const manifest = (): Manifest => ({ ...head, pages: Object.fromEntries(keys.map((k) => [k, entries.get(k)!])) });

      // Everything is written aside (static files included) before anything is renamed into place.
      const target = join(layout.root, id);
      // A snapshot of the same id that was found damaged while it was read from (the served one) is
      // replaced by this build's copy: renamed aside, the new one renamed in, the damaged one removed.
      const damaged = existsSync(target) && previous?.id === id && (typeof previous.files === 'string' || writer.reuseStopped !== undefined || !previousWhole());
      const unchanged = existsSync(target) && !damaged;
      if (options.staticFiles && !unchanged) {
        progress(`writing the pages as static files (${lap()})`);
        const files = writeStaticFiles(tmp, manifest(), progress);
        progress(`${files} static files written (${lap()})`);
      }
      const byCodeUnits = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
      const changes = [...diffPages(previous?.pages, entries), ...diffSiteFiles(readSiteFileStamps(previous?.dir), siteStamps)].sort(byCodeUnits);
      if (changes.length > 0) {
        mkdirSync(layout.changes, { recursive: true });
        changesFile = join(layout.changes, `${id}.txt`);
        writeWhole(changesFile, changes.map((key) => `${options.baseUrl}${key}\n`).join(''));
      }
      if (unchanged) rmSync(tmp, { recursive: true, force: true });
      else if (damaged) {
        const aside = join(layout.root, `.building-${process.pid}-${Date.now()}-damaged`);
        renameSync(target, aside);
        renameSync(tmp, target);
        rmSync(aside, { recursive: true, force: true });
        progress(`replaced the damaged files of snapshot ${id} with this build's`);
      } else {
        renameSync(tmp, target);
        created = target;
      }
      if (options.staticFiles && !existsSync(join(target, STATIC_DIR))) {
        progress(`writing the pages as static files (${lap()})`);
        const files = writeStaticFiles(target, manifest(), progress);
        progress(`${files} static files written (${lap()})`);
      }
      swapIn(id);
      created = undefined;
      return {
        id,
        pages: keys.length,
        bytes: { identity: writer.bytes.identity, br: writer.bytes.br, gzip: writer.bytes.gzip, model: modelFile.size },
        videos: catalogue.videos.length,
        seconds: (performance.now() - started) / 1000,
        unchanged,
        changed: changes.length,
        changesFile,
        reuse: { none: reuseNone, pages: writer.counts.reused, compressed: writer.counts.compressed, search: searchReused, stopped: writer.reuseStopped, rendered: true },
      };
    } catch (error) {
      if (reuse && typeof reuse.files !== 'string') reuse.files.close();
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

/** Writes text given a piece at a time, a megabyte at a time; the size and SHA-256 of what it wrote. */
function writeText(file: string, pieces: Iterable<string>): FileRecord {
  const hash = createHash('sha256');
  let size = 0;
  const fd = openSync(file, 'w');
  try {
    let chunk: string[] = [];
    let length = 0;
    const flush = () => {
      const data = Buffer.from(chunk.join(''));
      writeAll(fd, data);
      hash.update(data);
      size += data.length;
      chunk = [];
      length = 0;
    };
    for (const piece of pieces) {
      chunk.push(piece);
      length += piece.length;
      if (length > 1 << 20) flush();
    }
    flush();
  } finally {
    closeSync(fd);
  }
  return { size, sha256: hash.digest('hex') };
}

const writeModelData = writeText;

/** Builds the search index and writes it a megabyte at a time (no second copy of it as bytes); its size and SHA-256. */
function writeSearchIndex(file: string, model: Parameters<typeof buildSearchIndex>[0]): FileRecord {
  return writeText(file, slices(serialiseSearchIndex(buildSearchIndex(model)), 1 << 20));
}

/** A string in pieces of about `size` UTF-16 units, never splitting a surrogate pair. */
function* slices(text: string, size: number): Generator<string> {
  for (let start = 0; start < text.length;) {
    let end = Math.min(text.length, start + size);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    yield text.slice(start, end);
    start = end;
  }
}

/**
 * Copies the served snapshot's search index when the model data it was built from is this build's
 * (same SHA-256; the same build code, checked by the caller), after checking the copy's hash
 * against its manifest; undefined when it cannot (the caller builds the index).
 */
function copySearchIndex(previous: PreviousSnapshot, model: FileRecord, file: string): FileRecord | undefined {
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

/**
 * Writes the manifest as JSON a page a line (manifest.ts manifestLines, without holding a string
 * of every page at once) and returns the running hash of what it wrote.
 */
function writeManifest(file: string, head: ManifestHead, pages: Iterable<[string, PageEntry]>): Hash {
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
    for (const line of manifestLinesOf(head, pages)) put(line);
    put('', true);
  } finally {
    closeSync(fd);
  }
  return hash;
}
