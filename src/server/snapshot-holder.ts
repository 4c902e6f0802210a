// Holds the snapshot being served and follows `current`: when a build swaps it, the new snapshot
// is verified and loaded aside (openSnapshot: off the event loop, in slices) and then replaces the
// old one in a single assignment. Requests already running keep the snapshot they started with.
// A snapshot that fails verification or loading is refused: the one serving keeps serving, and
// `problem` says which was refused and why, for /v1/status. At start-up, when `current` is
// refused, the newest intact snapshot beside it is served instead; and while nothing is served,
// a snapshot's prerendered pages are served as soon as its manifest is verified, before its model
// and search index are loaded (dynamic queries answer 503 until then). docs/reliability.md, "Snapshots".
import { readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST_FILE } from '../snapshot/layout.ts';
import { signatureOf } from './snapshot-signature.ts';
import { currentSnapshotId } from '../snapshot/swap.ts';
import { closeSnapshot, openSnapshot, SnapshotRefused, type Snapshot } from './snapshot-store.ts';

/** A snapshot that was not served, and why (a sentence without server paths, for /v1/status). */
export interface SnapshotProblem {
  readonly id: string;
  readonly reason: string;
}

export interface SnapshotHolder {
  readonly current: Snapshot | undefined;
  /** why `current` on disk is not the snapshot served (refused, or still loading), when it is not */
  readonly problem: SnapshotProblem | undefined;
  /** the snapshot `current` names, while it is being verified and loaded */
  readonly loading: string | undefined;
  /** Loads `current` if it changed (waiting for a load under way first); true when a new snapshot was swapped in. */
  refresh(): Promise<boolean>;
  /**
   * What another process found out about `current` on disk (the serving process of `npm start` is
   * told by its supervisor: supervise-servers.ts): the snapshot it is loading, or why it refused
   * it; neither clears both.
   */
  tell(told: Told): void;
  /** settles when the first snapshot serves its pages, or the first load (and any fallback) is over */
  readonly ready: Promise<void>;
  /** settles when the first load (and any fallback) is over: a snapshot is served whole, or none is */
  readonly loaded: Promise<void>;
  close(): void;
}

/** What a holder that does not follow `current` is told of it. */
export interface Told {
  readonly loading?: string | undefined;
  readonly problem?: SnapshotProblem | undefined;
}

export interface HoldOptions {
  /** page files up to this many bytes in all are held in memory */
  readonly cacheBytes: number;
  /** the server's PUBLIC_BASE_URL: snapshots built for another are refused */
  readonly baseUrl?: string | undefined;
  readonly log: (message: string) => void;
  /**
   * Whether to follow `current` (watch it, poll it each second, swap in what it names); default
   * true. false: the first snapshot is loaded (with the fall-back) and kept, and swaps are left to
   * whoever replaces this process (supervise-servers.ts).
   */
  readonly follow?: boolean;
  /** serve a snapshot's pages before its model is loaded while nothing is served (default true) */
  readonly pagesFirst?: boolean;
  /** when `current` is refused and nothing is served, serve the newest intact snapshot beside it (default true) */
  readonly fallBack?: boolean;
}

const SNAPSHOT_ID = /^[0-9a-f]{16}$/;

/** The snapshots in `root` other than `except`, newest first. */
function otherSnapshots(root: string, except: string | undefined): string[] {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  return names.filter((name) => SNAPSHOT_ID.test(name) && name !== except)
    .map((name) => {
      try {
        return { name, time: statSync(join(root, name, MANIFEST_FILE)).mtimeMs };
      } catch {
        return { name, time: -1 };
      }
    })
    .filter((s) => s.time >= 0)
    .sort((a, b) => b.time - a.time || (a.name < b.name ? -1 : 1))
    .map((s) => s.name);
}

const reasonOf = (error: unknown): string =>
  (error instanceof SnapshotRefused ? error.message : `it could not be loaded (${/\b(E[A-Z]{2,})\b/.exec((error as Error).message)?.[1] ?? 'load error'})`);

export function holdSnapshots(root: string, options: HoldOptions): SnapshotHolder {
  const { log } = options;
  let current: Snapshot | undefined;
  let problem: SnapshotProblem | undefined;
  let loading: string | undefined;
  let closed = false;
  /** refused snapshots, by id, with the signature of their files when refused */
  const refused = new Map<string, string>();
  let running: Promise<boolean> | undefined;
  let again = false;

  let pagesServed: () => void = () => {};
  const firstPages = new Promise<void>((resolve) => { pagesServed = resolve; });

  /** Opens a snapshot; while nothing is served, its pages are served as soon as they can be. */
  const open = (id: string, started: number) => openSnapshot(join(root, id), id, { cacheBytes: options.cacheBytes, baseUrl: options.baseUrl }, current || options.pagesFirst === false ? undefined : (pagesOnly) => {
    if (closed || current) {
      closeSnapshot(pagesOnly);
      return;
    }
    current = pagesOnly;
    log(`serving the pages of snapshot ${id} (${pagesOnly.info.pages} pages) after ${Math.round(performance.now() - started)} ms; other queries answer 503 until its model is loaded`);
    pagesServed();
  });

  /** Drops a snapshot served by its pages only, whose load then failed. */
  const dropPagesOnly = (id: string) => {
    if (current && !current.complete && current.id === id) {
      closeSnapshot(current);
      current = undefined;
    }
  };

  const serve = (next: Snapshot, started: number, note: string) => {
    const previous = current;
    current = next;
    log(`serving snapshot ${next.id} (${next.info.pages} pages, ${next.info.videos} videos, page files ${next.held === 'memory' ? 'in memory' : 'read from disk'})${note}, loaded in ${Math.round(performance.now() - started)} ms`);
    // Requests that started on the old snapshot finish with it; its files are closed after them
    // (unless it was this one serving its pages only: they share their files).
    if (previous && previous.sources !== next.sources) setTimeout(() => closeSnapshot(previous), 30_000).unref();
  };

  /** One pass: load `current` if it is new (or was refused and has changed since). */
  const pass = async (): Promise<boolean> => {
    const id = currentSnapshotId(root);
    if (id === undefined || id === current?.id) {
      if (id === current?.id) problem = undefined;
      return false;
    }
    const signature = signatureOf(join(root, id));
    if (refused.get(id) === signature) return false;
    const started = performance.now();
    loading = id;
    try {
      const next = await open(id, started);
      if (closed) {
        closeSnapshot(next);
        return false;
      }
      refused.delete(id);
      problem = undefined;
      serve(next, started, '');
      return true;
    } catch (error) {
      const reason = reasonOf(error);
      refused.set(id, signature);
      problem = { id, reason };
      dropPagesOnly(id);
      log(`refused snapshot ${id}: ${reason}; ${current ? `still serving ${current.id}` : options.fallBack === false ? 'nothing served' : 'looking for an intact snapshot beside it'}`);
      if (!current && options.fallBack !== false) await fallBack(id);
      return false;
    } finally {
      loading = undefined;
    }
  };

  /** With nothing served, the newest snapshot beside `current` that passes verification. */
  const fallBack = async (refusedId: string): Promise<void> => {
    for (const id of otherSnapshots(root, refusedId)) {
      if (closed) return;
      const started = performance.now();
      try {
        const next = await open(id, started);
        if (closed) {
          closeSnapshot(next);
          return;
        }
        serve(next, started, ` in place of ${refusedId}, which was refused`);
        return;
      } catch (error) {
        dropPagesOnly(id);
        log(`refused snapshot ${id} as a fallback: ${reasonOf(error)}`);
      }
    }
  };

  const refresh = (): Promise<boolean> => {
    if (closed) return Promise.resolve(false);
    if (running) {
      // the pass under way runs once more when it ends (the loop below), and answers for both
      again = true;
      return running;
    }
    running = (async () => {
      try {
        let swapped = false;
        do {
          again = false;
          swapped = (await pass()) || swapped;
        } while (again && !closed);
        return swapped;
      } finally {
        running = undefined;
      }
    })();
    return running;
  };

  const loaded = refresh().then(() => undefined, () => undefined);
  const ready = Promise.race([firstPages, loaded]);
  let watcher: FSWatcher | undefined;
  let poll: NodeJS.Timeout | undefined;
  if (options.follow ?? true) {
    try {
      watcher = watch(root, () => void refresh());
    } catch {
      watcher = undefined;
    }
    poll = setInterval(() => void refresh(), 1000);
    poll.unref();
  }
  return {
    get current() {
      return current;
    },
    get problem() {
      if (problem) return problem;
      if (current && !current.complete) return { id: current.id, reason: 'its pages are served; its model and search index are being loaded, and other queries answer 503 until then' };
      return loading !== undefined && loading !== current?.id ? { id: loading, reason: 'it is being verified and loaded' } : undefined;
    },
    get loading() {
      return loading;
    },
    refresh,
    tell(told) {
      problem = told.problem;
      loading = told.loading;
    },
    ready,
    loaded,
    close() {
      closed = true;
      watcher?.close();
      clearInterval(poll);
      if (current) closeSnapshot(current);
    },
  };
}
