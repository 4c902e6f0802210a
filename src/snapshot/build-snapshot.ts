// `npm run build`: catalogue → model → every planned page rendered by its endpoint's handler →
// a new immutable snapshot directory → atomic swap of `current`. A failure at any step removes the
// half-written directory and leaves the served snapshot untouched. The build starts from the
// snapshot being served (docs/architecture.md, "Incremental builds"): when that snapshot was built
// by the same code, a page whose inputs did not change is copied from it unrendered, a page whose
// bytes did not change takes its compressed variants from it and is not checked against its
// schema again, and the search index is copied from it when the search documents did not change, else patched; the
// result is byte-identical to a full build (`full`). Each step is its own module: reading
// (read-build-input.ts), the reuse decision (choose-previous.ts), trending and related
// (derive-on-worker.ts: on a worker thread while the served manifest is read and the model's
// records are taken), the model data with every video's input key (one serialisation of each
// record for both: model-data.ts, page-inputs.ts), the search index
// (search-file.ts: patched or built on a worker thread while the pages are rendered), the pages
// (render-pages.ts), the manifest (write-manifest.ts) and the swap (install-snapshot.ts); this
// file runs them in order and cleans up after a failure.
import { existsSync, mkdirSync, readdirSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ResourceLimits } from 'node:worker_threads';
import { startModel, type Derived, type Model } from '../model/build-model.ts';
import { prepareDerive, type DerivedPacked, type DeriveSource, type DeriveTask } from './derive-on-worker.ts';
import { DERIVED_FILE, linkDerivedFile, writeDerivedFile } from './derived-file.ts';
import { checkDeploymentOrigin } from './deployment.ts';
import { diffPages } from './diff-manifests.ts';
import { diffSiteFiles, readSiteFileStamps, SITE_FILES_FILE, stampSiteFiles, writeSiteFileStamps } from './site-file-stamps.ts';
import { describeDiskFault } from './disk-faults.ts';
import { layoutOf, type Layout, MANIFEST_FILE, MODEL_FILE, pageFileName, pageShardsOf, SEARCH_FILE, type PageKind } from './layout.ts';
import type { FileRecord } from './manifest.ts';
import { modelPieces } from './model-data.ts';
import { openModelReuse, servedMark, startServedReading, type ServedReading } from './model-reuse.ts';
import { createPageWriter, type PageWriter, type ReusablePages } from './page-writer.ts';
import { PageTable } from './page-table.ts';
import { startLinkCheck, type MadeKeys } from './link-check.ts';
import type { ShardCheck } from './shard-check.ts';
import { shardCountFor } from './page-shards.ts';
import { buildCodeId } from './previous-snapshot.ts';
import { currentSnapshotId, readBuiltFrom, removeLeftovers, stampsOf, withBuildLock } from './swap.ts';
import { createLap } from './build-progress.ts';
import { readBuildInput, type BuildInput } from './read-build-input.ts';
import { snapshotWhole, startChoosePrevious, type PreviousChoice } from './choose-previous.ts';
import { copySearchIndex, NEEDS_EVERY_DOCUMENT, packChangedDocuments, packSearchDocuments, readServedDigests, SEARCH_DIGESTS_FILE, servedSearchOf, startSearchWorker, type SearchFiles, type SearchIndexTask } from './search-file.ts';
import { withoutKeys, type KeyedDigests } from '../search/document-digests.ts';
import { startTextOffThread, type TextWriting } from './write-text-off-thread.ts';
import { PAGE_INPUTS_FILE, readPageInputs, videoGroup, videoInputKeys, videoKeysOf, writePageInputs, type PageInputs } from './page-inputs.ts';
import { renderPages } from './render-pages.ts';
import { estimateListPages, estimatePages } from './plan-pages.ts';
import { writeManifest } from './write-manifest.ts';
import { placeSnapshot, serveSnapshot, writeChanges, type Serving, type Written } from './install-snapshot.ts';

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
  /** the search index worker's heap limits (default: V8's, as the main thread's) */
  readonly searchLimits?: ResourceLimits;
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
  /** of `pages`, those copied without being rendered: their inputs did not change (page-inputs.ts) */
  readonly copied: number;
  /** shards of page files hard-linked from the served snapshot, not written (page-writer.ts) */
  readonly linked: number;
  /** whether search.json was copied (its documents, keys and digests, are the served ones) */
  readonly search: boolean;
  /**
   * the search documents indexed anew when the served index was patched (their digest changed, or
   * they are new: patch-index.ts), of every kind; undefined when it was copied or built whole
   */
  readonly searchIndexed?: number | undefined;
  /** sitemaps and feeds whose ETag was carried from the served snapshot, unrendered (their inputs did not change) */
  readonly siteFiles: number;
  /** why reading the previous page files stopped part way (a range failed its check) */
  readonly stopped: string | undefined;
  /** false when the model data was the served snapshot's, which was taken whole without rendering */
  readonly rendered: boolean;
  /** whether trending, related and the sort orders were taken from the served snapshot (derived-file.ts), not computed */
  readonly derived: boolean;
  /** what the model data took from the served snapshot by the change log (model-reuse.ts), or why nothing */
  readonly model: ModelDataReuse;
}

/** The records the change log named, the served lines copied and the served video keys taken; or why nothing was. */
export type ModelDataReuse = { readonly changed: number; readonly videoLines: number; readonly commentLines: number; readonly keys: number; readonly none?: undefined } | { readonly none: string };

const byCodeUnits = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

export async function buildSnapshot(options: BuildOptions): Promise<BuildSummary> {
  const started = performance.now();
  const layout = layoutOf(options.distDir);
  if (!existsSync(options.catalogue)) {
    throw new Error(`no catalogue at ${options.catalogue}: create one with npm run seed or npm run import -- FILE`);
  }
  // the first folder made here (DIST_DIR itself on a first build): a build that fails before writing
  // anything leaves none of it behind, as a missing catalogue leaves nothing
  const made = mkdirSync(layout.root, { recursive: true });
  // only a build that held the lock tidies: one refused by another's lock leaves that build's folders be
  let locked = false;
  try {
    return await withBuildLock(layout.root, () => {
      locked = true;
      return runBuild(options, layout, started);
    }, () => {
      // stopped by a signal (swap.ts withBuildLock): what this build wrote aside, and the folders it made if they are left empty
      const removed = removeLeftovers(options.distDir, layout.root, layout.changes, 'own');
      if (made !== undefined) removeEmptyFolders(made);
      return removed;
    });
  } catch (error) {
    if (locked && made !== undefined) removeEmptyFolders(made);
    throw error;
  }
}

/** Removes `dir` when it holds nothing but empty folders (a file anywhere keeps it and its folders). */
function removeEmptyFolders(dir: string): void {
  try {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) removeEmptyFolders(join(dir, entry.name));
    }
    rmdirSync(dir);
  } catch {
    // not empty, or already gone: nothing to tidy
  }
}

/** What every step of one build shares. */
interface Build {
  readonly options: BuildOptions;
  readonly layout: Layout;
  readonly started: number;
  readonly progress: (message: string) => void;
  readonly lap: () => string;
  readonly choice: PreviousChoice;
  readonly input: BuildInput;
  /** the snapshot whose mark of the change log `input.changed` was read since (model-reuse.ts servedMark) */
  readonly markOf: string | undefined;
  /** its model data, being read whole on a worker thread since the build started (model-reuse.ts startServedReading) */
  readonly reading: ServedReading | undefined;
  readonly derived: Derived;
  /** the same, as derived.bin holds it, with the fingerprint of the fields it was computed from */
  readonly derivedPacked: { readonly packed: DerivedPacked; readonly fingerprint: string };
  readonly derivedSource: DeriveSource;
  readonly model: Model;
  /** the input key of every video's pages (page-inputs.ts), filled as the model data is written; the other pages' and site files' are added */
  readonly videoInputs: Map<string, string>;
  /** the same keys by the video's place in the catalogue (and the model: model.entries), filled alike */
  readonly keysByIndex: (string | undefined)[];
  /** where the snapshot is written, until it is renamed into place */
  readonly tmp: string;
  readonly serving: Serving;
  /** whether the served snapshot is whole (hashed once, when first asked) */
  readonly previousWhole: () => boolean;
  /** the served snapshot's pages and page files, when they may be reused */
  readonly reusable: ReusablePages | undefined;
  /** the input keys the served snapshot recorded, when its pages may be copied */
  readonly previousInputs: PageInputs | undefined;
}

/** How the progress line says where trending and related came from. */
const DERIVED_FROM: Readonly<Record<DeriveSource, string>> = {
  read: 'computed from the worker\'s own read of the catalogue',
  served: 'taken from the served snapshot (computed from the same fields)',
  given: 'computed from the fields read here (the catalogue changed between the two reads, or the worker could not read it)',
};

/**
 * The served snapshot the derive worker may take trending and related from (derived-file.ts): the
 * one this code built (built-from.json), unless the build is a full one. Only a hint: the numbers
 * are used only when the snapshot chosen for reuse records the same file (derive-on-worker.ts).
 */
function servedForDerive(root: string, full: boolean, code: string): { id: string; dir: string } | undefined {
  if (full) return undefined;
  const id = currentSnapshotId(root);
  const builtFrom = readBuiltFrom(root);
  return id !== undefined && builtFrom?.snapshot === id && builtFrom.code === code ? { id, dir: join(root, id) } : undefined;
}

async function runBuild(options: BuildOptions, layout: Layout, started: number): Promise<BuildSummary> {
  const progress = options.onProgress ?? (() => {});
  checkDeploymentOrigin(options.distDir, options.baseUrl, { newOrigin: options.newOrigin ?? false, source: options.baseUrlSource ?? 'the base URL it was given' });
  const leftovers = removeLeftovers(options.distDir, layout.root, layout.changes);
  if (leftovers.length > 0) progress(`removed ${leftovers.length} leftover${leftovers.length === 1 ? '' : 's'} of builds that were stopped: ${leftovers.map((l) => basename(l)).join(', ')}`);
  const lap = createLap();
  const code = buildCodeId();
  // Independent of each other: trending and related on the second core (derive-on-worker.ts: the
  // worker starts now, reads the few fields they need from the catalogue itself and computes while
  // this thread reads the catalogue whole, then takes the catalogue's records into the model
  // (startModel), which is finished once trending and related are in.
  const deriving = prepareDerive(options.catalogue, servedForDerive(layout.root, options.full ?? false, code));
  // the served manifest is read into a page table on another worker while the catalogue is read
  // (choose-previous.ts startChoosePrevious: the second core is idle until trending and related start)
  const choosing = startChoosePrevious(layout.root, options.full ?? false, code);
  let input: BuildInput;
  let choice: PreviousChoice;
  let task: DeriveTask;
  let starting: ReturnType<typeof startModel>;
  // where the catalogue's change log stood for the served snapshot: what changed since is read with the records
  const since = servedMark(layout.root, options.full ?? false, code);
  // the served model data, whose unchanged lines may be copied, is checked and its lines found on a
  // worker thread from now on (served-model-data.ts), while this thread reads the catalogue
  const reading = startServedReading(layout.root, since);
  try {
    progress(`reading ${options.catalogue}`);
    input = readBuildInput(options.catalogue, since?.mark);
    progress(`read ${input.catalogue.videos.length} visible videos, ${input.catalogue.comments.length} comments (${lap()}); trending and related on a worker thread, the served manifest and the model's records here`);
    choice = await choosing.chosen();
    progress(choice.reuse ? `starting from the served snapshot ${choice.reuse.id} (${choice.reuse.pages.size} pages)` : `building every page anew: ${choice.none}`);
    const reusedDerived = choice.reuse?.head.files[DERIVED_FILE];
    task = deriving.give(input.catalogue.videos, choice.reuse && reusedDerived ? { id: choice.reuse.id, record: reusedDerived } : undefined);
    starting = startModel(input.catalogue);
  } catch (error) {
    await deriving.stop();
    await choosing.stop();
    await reading?.task.stop();
    throw error;
  }
  // read here while the worker computes: the served snapshot's pages and the input keys it recorded
  const { reuse } = choice;
  const reusable = reuse && typeof reuse.files !== 'string' ? { pages: reuse.pages, files: reuse.files } : undefined;
  let previousInputs: PageInputs | undefined;
  let derived: Derived;
  let derivedSource: DeriveSource;
  let model: Model;
  try {
    previousInputs = reusable && reuse ? readPageInputs(reuse.dir, reuse.head.files[PAGE_INPUTS_FILE]) : undefined;
    derived = await task.derived;
    derivedSource = await task.source;
    progress(`trending and related ${DERIVED_FROM[derivedSource]}, the served manifest read and the model's records taken (${lap()}); finishing the model`);
    model = starting.finish(derived, options.baseUrl);
  } catch (error) {
    if (choice.reuse && typeof choice.reuse.files !== 'string') choice.reuse.files.close();
    choice.reuse?.manifestLines?.close();
    await reading?.task.stop();
    throw error;
  }
  progress(`model ready (${lap()}); the search index and the model data next`);
  // filled as the model data is written: each record is serialised once, for its line and its key
  const videoInputs = new Map<string, string>();
  const keysByIndex = new Array<string | undefined>(input.catalogue.videos.length).fill(undefined);
  const written: Leftovers = { reading };
  const tmp = join(layout.root, `.building-${process.pid}-${Date.now()}`);
  mkdirSync(tmp);
  let whole: boolean | undefined;
  const build: Build = {
    options, layout, started, progress, lap, choice, input, markOf: since?.snapshot, reading, derived, derivedPacked: await task.packed, derivedSource, model, videoInputs, keysByIndex, tmp,
    serving: { layout, distDir: options.distDir, baseUrl: options.baseUrl, catalogueRevision: input.revision, changeLog: input.changeLog, code, keep: options.keep ?? 2, progress },
    previousWhole: () => (whole ??= choice.previous !== undefined && snapshotWhole(choice.previous)),
    reusable, previousInputs,
  };
  try {
    const data = await writeDataFiles(build, written);
    // the served shards are checked for linking from now on, on a worker thread (link-check.ts),
    // while this thread stamps the site files: the changed videos are known once their keys are
    if (reusable && previousInputs) written.check = startLinkCheck(reusable.files, reusable.files.shards, videoInputs, previousInputs, data.madeKeys, stampsOf(build.layout.root, reusable.files.id));
    const served = await takeServedWhole(build, data);
    if (served) await written.check?.stop();
    return served ?? await writeAndServe(build, data, written);
  } catch (error) {
    throw await cleanUp(build, written, error);
  }
}

interface DataFiles {
  /** the model data's record, once its worker thread has written it (awaited before the manifest) */
  readonly model: Promise<FileRecord>;
  /** the records of search.json and its documents' digests: copied, or being written by its worker thread while the pages are (awaited before the manifest) */
  readonly search: Promise<SearchFiles>;
  /** whether search.json was copied from the served snapshot (its documents, keys and digests, are the served ones) */
  readonly searchReused: boolean;
  /** throws the search worker's failure once it has failed (a no-op when search.json was copied) */
  readonly checkSearch: () => void;
  /** throws the model data writer's failure once it has failed */
  readonly checkModel: () => void;
  readonly modelReuse: ModelDataReuse;
  /** the videos whose input keys were made, when the others' were taken from the served snapshot */
  readonly madeKeys: MadeKeys | undefined;
}

/**
 * The search index and the model data. The index is built on a worker thread (search-file.ts),
 * which writes search.json while this thread makes the model data's text and every video's input
 * key, stamps the site files and renders the pages: its time hides behind theirs on a machine with a
 * second core. The model data is written on a worker thread of its own (write-text-off-thread.ts),
 * which copies the served lines itself: this thread goes on once it has handed every piece, and the
 * file's record is awaited before the manifest. When the served
 * snapshot has the digests of its search documents, only the documents the change log names are
 * packed; when every document is then the served one, search.json is copied, else the worker
 * patches the served index (docs/architecture.md, "Incremental builds").
 */
async function writeDataFiles(build: Build, written: Leftovers): Promise<DataFiles> {
  const { tmp, input, derived, options, progress, lap, videoInputs, keysByIndex } = build;
  const search = writeSearch(build, written);
  progress(`writing model data and every video's input key`);
  const key = videoInputKeys(options.baseUrl);
  // the lines and keys of the records that did not change since the served snapshot are taken from it (model-reuse.ts)
  const taken = await openModelReuse({ markOf: build.markOf, reading: build.reading, changed: input.changed, choice: build.choice, baseUrl: options.baseUrl, previousInputs: build.previousInputs,
    sameDerived: build.derivedSource === 'served', keyTaken: (video, k, i) => videoInputs.set(videoGroup(video.id), (keysByIndex[i] = k)) });
  // the videos whose keys are made, for the link check, when the others' are taken (a full build makes them all)
  const made: string[] | undefined = taken.reuse && [];
  // the worker copies the served lines through the served file's descriptor: it is closed once the model data is written
  const writing = startTextOffThread(join(tmp, MODEL_FILE), modelPieces(input.catalogue, derived, options.baseUrl, (video, json, channel, comments, i) => {
    made?.push(video.id);
    videoInputs.set(videoGroup(video.id), (keysByIndex[i] = key(json, channel, comments)));
  }, taken.reuse));
  written.modelWriting = writing;
  const model = writing.record.finally(async () => {
    taken.reuse?.served.close();
    await written.reading?.task.stop();
    delete written.reading;
  });
  let failure: { error: unknown } | undefined;
  model.catch((error: unknown) => (failure = { error }));
  await writing.handed;
  const counts = taken.reuse?.counts;
  const modelReuse: ModelDataReuse = counts ? { changed: taken.reuse.changes.count, ...counts } : { none: taken.none! };
  progress(`model data made, and every video's input key (${lap()}): ${counts
    ? `${taken.reuse.changes.count} records changed since the served snapshot (change log); ${counts.videoLines} video and ${counts.commentLines} comment lines copied, ${counts.keys} keys taken`
    : `every line made (${taken.none})`}; written on a worker thread while the pages are`);
  const checkModel = () => {
    if (failure) throw failure.error;
  };
  return { model, ...search, modelReuse, checkModel, madeKeys: counts && made && { ids: made, taken: counts.keys } };
}

/**
 * search.json and its documents' digests: copied from the served snapshot when this build's search
 * documents are the served ones, else built on the worker (search-file.ts): handed the documents the
 * change log names, to patch the served index with, when the served snapshot has their digests
 * (and every document, should that patch be refused: NEEDS_EVERY_DOCUMENT); every document, to
 * index whole, otherwise. The worker is stopped by cleanUp after a failure.
 */
function writeSearch(build: Build, written: Leftovers): Pick<DataFiles, 'search' | 'searchReused' | 'checkSearch'> {
  const { tmp, model, input, options, choice: { reuse }, progress, lap } = build;
  const file = join(tmp, SEARCH_FILE);
  const files = reuse && servedSearchOf(reuse);
  let servedDigests: KeyedDigests | undefined;
  try {
    servedDigests = files && readServedDigests(files);
  } catch (error) {
    progress(`the served search documents' digests cannot be used (${(error as Error).message}): every document packed`);
  }
  const served = files && servedDigests ? { files, digests: servedDigests } : undefined;
  // what the worker is handed of the served digests: no keys (it has the served index's)
  const servedJob = served && { files: served.files, digests: withoutKeys(served.digests) };
  /** a worker handed every document: to patch the served index when there is one, else to index them whole */
  const everyDocument = () => {
    const worker = (written.search = startSearchWorker(file, options.searchLimits));
    worker.index({ documents: packSearchDocuments(model), complete: true, served: servedJob });
    return worker.record;
  };
  let record: Promise<SearchFiles>;
  // the change log names what changed since the served snapshot only when its mark is the served one's (model-reuse.ts)
  const changes = build.markOf === reuse?.id ? input.changed.changes : undefined;
  let changed: ReturnType<typeof packChangedDocuments> | undefined;
  try {
    changed = served && packChangedDocuments(model, changes, served.digests);
    const copied = served && changed && copySearchIndex(served.files, served.digests, changed.digests, file);
    if (copied) {
      progress(`search index copied from the served snapshot, its search documents unchanged (${changed!.packed} packed): ${(copied.search.size / 1e6).toFixed(1)} MB (${lap()})`);
      return { search: Promise.resolve(copied), searchReused: true, checkSearch: () => {} };
    }
  } catch (error) {
    // served digests that passed their check yet do not fit (an earlier build's fault): the index is built whole
    progress(`the served search documents' digests cannot be used (${(error as Error).message}): every document packed`);
    changed = undefined;
  }
  if (served && changed) {
    const worker = (written.search = startSearchWorker(file, options.searchLimits));
    worker.index({ documents: changed.documents, complete: changed.complete, digests: withoutKeys(changed.digests), served: servedJob });
    progress(`search index started on a worker thread, to patch the served one with the documents that changed (${changed.packed} packed) (${lap()})`);
    record = changed.complete ? worker.record : worker.record.catch((error: Error & { code?: string }) => {
      // a build being cleaned up (cleanUp stopped the worker) starts no other
      if (error.code !== NEEDS_EVERY_DOCUMENT || written.stopping) throw error;
      progress(`${error.message}: every document packed`);
      return everyDocument();
    });
  } else {
    record = everyDocument();
    progress(`search index started on a worker thread (${lap()})`);
  }
  let failure: { error: unknown } | undefined;
  record.catch((error: unknown) => (failure = { error }));
  return {
    search: record,
    searchReused: false,
    checkSearch: () => {
      if (failure) throw failure.error;
    },
  };
}

/** How the search index was made: patched (what was indexed anew), or built whole (and why the served one was not patched). */
function searchWay({ patch, refused }: SearchFiles): string {
  if (patch) {
    const { videos, channels, playlists } = patch;
    return `patched from the served one: ${videos.indexed} videos, ${channels.indexed} channels and ${playlists.indexed} playlists indexed anew, ${videos.dropped + channels.dropped + playlists.dropped} documents dropped, ${videos.ranked + channels.ranked + playlists.ranked} top lists ranked again`;
  }
  return refused ? `built whole (the served one could not be patched: ${refused})` : 'built whole';
}

const indexedOf = ({ patch }: SearchFiles): number | undefined => patch && patch.videos.indexed + patch.channels.indexed + patch.playlists.indexed;

/**
 * The same model data and code make the same snapshot: when the served one is whole (its manifest
 * names it, every file has the SHA-256 recorded), it is the result and nothing is rendered.
 */
async function takeServedWhole(build: Build, data: DataFiles): Promise<BuildSummary | undefined> {
  const { reuse } = build.choice;
  if (!data.searchReused || reuse === undefined || typeof reuse.files === 'string' || build.options.staticFiles) return undefined;
  // a video or comment line made anew (a public record changed) changes the model data but for an
  // update that changed no byte (that build then makes the same snapshot the long way): the build
  // goes on at once, without waiting for the model data's writer or hashing the served snapshot
  const { catalogue } = build.input;
  const lines = data.modelReuse;
  if (lines.none === undefined && (lines.videoLines < catalogue.videos.length || lines.commentLines < catalogue.comments.length)) return undefined;
  // the model data is the served snapshot's when it has the same SHA-256
  const model = await data.model;
  if (reuse.head.files[MODEL_FILE]?.sha256 !== model.sha256 || !build.previousWhole()) return undefined;
  reuse.files.close();
  reuse.manifestLines?.close();
  rmSync(build.tmp, { recursive: true, force: true });
  build.progress(`the model data is the served snapshot's, which is whole: it is this build's result, nothing rendered (${build.lap()})`);
  serveSnapshot(build.serving, reuse.id);
  const size = (kind: PageKind) => Array.from({ length: pageShardsOf(reuse.head.files) }, (_, shard) => reuse.head.files[pageFileName(kind, shard)]?.size ?? 0).reduce((a, b) => a + b, 0);
  return {
    id: reuse.id,
    pages: reuse.pages.size,
    bytes: { identity: size('body'), br: size('br'), gzip: size('gzip'), model: model.size },
    videos: build.input.catalogue.videos.length,
    seconds: (performance.now() - build.started) / 1000,
    unchanged: true,
    changed: 0,
    changesFile: undefined,
    reuse: { none: undefined, pages: reuse.pages.size, compressed: 0, copied: reuse.pages.size, linked: 0, search: true, siteFiles: readSiteFileStamps(reuse.dir)?.size ?? 0, stopped: undefined, rendered: false, derived: build.derivedSource === 'served', model: data.modelReuse },
  };
}

/** What a build wrote that a failure must remove: the page writer's files too, and the search index worker's. */
interface Leftovers extends Written {
  writer?: PageWriter;
  search?: SearchIndexTask;
  /** the check of the served shards, until the writer takes it */
  check?: ShardCheck;
  /** the served model data's reading, until the model data is written */
  reading?: ServedReading | undefined;
  /** the model data being written on its worker thread (stopped before the served model data's reading is) */
  modelWriting?: TextWriting;
  /** page-inputs.ndjson being written on its worker thread (awaited before the folder is removed) */
  inputs?: Promise<FileRecord>;
  /** set when cleanUp begins: no worker is started after it */
  stopping?: boolean;
}

/** Stamps the site files, writes the pages, the page inputs and the manifest, puts the snapshot in place and serves it. */
async function writeAndServe(build: Build, data: DataFiles, written: Leftovers): Promise<BuildSummary> {
  const { options, tmp, model, progress, lap, reusable, previousInputs, choice: { previous } } = build;
  const inputs = build.videoInputs;
  // The site's sitemaps and feeds are answered from the model; their ETags go with the snapshot so
  // the purge list names the ones that changed, and a file whose inputs did not change keeps the
  // served snapshot's ETag unrendered (site-file-stamps.ts).
  const previousStamps = readSiteFileStamps(previous?.dir, previous?.head.files[SITE_FILES_FILE]);
  // each video's input key by its place in the model, for the site files and the pages: the keys by
  // catalogue place, made with the model data, when the model's entries are the catalogue's videos in
  // order (they are: each is checked), else looked up by id
  const videoKeys = sameOrder(model, build.input.catalogue.videos) ? build.keysByIndex : videoKeysOf(model, inputs);
  const site = stampSiteFiles(model, { videoInputs: inputs, videoKeys, previous: previousInputs && previousStamps && { inputs: previousInputs, stamps: previousStamps } });
  for (const [group, key] of site.inputs) inputs.set(group, key);
  const siteFilesRecord = writeSiteFileStamps(tmp, site.stamps);
  progress(`${site.stamps.size} sitemaps and feeds stamped: ${site.rendered} rendered, ${site.carried} unchanged (${lap()}); rendering pages`);
  const check = written.check;
  const writer = createPageWriter(tmp, { shards: shardCountFor(model.videos.size), reuse: reusable, check });
  written.writer = writer;
  delete written.check;
  // the pages the served snapshot has is the best estimate of the total before the plan is walked
  const expectedPages = previous?.pages.size ?? estimatePages(model);
  const pages = await renderPages({
    model,
    baseUrl: options.baseUrl,
    writer,
    inputs,
    videoKeys,
    previousInputs,
    checkedBefore: reusable ? writer.isPrevious : undefined,
    expected: { pages: expectedPages, listPages: estimateListPages(model, expectedPages) },
    // a failed search worker or model data writer ends the build at the next progress report (every few seconds),
    // not after every page is rendered
    progress: (message) => {
      data.checkSearch();
      data.checkModel();
      progress(message);
    },
  });
  await writer.close();
  if (writer.reuseStopped) progress(`not everything of the served snapshot's page files was reused: ${writer.reuseStopped}`);
  if (reusable) progress(`${writer.counts.linked} shards of page files hard-linked from the served snapshot${writer.counts.unlinked > 0 ? `, ${writer.counts.unlinked} copied instead` : ''}${check ? ` (${check.unread()} files unchanged since a build hashed them, not read)` : ''}`);
  // written and hashed on a worker thread while the search index is awaited and the manifest made
  const inputsWritten = writePageInputs(tmp, inputs);
  inputsWritten.catch(() => {});
  written.inputs = inputsWritten;
  progress(`${pages} pages written (${lap()})`);
  const search = await data.search;
  if (!data.searchReused) progress(`search index written on its worker thread, ${searchWay(search)}: ${(search.search.size / 1e6).toFixed(1)} MB (waited ${lap()} for it); writing manifest`);

  const { packed, fingerprint } = build.derivedPacked;
  // numbers taken from the served derived.bin (checked whole when read) are its bytes: linked, not written again
  const servedDerived = build.derivedSource === 'served' ? build.choice.reuse?.head.files[DERIVED_FILE] : undefined;
  const derivedRecord = (servedDerived && linkDerivedFile(tmp, build.choice.reuse!.dir, servedDerived)) ?? writeDerivedFile(tmp, packed, fingerprint);
  const modelFile = await data.model;
  const files: Record<string, FileRecord> = { ...writer.files, [MODEL_FILE]: modelFile, [SEARCH_FILE]: search.search, [SEARCH_DIGESTS_FILE]: search.digests, [SITE_FILES_FILE]: siteFilesRecord, [PAGE_INPUTS_FILE]: await inputsWritten, [DERIVED_FILE]: derivedRecord };
  // the lines of the pages of the shards linked are copied from the served manifest (write-manifest.ts)
  const servedLines = build.choice.reuse?.manifestLines;
  const manifest = await writeManifest(join(tmp, MANIFEST_FILE), {
    baseUrl: options.baseUrl, videos: build.input.catalogue.videos.length, files, entries: writer.entries,
    served: servedLines && writer.linkedShards.size > 0 && build.choice.reuse!.pages instanceof PageTable
      ? { pages: build.choice.reuse!.pages, lines: servedLines, linked: writer.linkedShards, sameKeys: writer.previousKeys === writer.entries.size && writer.entries.size === build.choice.reuse!.pages.size }
      : undefined,
  });
  servedLines?.close();
  const { id } = manifest;
  // Everything is written aside (static files included) before anything is renamed into place.
  const unchanged = placeSnapshot({
    layout: build.layout,
    tmp,
    id,
    // a snapshot of the same id found damaged while it was read from (the served one) is replaced
    damaged: () => build.choice.unreadable === id || (previous?.id === id && (typeof previous.files === 'string' || writer.reuseStopped !== undefined || !build.previousWhole())),
    staticFiles: options.staticFiles ? manifest.manifest : undefined,
    progress,
  }, written);
  const changes = [...diffPages(previous?.pages, writer.entries, writer.carriesPreviousEtag), ...diffSiteFiles(previousStamps, site.stamps)].sort(byCodeUnits);
  written.changesFile = writeChanges(build.layout, id, options.baseUrl, changes);
  // the stamps of the served page files checked and linked go with the snapshot (file-stamps.ts)
  serveSnapshot(build.serving, id, writer.stamps);
  written.created = undefined;
  progress(`snapshot ${id} served (${lap()})`);
  const { counts } = writer;
  return {
    id,
    pages: manifest.pages,
    bytes: { identity: writer.bytes.identity, br: writer.bytes.br, gzip: writer.bytes.gzip, model: modelFile.size },
    videos: build.input.catalogue.videos.length,
    seconds: (performance.now() - build.started) / 1000,
    unchanged,
    changed: changes.length,
    changesFile: written.changesFile,
    reuse: { none: build.choice.none, pages: counts.reused, compressed: counts.compressed, copied: counts.copied, linked: counts.linked, search: data.searchReused, searchIndexed: indexedOf(search), siteFiles: site.carried, stopped: writer.reuseStopped, rendered: true, derived: build.derivedSource === 'served', model: data.modelReuse },
  };
}

/** Whether the model's entries are `videos`, in order (the same records). */
function sameOrder(model: Model, videos: readonly { readonly id: string }[]): boolean {
  const { entries } = model;
  if (entries.length !== videos.length) return false;
  for (let i = 0; i < entries.length; i++) if (entries[i]!.video.id !== videos[i]!.id) return false;
  return true;
}

/** Removes everything a failed build wrote (a failure while cleaning up must not hide the first one); the error to throw. */
async function cleanUp(build: Build, written: Leftovers, error: unknown): Promise<unknown> {
  const { reuse } = build.choice;
  const { layout } = build;
  written.stopping = true;
  if (reuse && typeof reuse.files !== 'string') reuse.files.close();
  reuse?.manifestLines?.close();
  try {
    await written.writer?.abort();
  } catch { /* the files are removed below */ }
  await written.check?.stop();
  // the model data's writer reads through the served file's descriptor: gone before it is closed
  await written.modelWriting?.stop();
  await written.reading?.task.stop();
  await written.inputs?.catch(() => {});
  // the worker ends before its folder is removed: it writes nothing after
  await written.search?.stop();
  rmSync(build.tmp, { recursive: true, force: true });
  if (written.created !== undefined) rmSync(written.created, { recursive: true, force: true });
  if (written.changesFile !== undefined && currentSnapshotId(layout.root) !== basename(written.changesFile, '.txt')) rmSync(written.changesFile, { force: true });
  const served = currentSnapshotId(layout.root);
  return describeDiskFault(error, layout.root,
    `what this build wrote was removed, and ${served === undefined ? 'no snapshot is served yet' : `snapshot ${served} is still served`}`,
    served === undefined ? undefined : snapshotBytes(layout.current));
}

/** The bytes of a snapshot's own files (its static/ copy aside). */
function snapshotBytes(dir: string): number | undefined {
  try {
    return readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile()).reduce((sum, e) => sum + statSync(join(dir, e.name)).size, 0);
  } catch {
    return undefined;
  }
}
