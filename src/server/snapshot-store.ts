// Loads a snapshot for serving: verified first (verify-snapshot.ts: the manifest's hash is the
// snapshot's id, every file has the size and hash the manifest records), its pages looked up in the
// manifest's own bytes (page-index.ts), the page files held in memory (or read by range from disk,
// each read checked, when they are larger than the cache budget), and the model rebuilt from
// model.ndjson, so dynamic answers come from exactly the data the static pages were rendered from.
//
// The server opens snapshots with `openSnapshot`: verification and file reads run on a worker
// thread, and the parsing on this thread is cut into slices of a few milliseconds between which
// requests are answered (docs/reliability.md, "Snapshots"). A snapshot can serve its prerendered
// pages as soon as its manifest is verified (`onPages`: the start-up uses it, when nothing else
// is served); its model and search index follow. `loadSnapshot` does the same steps at once, for
// tools and tests.
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SnapshotInfo } from '../api/endpoint.ts';
import { buildModel, buildModelInSteps, type Model } from '../model/build-model.ts';
import type { Steps } from '../model/steps.ts';
import { loadSearchIndex, type SearchIndex } from '../search/search-index.ts';
import { MODEL_FILE, PAGE_FILES, SEARCH_FILE } from '../snapshot/layout.ts';
import { parseManifestPage, type PageEntry } from '../snapshot/manifest.ts';
import { collectModelLines } from '../snapshot/model-data.ts';
import { diskSource, memorySource, type PageSource } from '../snapshot/page-files.ts';
import { linePageLookup, type PageLookup } from '../snapshot/page-index.ts';
import { readVerifiedFile, SnapshotRefused, verifyManifest, type VerifiedManifest, type VerifyOptions } from '../snapshot/verify-snapshot.ts';
import type { FileRequest, VerifyReply, VerifyRequest } from './verify-worker.ts';

export type { PageLookup, PageSource };
export { SnapshotRefused };

export interface Snapshot {
  readonly id: string;
  readonly dir: string;
  readonly baseUrl: string;
  /** its prerendered pages by URL (a Map's reading side) */
  readonly pages: PageLookup;
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
  /**
   * false while only its pages are served (at start-up, before its model and search index are
   * loaded): `model` is then an empty one, and dynamic queries are answered 503 (http-server.ts)
   */
  readonly complete: boolean;
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

/** What the assembly asks of its driver: a pause, or a file of the snapshot read whole and verified. */
type Need = { readonly pause: true } | { readonly read: string };
const PAUSE: Need = { pause: true };

/** Steps of the model's own (steps.ts), each pause of theirs a pause of the assembly. */
function* pausing<T>(steps: Steps<T>): Generator<Need, T, Uint8Array | undefined> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    yield PAUSE;
  }
}

/** The model of a snapshot whose model is not loaded yet: nothing in it, its URLs those of the snapshot. */
const emptyModel = (baseUrl: string): Model =>
  buildModel({ categories: [], channels: [], videos: [], playlists: [], comments: [], live: [] }, { trending: [], related: [] }, baseUrl);

const timestamp = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * Builds the Snapshot from its verified manifest, asking its driver for each other file (one at a
 * time, each let go before the next, which keeps the peak of memory low) and yielding pauses, where
 * the driver may let other work run. Pages are looked up in the manifest's bytes (or, for a
 * manifest whose lines are not in key order, parsed into a Map a line at a time); once they can be
 * served, `onPages` gets the snapshot without its model. The model's lines are parsed a line at a
 * time and the model built in steps; the search index loads in one step.
 */
function* assemble(dir: string, id: string, verified: VerifiedManifest, onPages?: (pagesOnly: Snapshot) => void): Generator<Need, Snapshot, Uint8Array | undefined> {
  const { head } = verified;
  const changed = (name: string) => new SnapshotRefused(`${name} could not be read once verified`);
  const readVerified = function* (name: string): Generator<Need, Uint8Array, Uint8Array | undefined> {
    const bytes = yield { read: name };
    if (!bytes) throw changed(name);
    return bytes;
  };
  const manifest = Buffer.from(verified.manifest.buffer, verified.manifest.byteOffset, verified.manifest.byteLength);
  let pages: PageLookup;
  if (verified.lines.sorted) {
    pages = linePageLookup(manifest, verified.lines);
  } else {
    const map = new Map<string, PageEntry>();
    const { starts, end } = verified.lines;
    for (let i = 0; i < starts.length; i++) {
      const [key, entry] = parseManifestPage(manifest.toString('utf8', starts[i]!, i + 1 < starts.length ? starts[i + 1]! - 1 : end));
      map.set(key, entry);
      if (i % STEP === 0) yield PAUSE;
    }
    pages = map;
  }
  const faults: PageFaults = { count: 0, last: undefined };
  const source = (which: keyof typeof PAGE_FILES): PageSource => {
    const bytes = verified.pages?.[which];
    return counted(bytes ? memorySource(PAGE_FILES[which], Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)) : diskSource(join(dir, PAGE_FILES[which])), faults);
  };
  const sources = { body: source('body'), br: source('br'), gzip: source('gzip') };
  const served = {
    id, dir, baseUrl: head.baseUrl, pages, sources, held: verified.pages ? 'memory' as const : 'disk' as const, builtAt: verified.builtAt, faults,
  };
  try {
    if (onPages) {
      const info = { id, videos: head.counts['videos'] ?? 0, pages: pages.size, loadedAt: timestamp() };
      onPages({ ...served, model: emptyModel(head.baseUrl), info, search: undefined, complete: false });
      yield PAUSE;
    }
    const search = head.files[SEARCH_FILE] ? loadSearchIndex(Buffer.from(yield* readVerified(SEARCH_FILE)).toString('utf8')) : undefined;
    yield PAUSE;
    const collector = collectModelLines();
    let n = 0;
    for (const line of bufferLines(yield* readVerified(MODEL_FILE))) {
      collector.add(line);
      if (++n % STEP === 0) yield PAUSE;
    }
    const data = collector.finish();
    yield PAUSE;
    const model = yield* pausing(buildModelInSteps(data.catalogue, data.derived, data.baseUrl));
    const info = { id, videos: data.catalogue.videos.length, pages: pages.size, loadedAt: timestamp() };
    return { ...served, model, info, search, complete: true };
  } catch (error) {
    // the page files are closed by whoever served the pages-only snapshot, else here
    if (!onPages) for (const s of Object.values(sources)) s.close();
    throw error;
  }
}

/** Verifies and loads a snapshot at once, on this thread (tools and tests; the server uses openSnapshot). */
export function loadSnapshot(dir: string, id: string, options: OpenOptions): Snapshot {
  const verified = verifyManifest(dir, id, options);
  const steps = assemble(dir, id, verified);
  let answer: Uint8Array | undefined;
  for (;;) {
    const step = steps.next(answer);
    if (step.done) return step.value;
    answer = 'read' in step.value ? readVerifiedFile(dir, step.value.read, verified.head) : undefined;
  }
}

/** A verifier on a worker thread: the manifest it verified, then each file asked for. */
interface Verifier {
  readonly manifest: VerifiedManifest;
  read(name: string): Promise<Uint8Array>;
  close(): void;
}

/** Starts verify-worker.ts on a snapshot; the verified bytes are moved here, not copied. */
function verifyOffThread(dir: string, id: string, options: VerifyOptions): Promise<Verifier> {
  return new Promise((resolve, reject) => {
    const request: VerifyRequest = { dir, id, options: { cacheBytes: options.cacheBytes, baseUrl: options.baseUrl } };
    const worker = new Worker(new URL('./verify-worker.ts', import.meta.url), { workerData: request });
    /** who waits for the worker's next reply */
    let waiting: { resolve: (reply: VerifyReply) => void; reject: (error: Error) => void } | undefined;
    let stopped: Error | undefined;
    const fail = (error: Error) => {
      stopped ??= error;
      const w = waiting;
      waiting = undefined;
      w?.reject(error);
    };
    const next = () => new Promise<VerifyReply>((res, rej) => {
      if (stopped) rej(stopped);
      else waiting = { resolve: res, reject: rej };
    });
    const asRefusal = (reply: VerifyReply): Error | undefined =>
      ('message' in reply ? (reply.refused ? new SnapshotRefused(reply.message) : new Error(reply.message)) : undefined);
    worker.on('message', (reply: VerifyReply) => {
      const w = waiting;
      waiting = undefined;
      w?.resolve(reply);
    });
    worker.once('error', (error) => fail(error));
    worker.once('exit', (code) => fail(new Error(`the snapshot verifier stopped (exit code ${code})`)));
    const close = () => void worker.terminate();
    next().then((reply) => {
      const refusal = asRefusal(reply);
      if (refusal || !('manifest' in reply)) {
        close();
        reject(refusal ?? new Error('the snapshot verifier answered out of turn'));
        return;
      }
      resolve({
        manifest: reply.manifest,
        async read(name) {
          const answer = next();
          worker.postMessage({ read: name } satisfies FileRequest);
          const file = await answer;
          const refused = asRefusal(file);
          if (refused) throw refused;
          if (!('file' in file) || file.file !== name) throw new Error('the snapshot verifier answered out of turn');
          return file.bytes;
        },
        close,
      });
    }, (error: Error) => {
      close();
      reject(error);
    });
  });
}

/** Milliseconds of parsing between two pauses: a request waits at most about this long for a load. */
export const SLICE_MS = 10;

/**
 * Verifies and loads a snapshot without holding the event loop: verification on a worker thread,
 * parsing in slices of SLICE_MS between which other callbacks run. `onPages` gets the snapshot with
 * its pages only, as soon as they can be served; it then owns its page files (closeSnapshot).
 */
export async function openSnapshot(dir: string, id: string, options: OpenOptions, onPages?: (pagesOnly: Snapshot) => void): Promise<Snapshot> {
  const verifier = await verifyOffThread(dir, id, options);
  try {
    const steps = assemble(dir, id, verifier.manifest, onPages);
    let sliceStart = performance.now();
    let answer: Uint8Array | undefined;
    for (;;) {
      const step = steps.next(answer);
      answer = undefined;
      if (step.done) return step.value;
      if ('read' in step.value) {
        // a refusal here is thrown into the assembly, which lets its page files go
        try {
          answer = await verifier.read(step.value.read);
        } catch (error) {
          steps.throw(error);
        }
        sliceStart = performance.now();
      } else if (performance.now() - sliceStart >= SLICE_MS) {
        await new Promise((resume) => setImmediate(resume));
        sliceStart = performance.now();
      }
    }
  } finally {
    verifier.close();
  }
}

export function closeSnapshot(snapshot: Snapshot): void {
  for (const source of Object.values(snapshot.sources)) source.close();
}
