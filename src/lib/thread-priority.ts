// The build's worker threads run at a lower scheduling priority than its main thread
// (docs/architecture.md, "The build's worker threads yield to its main thread"). A rebuild is
// CPU-bound on two cores, and its main thread is the critical path: the workers (the served
// snapshot's reads, the search index's patch, the file writers and checks) do work the main
// thread needs only later, yet at equal priority they took its core from it. Each build worker's
// module calls yieldToMainThread() at its top level, once its imports are loaded.
//
// Two rules keep the lowering to the workers alone:
// - a worker's module is only ever a thread's entry: the main thread imports nothing of it but
//   types (tests/unit/lib/thread-priority.test.ts checks this; on the main thread the call does
//   nothing anyway);
// - a worker must not be the first of the process to use libuv's thread pool (fs.promises, async
//   zlib or crypto): the pool's threads are made then, by that thread, and would inherit its
//   priority while serving the main thread's calls too. No build worker uses the pool today (the
//   same test samples a real build's threads).
import { getPriority, setPriority } from 'node:os';
import { isMainThread } from 'node:worker_threads';

/** How many steps of niceness a build worker sits below the thread that started it. */
export const WORKER_NICENESS_STEP = 10;

/** The lowest priority Linux has (the highest niceness). */
const LOWEST = 19;

/**
 * Lowers the calling thread's priority by `step` steps of niceness (at most to 19), leaving every
 * other thread of the process as it is: on Linux, niceness belongs to a thread, and `setPriority`
 * of pid 0 sets the caller's. A thread may always lower its own priority, and without privilege
 * (CAP_SYS_NICE, or an RLIMIT_NICE above 0) never raise it back. Does nothing on the main thread,
 * on other systems (where pid 0 is the whole process) or when the system refuses; returns the
 * thread's niceness after, or undefined when it was left as it was for those reasons.
 */
export function yieldToMainThread(step = WORKER_NICENESS_STEP, platform: NodeJS.Platform = process.platform): number | undefined {
  if (isMainThread || platform !== 'linux') return undefined;
  try {
    const now = getPriority(0);
    const next = Math.min(LOWEST, now + step);
    if (next !== now) setPriority(0, next);
    return next;
  } catch {
    return undefined;
  }
}
