// yieldToMainThread (src/lib/thread-priority.ts): a build worker thread lowers its own scheduling
// priority and no other thread's, so that the build's main thread (the critical path of a rebuild)
// keeps its core; every worker the build's snapshot code starts does so first thing.
import { readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { WORKER_NICENESS_STEP, yieldToMainThread } from '../../../src/lib/thread-priority.ts';
import { buildWorkerSources } from '../../../src/snapshot/bundle-build.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const helper = pathToFileURL(join(root, 'src/lib/thread-priority.ts')).href;

/** The niceness of a thread as the kernel reports it (/proc/thread-self/stat, field 19). */
const NICENESS_OF_THIS_THREAD = `Number(require('node:fs').readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ')[16])`;

interface Seen { before: number; returned: (number | null)[]; after: number }

/** Runs yieldToMainThread(...args) once per entry of `calls` on a fresh worker thread; what its niceness was, what each call returned, what it is after. */
function inWorker(calls: unknown[][]): Promise<Seen> {
  const code = `
    const { parentPort } = require('node:worker_threads');
    const niceness = () => ${NICENESS_OF_THIS_THREAD};
    import(${JSON.stringify(helper)}).then(({ yieldToMainThread }) => {
      const before = niceness();
      const returned = ${JSON.stringify(calls)}.map((args) => yieldToMainThread(...args) ?? null);
      parentPort.postMessage({ before, returned, after: niceness() });
    });`;
  const worker = new Worker(code, { eval: true });
  return new Promise((resolve, reject) => {
    worker.once('message', (seen: Seen) => { void worker.terminate(); resolve(seen); });
    worker.once('error', reject);
  });
}

const niceness = (): number => Number(readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1]!.split(' ')[16]);

describe.runIf(process.platform === 'linux')('yieldToMainThread', () => {
  it('lowers the calling worker thread by the step, and no other thread', async () => {
    const mine = niceness();
    const seen = await inWorker([[]]);
    expect(seen.before).toBe(mine);
    expect(seen.after).toBe(Math.min(19, mine + WORKER_NICENESS_STEP));
    expect(seen.returned).toEqual([seen.after]);
    expect(niceness()).toBe(mine);
    expect(getPriority(0)).toBe(mine);
  });

  it('stops at the lowest priority, 19, and says so', async () => {
    const seen = await inWorker([[15], [15], [15]]);
    expect(seen.returned).toEqual([Math.min(19, seen.before + 15), 19, 19]);
    expect(seen.after).toBe(19);
  });

  it('does nothing on another system, where pid 0 would be the whole process', async () => {
    const seen = await inWorker([[WORKER_NICENESS_STEP, 'darwin'], [WORKER_NICENESS_STEP, 'win32']]);
    expect(seen.returned).toEqual([null, null]);
    expect(seen.after).toBe(seen.before);
  });

  it('does nothing on the main thread (a worker\'s module may be loaded there too)', () => {
    const before = niceness();
    expect(yieldToMainThread()).toBeUndefined();
    expect(niceness()).toBe(before);
  });
});

describe('the build\'s worker threads', () => {
  const snapshotWorkers = Object.values(buildWorkerSources(root)).filter((source) => relative(root, source).startsWith(`src${sep}snapshot${sep}`));

  it('are found (the list below is not empty)', () => {
    expect(snapshotWorkers.length).toBeGreaterThanOrEqual(8);
  });

  it.each(snapshotWorkers.map((source) => [relative(root, source)]))('%s yields to the main thread at its top level', (source) => {
    const text = readFileSync(join(root, source), 'utf8');
    expect(text).toContain("import { yieldToMainThread } from '../lib/thread-priority.ts';");
    expect(text).toMatch(/^yieldToMainThread\(\);$/m);
  });
});
