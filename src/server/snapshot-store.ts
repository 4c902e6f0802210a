// Loads a snapshot for serving: verified first (verify-snapshot.ts: the manifest's hash is the
// snapshot's id, every file has the size and hash the manifest records), then the manifest as a
// Map, the page files held in memory (or read by range from disk, each read checked, when they
// are larger than the cache budget), and the model rebuilt from model.ndjson, so dynamic answers
// come from exactly the data the static pages were rendered from.
//
// The server opens snapshots with `openSnapshot`: verification and file reads run on a worker
// thread, and the parsing on this thread is cut into slices of a few milliseconds between which
// requests are answered (docs/reliability.md, "Snapshots"). `loadSnapshot` does the same steps at
// once, for tools and tests.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SnapshotInfo } from '../api/endpoint.ts';
import { buildModelInSteps, type Model } from '../model/build-model.ts';
import type { Steps } from '../model/steps.ts';
import { loadSearchIndex, type SearchIndex } from '../search/search-index.ts';
import { MANIFEST_FILE, MODEL_FILE, PAGE_FILES, SEARCH_FILE } from '../snapshot/layout.ts';
import { parseManifestPage, SNAPSHOT_ID_LENGTH, type PageEntry } from '../snapshot/manifest.ts';
import { collectModelLines } from '../snapshot/model-data.ts';
import { diskSource, memorySource, type PageSource } from '../snapshot/page-files.ts';
import { SnapshotRefused, verifySnapshot, type VerifiedFiles, type VerifyOptions } from '../snapshot/verify-snapshot.ts';
import type { VerifyReply, VerifyRequest } from './verify-worker.ts';

export type { PageSource };
export { SnapshotRefused };

export interface Snapshot {
  readonly id: string;
  readonly dir: string;
  readonly baseUrl: string;
  readonly pages: ReadonlyMap<string, PageEntry>;
  /** identity bodies, br and gzip variants */
  readonly sources: { readonly body: PageSource; readonly br: PageSource; readonly gzip: PageSource };
  /** whether the page files are held in memory (verified whole) or read from disk (each read checked) */
  readonly held: 'memory' | 'disk';
  readonly model: Model;
  readonly info: SnapshotInfo;
  /** its search index; absent for a snapshot built before search (handlers then build one on first use) */
  readonly search: SearchIndex | undefined;
  /** when it was built (ms since the epoch): the manifest's mtime */
  readonly builtAt: number;
  /** page reads refused since it was loaded (a file damaged or changed under a disk-backed snapshot) */
  readonly faults: PageFaults;
}

export interface PageFaults {
  count: number;
  /** the last refusal, naming the file (no server path) */
  last: string | undefined;
}

/** A page source that counts its refused reads (which it still throws). */
function counted(source: PageSource, faults: PageFaults): PageSource {
  return {
    read(range) {
      try {
        return source.read(range);
      } catch (error) {
        faults.count++;
        faults.last = (error as Error).message;
        throw error;
      }
    },
    close: () => source.close(),
  };
}

export type OpenOptions = VerifyOptions;

/** Lines of a buffer, each decoded on its own (no string of the whole buffer is made). */
function* bufferLines(bytes: Uint8Array): Generator<string> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let start = 0; start < buffer.length;) {
    let end = buffer.indexOf(10, start);
    if (end === -1) end = buffer.length;
    yield buffer.toString('utf8', start, end);
    start = end + 1;
  }
}

/** Lines handled between two chances to pause. */
const STEP = 256;

/** What the assembly asks of its driver: a pause, or a file of the snapshot read whole. */
type Need = { readonly pause: true } | { readonly read: string };
const PAUSE: Need = { pause: true };

/** Steps of the model's own (steps.ts), each pause of theirs a pause of the assembly. */
function* pausing<T>(steps: Steps<T>): Generator<Need, T, Buffer | undefined> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    yield PAUSE;
  }
}

/**
 * Builds the Snapshot from verified files, asking its driver to read each file (one at a time,
 * each let go before the next, which keeps the peak of memory low) and yielding pauses, where the
 * driver may let other work run. The manifest's pages and the model's lines are parsed a line at
 * a time; the search index and the model's indexes in one step each.
 */
function* assemble(dir: string, id: string, files: VerifiedFiles): Generator<Need, Snapshot, Buffer | undefined> {
  const { head } = files;
  const changed = (name: string) => new SnapshotRefused(`${name} changed while the snapshot was loaded`);
  const readChecked = function* (name: string): Generator<Need, Buffer, Buffer | undefined> {
    const bytes = yield { read: name };
    // Verified on the worker; read again here: a file that changed size since is refused.
    if (!bytes || bytes.length !== head.files[name]?.size) throw changed(name);
    return bytes;
  };
  // The manifest read here is hashed again (a megabyte a step): it must still be the snapshot's id.
  const manifest = yield { read: MANIFEST_FILE };
  if (!manifest) throw changed(MANIFEST_FILE);
  const hash = createHash('sha256');
  for (let at = 0; at < manifest.length; at += 1 << 20) {
    hash.update(manifest.subarray(at, at + (1 << 20)));
    yield PAUSE;
  }
  if (hash.digest('hex').slice(0, SNAPSHOT_ID_LENGTH) !== id) throw changed(MANIFEST_FILE);
  const pages = new Map<string, PageEntry>();
  let n = 0;
  for (const line of bufferLines(manifest)) {
    if (n++ === 0 || line === '}}') continue;
    const [key, entry] = parseManifestPage(line);
    pages.set(key, entry);
    if (n % STEP === 0) yield PAUSE;
  }
  if (pages.size !== head.counts['pages']) throw new SnapshotRefused(`the manifest lists ${pages.size} pages, not the ${head.counts['pages']} it counts`);
  const search = head.files[SEARCH_FILE] ? loadSearchIndex((yield* readChecked(SEARCH_FILE)).toString('utf8')) : undefined;
  yield PAUSE;
  const collector = collectModelLines();
  n = 0;
  for (const line of bufferLines(yield* readChecked(MODEL_FILE))) {
    collector.add(line);
    if (++n % STEP === 0) yield PAUSE;
  }
  const data = collector.finish();
  yield PAUSE;
  const model = yield* pausing(buildModelInSteps(data.catalogue, data.derived, data.baseUrl));
  const faults: PageFaults = { count: 0, last: undefined };
  const source = (which: keyof typeof PAGE_FILES): PageSource => {
    const bytes = files.pages?.[which];
    return counted(bytes ? memorySource(PAGE_FILES[which], Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)) : diskSource(join(dir, PAGE_FILES[which])), faults);
  };
  const sources = { body: source('body'), br: source('br'), gzip: source('gzip') };
  return {
    id,
    dir,
    baseUrl: head.baseUrl,
    pages,
    sources,
    held: files.pages ? 'memory' : 'disk',
    model,
    info: { id, videos: data.catalogue.videos.length, pages: pages.size, loadedAt: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z') },
    search,
    builtAt: files.builtAt,
    faults,
  };
}

/** A file of the snapshot read whole, or undefined when it cannot be. */
const readSnapshotFile = (dir: string, name: string): Buffer | undefined => {
  try {
    return readFileSync(join(dir, name));
  } catch {
    return undefined;
  }
};

/** Verifies and loads a snapshot at once, on this thread (tools and tests; the server uses openSnapshot). */
export function loadSnapshot(dir: string, id: string, options: OpenOptions): Snapshot {
  const steps = assemble(dir, id, verifySnapshot(dir, id, options));
  let answer: Buffer | undefined;
  for (;;) {
    const step = steps.next(answer);
    if (step.done) return step.value;
    answer = 'read' in step.value ? readSnapshotFile(dir, step.value.read) : undefined;
  }
}

/** Runs verifySnapshot on a worker thread; the verified bytes are moved here, not copied. */
function verifyOffThread(dir: string, id: string, options: VerifyOptions): Promise<VerifiedFiles> {
  return new Promise((resolve, reject) => {
    const request: VerifyRequest = { dir, id, options: { cacheBytes: options.cacheBytes, baseUrl: options.baseUrl } };
    const worker = new Worker(new URL('./verify-worker.ts', import.meta.url), { workerData: request });
    let settled = false;
    worker.once('message', (reply: VerifyReply) => {
      settled = true;
      if ('files' in reply) resolve(reply.files);
      else reject(reply.refused ? new SnapshotRefused(reply.message) : new Error(reply.message));
      void worker.terminate();
    });
    worker.once('error', (error) => {
      if (!settled) reject(error);
      settled = true;
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`the snapshot verifier stopped (exit code ${code})`));
      settled = true;
    });
  });
}

/** Milliseconds of parsing between two pauses: a request waits at most about this long for a load. */
export const SLICE_MS = 10;

/**
 * Verifies and loads a snapshot without holding the event loop: verification on a worker thread,
 * parsing in slices of SLICE_MS between which other callbacks run.
 */
export async function openSnapshot(dir: string, id: string, options: OpenOptions): Promise<Snapshot> {
  const files = await verifyOffThread(dir, id, options);
  const steps = assemble(dir, id, files);
  let sliceStart = performance.now();
  let answer: Buffer | undefined;
  for (;;) {
    const step = steps.next(answer);
    answer = undefined;
    if (step.done) return step.value;
    if ('read' in step.value) {
      answer = await readFile(join(dir, step.value.read)).catch(() => undefined);
      sliceStart = performance.now();
    } else if (performance.now() - sliceStart >= SLICE_MS) {
      await new Promise((resume) => setImmediate(resume));
      sliceStart = performance.now();
    }
  }
}

export function closeSnapshot(snapshot: Snapshot): void {
  for (const source of Object.values(snapshot.sources)) source.close();
}
