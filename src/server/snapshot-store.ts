// Loads a snapshot for serving: verified first (verify-snapshot.ts: the manifest's hash is the
// snapshot's id, every file has the size and hash the manifest records), its pages looked up in the
// manifest's own bytes (page-index.ts), the page files held in memory (or read by range from disk,
// each read checked, when they are larger than the cache budget), and the model rebuilt from
// model.ndjson, so dynamic answers come from exactly the data the static pages were rendered from.
//
// The server opens snapshots with `openSnapshot`: verification and file reads run on a worker
// thread (the model data streamed from it a chunk at a time), the search index is decoded on a
// worker of its own, and what is left to do on this thread is cut into slices of a few milliseconds
// between which requests are answered (docs/reliability.md, "Loading without a stall"). A snapshot can serve its prerendered
// pages as soon as its manifest is verified (`onPages`: the start-up uses it, when nothing else
// is served); its model and search index follow. `loadSnapshot` does the same steps at once, for
// tools and tests.
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SnapshotInfo } from '../api/endpoint.ts';
import { buildModel, type Model } from '../model/build-model.ts';
import type { Steps } from '../model/steps.ts';
import type { ManifestHead } from '../snapshot/manifest.ts';
import { alignSearchInSteps } from '../api/handlers/list-videos.ts';
import { assembleSearchIndex, decodeSearchIndex, type DecodedSearchIndex, type SearchIndex } from '../search/search-index.ts';
import { MODEL_FILE, PAGE_KINDS, pageFileName, SEARCH_FILE, type PageKind } from '../snapshot/layout.ts';
import { parseManifestPage, type PageEntry } from '../snapshot/manifest.ts';
import { loadModelLines } from '../snapshot/model-data.ts';
import { diskSource, memorySource, shardedSource, type PageSource } from '../snapshot/page-files.ts';
import { linePageLookup, type PageLookup } from '../snapshot/page-index.ts';
import { readVerifiedFile, SnapshotRefused, verifyManifest, type VerifiedManifest, type VerifyOptions } from '../snapshot/verify-snapshot.ts';
import type { SearchReply, SearchRequest } from './search-worker.ts';
import { chunkLines } from './chunk-lines.ts';
import type { FileRequest, VerifyReply, VerifyRequest } from './verify-worker.ts';
import { workerUrl } from '../lib/worker-url.ts';

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

/** Lines handled between two chances to pause. */
const STEP = 256;

/**
 * What the assembly asks of its driver: a pause; the next chunk of a file of the snapshot
 * (a Uint8Array, or undefined once the file is read whole and matches the manifest); or the
 * snapshot's search index, verified and decoded (a DecodedSearchIndex).
 */
type Need = { readonly pause: true } | { readonly chunk: string } | { readonly search: string };
const PAUSE: Need = { pause: true };
type Assembly<T> = Generator<Need, T, unknown>;

/** Steps of the model's or the search index's own (steps.ts), each pause of theirs a pause of the assembly. */
function* pausing<T>(steps: Steps<T>): Assembly<T> {
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
 * The model built from the model data as its verified chunks come (chunk-lines.ts): each line's
 * record is made at once into what the model keeps (model-data.ts, loadModelLines), so the parsed
 * records are never all held beside the model. The model is finished (its threads, orders and
 * indexes made, in steps) only once the last chunk has been read and the file found to match the
 * manifest. A line that cannot be read refuses the snapshot, naming the line, once the rest of the
 * file is read: a file that does not match the manifest is refused as such first.
 */
function* loadVerifiedModel(name: string): Assembly<Model> {
  const loader = loadModelLines();
  const lines = chunkLines();
  let damaged: SnapshotRefused | undefined;
  const add = (line: string) => {
    try {
      loader.add(line);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      damaged = new SnapshotRefused(`${name}: ${error.message.replace(/^model data /, '')}`);
    }
  };
  let n = 0;
  for (;;) {
    const chunk = (yield { chunk: name }) as Uint8Array | undefined;
    if (!chunk) break;
    if (damaged) continue;
    for (const line of lines.of(chunk)) {
      add(line);
      if (damaged) break;
      if (++n % STEP === 0) yield PAUSE;
    }
    yield PAUSE;
  }
  if (!damaged) {
    const last = lines.end();
    if (last !== undefined) add(last);
  }
  if (damaged) throw damaged;
  yield PAUSE;
  let finishing: Steps<Model>;
  try {
    finishing = loader.finishInSteps();
  } catch (error) {
    throw error instanceof SyntaxError ? new SnapshotRefused(`${name}: ${error.message.replace(/^model data: /, '')}`) : error;
  }
  return yield* pausing(finishing);
}

/**
 * Builds the Snapshot from its verified manifest, asking its driver for the other files (one at a
 * time, which keeps the peak of memory low) and yielding pauses, where the driver may let other
 * work run. Pages are looked up in the manifest's bytes (or, for a manifest whose lines are not in
 * key order, parsed into a Map a line at a time); once they can be served, `onPages` gets the
 * snapshot without its model. The search index comes decoded (on a worker thread, in the server)
 * and its strings are unpacked in steps; the model's lines are parsed as its chunks come and the
 * model built in steps.
 */
function* assemble(dir: string, id: string, verified: VerifiedManifest, onPages?: (pagesOnly: Snapshot) => void): Assembly<Snapshot> {
  const { head } = verified;
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
  // every shard's file of a kind, one source (a read goes to the shard its range names)
  const opened: PageSource[] = [];
  const source = (kind: PageKind): PageSource => counted(shardedSource(kind, Array.from({ length: verified.shards }, (_, shard) => {
    const name = pageFileName(kind, shard);
    const bytes = verified.pages?.[kind][shard];
    const one = bytes ? memorySource(name, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)) : diskSource(join(dir, name));
    opened.push(one);
    return one;
  })), faults);
  let sources: Snapshot['sources'];
  try {
    sources = Object.fromEntries(PAGE_KINDS.map((kind) => [kind, source(kind)])) as Record<PageKind, PageSource>;
  } catch (error) {
    for (const one of opened) one.close();
    throw error;
  }
  const served = {
    id, dir, baseUrl: head.baseUrl, pages, sources, held: verified.pages ? 'memory' as const : 'disk' as const, builtAt: verified.builtAt, faults,
  };
  try {
    if (onPages) {
      const info = { id, videos: head.counts['videos'] ?? 0, pages: pages.size, loadedAt: timestamp() };
      onPages({ ...served, model: emptyModel(head.baseUrl), info, search: undefined, complete: false });
      yield PAUSE;
    }
    const search = head.files[SEARCH_FILE] ? yield* pausing(assembleSearchIndex((yield { search: SEARCH_FILE }) as DecodedSearchIndex)) : undefined;
    yield PAUSE;
    const model = yield* loadVerifiedModel(MODEL_FILE);
    // made here, in steps, not by the first query with q (seconds at a million videos, every request behind it)
    if (search) yield* pausing(alignSearchInSteps(search, model));
    const info = { id, videos: model.entries.length, pages: pages.size, loadedAt: timestamp() };
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
  const given = new Set<string>();
  let answer: unknown;
  for (;;) {
    const step = steps.next(answer);
    if (step.done) return step.value;
    const need = step.value;
    answer = undefined;
    if ('search' in need) answer = decodeSearchIndex(readVerifiedFile(dir, need.search, verified.head));
    else if ('chunk' in need && !given.has(need.chunk)) {
      // the whole file as its one chunk
      given.add(need.chunk);
      answer = readVerifiedFile(dir, need.chunk, verified.head);
    }
  }
}

/** A verifier on a worker thread: the manifest it verified, then the chunks of each file asked for. */
interface Verifier {
  readonly manifest: VerifiedManifest;
  /** the next chunk of a file; undefined once it is read whole and matches the manifest */
  chunk(name: string): Promise<Uint8Array | undefined>;
  close(): void;
}

/** Starts verify-worker.ts on a snapshot; the verified bytes are moved here, not copied. */
function verifyOffThread(dir: string, id: string, options: VerifyOptions): Promise<Verifier> {
  return new Promise((resolve, reject) => {
    const request: VerifyRequest = { dir, id, options: { cacheBytes: options.cacheBytes, baseUrl: options.baseUrl } };
    const worker = new Worker(workerUrl('./verify-worker.ts', import.meta.url), { workerData: request });
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
        async chunk(name) {
          const answer = next();
          worker.postMessage({ chunk: name } satisfies FileRequest);
          const reply = await answer;
          const refused = asRefusal(reply);
          if (refused) throw refused;
          if (!('chunkOf' in reply) || reply.chunkOf !== name) throw new Error('the snapshot verifier answered out of turn');
          return reply.bytes ?? undefined;
        },
        close,
      });
    }, (error: Error) => {
      close();
      reject(error);
    });
  });
}

/**
 * The snapshot's search index read, verified and decoded on a worker thread of its own
 * (search-worker.ts), which ends once it has answered; the decoded arrays are moved here.
 */
function decodeSearchOffThread(dir: string, file: string, head: ManifestHead): Promise<DecodedSearchIndex> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerUrl('./search-worker.ts', import.meta.url), { workerData: { dir, file, head } satisfies SearchRequest });
    let answered = false;
    worker.once('message', (reply: SearchReply) => {
      answered = true;
      void worker.terminate();
      if ('decoded' in reply) resolve(reply.decoded);
      else reject(reply.refused ? new SnapshotRefused(reply.message) : new Error(reply.message));
    });
    worker.once('error', (error) => {
      answered = true;
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`the search index decoder stopped (exit code ${code})`));
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
    let answer: unknown;
    for (;;) {
      const step = steps.next(answer);
      answer = undefined;
      if (step.done) return step.value;
      const need = step.value;
      if ('chunk' in need || 'search' in need) {
        // a refusal here is thrown into the assembly, which lets its page files go
        try {
          answer = 'chunk' in need ? await verifier.chunk(need.chunk) : await decodeSearchOffThread(dir, need.search, verifier.manifest.head);
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
