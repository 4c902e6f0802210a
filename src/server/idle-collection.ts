// V8's major collections moved to the moments the server is idle (docs/architecture.md, "The
// serving process's old generation"). V8 starts one when the old generation nears a limit it set
// from the live size after the last one; a burst of requests after a quiet while (the first list
// answers after a pause) then meets a collection whose marking runs on V8's helper threads, which
// share a pinned server's core with its main thread: the answers wait for the core
// (docs/performance.md, "The first list answers: V8's room after a quiet while"). A collection made
// while no request is being answered leaves the next burst the whole of the old generation's room
// (`--heap-growing-percent`, supervise-servers.ts SERVING_NODE_FLAGS, sets how much that is).
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** how often idleness is looked at: a whole interval without an answer is idle */
export const IDLE_INTERVAL_MS = 1000;
/**
 * how much the old generation must have grown since the last collection made here (or before the
 * first) for an idle moment to collect: an idle server that answers a request now and then promotes
 * little and is left alone. A burst of first list answers promotes 3–4 KB an answer.
 */
export const IDLE_GROWTH_BYTES = 8 * 1024 * 1024;

export interface IdleCollector {
  /** Collects now (a moment known to be idle: before listening), and counts the growth from here. */
  collectNow(): void;
  close(): void;
}

export interface IdleCollectionOptions {
  /** answers given so far (service-health.ts `answered`): unchanged over an interval means idle */
  readonly answered: () => number;
  /** a full, atomic major collection (default: V8's, majorCollection) */
  readonly collect?: () => void;
  /** bytes in use outside the young generation (default: V8's heap spaces, oldGenerationUsed) */
  readonly oldGenerationUsed?: () => number;
  readonly intervalMs?: number;
  readonly growthBytes?: number;
}

/** Bytes in use in V8's heap outside the young generation (new space and new large objects). */
export function oldGenerationUsed(): number {
  let used = 0;
  for (const space of getHeapSpaceStatistics()) if (!space.space_name.startsWith('new_')) used += space.space_used_size;
  return used;
}

let gcFunction: (() => void) | undefined;
/**
 * V8's full collection, made callable without `--expose-gc` on the command line (which would put
 * `gc` on every global object of the process): the flag, set for a moment, installs the function in
 * one new context; this one's global object, and the contexts and workers made later, have none.
 */
export function majorCollection(): void {
  if (gcFunction === undefined) {
    setFlagsFromString('--expose-gc');
    try {
      gcFunction = runInNewContext('gc') as () => void;
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  }
  gcFunction();
}

/**
 * Looks every `intervalMs` whether an answer was given since the last look; when none was and the
 * old generation grew by `growthBytes` since the last collection made here, collects. The first
 * idle interval collects whatever the growth (nothing is known of the heap before), unless
 * `collectNow` was called.
 */
export function collectWhenIdle(options: IdleCollectionOptions): IdleCollector {
  const collect = options.collect ?? majorCollection;
  const used = options.oldGenerationUsed ?? oldGenerationUsed;
  const growth = options.growthBytes ?? IDLE_GROWTH_BYTES;
  let usedAfter = Number.NEGATIVE_INFINITY;
  let seen = options.answered();
  const collectNow = () => {
    collect();
    usedAfter = used();
  };
  const timer = setInterval(() => {
    const answered = options.answered();
    if (answered !== seen) seen = answered;
    else if (used() - usedAfter >= growth) collectNow();
  }, options.intervalMs ?? IDLE_INTERVAL_MS);
  timer.unref();
  return { collectNow, close: () => clearInterval(timer) };
}
