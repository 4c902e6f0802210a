// yieldToMainThread (src/lib/thread-priority.ts): a build worker thread lowers its own scheduling
// priority and no other thread's, so that the build's main thread (the critical path of a rebuild)
// keeps its core; every worker the build's snapshot code starts does so first thing.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { basename, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { WORKER_NICENESS_STEP } from '../../../src/lib/thread-priority.ts';
import { buildWorkerSources } from '../../../src/snapshot/bundle-build.ts';
import { BASE_URL, tempDirs } from '../support/fixtures.ts';
import { smallCatalogue, writeCatalogueFile } from '../support/snapshots.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const helper = pathToFileURL(join(root, 'src/lib/thread-priority.ts')).href;

/** A thread's niceness from its /proc stat line: field 19, counted after the name, which may hold spaces and parentheses. */
const nicenessOf = (stat: string): number => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
/** The same, as code for a thread started from a string: the niceness of the thread that runs it. */
const NICENESS_OF_THIS_THREAD = `(${String(nicenessOf)})(process.getBuiltinModule('node:fs').readFileSync('/proc/thread-self/stat', 'utf8'))`;

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

const niceness = (): number => nicenessOf(readFileSync('/proc/thread-self/stat', 'utf8'));

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

  it('does nothing on a process\'s main thread', async () => {
    const code = `import { yieldToMainThread } from ${JSON.stringify(helper)};
      const niceness = () => ${NICENESS_OF_THIS_THREAD};
      const before = niceness();
      console.log(JSON.stringify({ before, returned: yieldToMainThread() ?? null, after: niceness() }));`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => { out += c; });
    await new Promise((resolve) => child.on('close', resolve));
    const seen = JSON.parse(out) as { before: number; returned: null; after: number };
    expect(seen.returned).toBeNull();
    expect(seen.after).toBe(seen.before);
  });
});

describe('the build\'s worker threads', () => {
  // every worker a module outside src/server starts, but the import's (src/catalogue): the build's
  const workers = Object.values(buildWorkerSources(root)).filter((source) => !relative(root, source).startsWith(join('src', 'catalogue')));
  const dirs = tempDirs();
  afterAll(() => dirs.cleanup());

  it('are found (the list below is not empty)', () => {
    expect(workers.map((source) => basename(source)).sort()).toEqual(expect.arrayContaining(['compress-worker.ts', 'derive-worker.ts', 'search-index-worker.ts', 'text-file-worker.ts']));
  });

  it.each(workers.map((source) => [relative(root, source)]))('%s yields to the main thread at its top level', (source) => {
    const text = readFileSync(join(root, source), 'utf8');
    expect(text).toMatch(/^import \{[^}]*\byieldToMainThread\b[^}]*\} from '(\.\.\/)+lib\/thread-priority\.ts';$/m);
    expect(text).toMatch(/^yieldToMainThread\(\);$/m);
  });

  it('are modules no other module loads, but for their types (so the call never runs on a main thread)', () => {
    const names = new Set(workers.map((source) => basename(source)));
    const loading: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.(ts|mts|mjs)$/.test(entry.name)) {
          for (const [statement, , file] of readFileSync(path, 'utf8').matchAll(/^import\s+(type\s+)?[^;]*?from\s+'[^']*\/([^/']+\.ts)';/gms)) {
            if (names.has(file!) && !/^import\s+type\b/.test(statement)) loading.push(`${relative(root, path)}: ${statement.split('\n')[0]}`);
          }
        }
      }
    };
    for (const top of ['src', 'scripts', 'tests']) walk(join(root, top));
    expect(loading).toEqual([]);
  });

  it.runIf(process.platform === 'linux')('run below the main thread in a real build, and V8\'s threads and the main thread do not', async () => {
    const dir = dirs.make();
    const catalogue = writeCatalogueFile(join(dir, 'catalogue.db'), smallCatalogue());
    const child = spawn(process.execPath, [join(root, 'scripts', 'build.ts')], {
      env: { ...process.env, CATALOGUE_DB: catalogue, DIST_DIR: join(dir, 'dist'), PUBLIC_BASE_URL: BASE_URL, STATIC_FILES: undefined },
      stdio: 'ignore',
    });
    // the child's threads, sampled from outside: (thread id, name, niceness) as /proc shows them
    const seen = new Map<string, Set<number>>();
    const sample = () => {
      try {
        for (const tid of readdirSync(`/proc/${child.pid}/task`)) {
          try {
            const stat = readFileSync(`/proc/${child.pid}/task/${tid}/stat`, 'utf8');
            const key = `${tid} ${stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))}`;
            if (!seen.has(key)) seen.set(key, new Set());
            seen.get(key)!.add(nicenessOf(stat));
          } catch { /* the thread ended meanwhile */ }
        }
      } catch { /* the process ended */ }
    };
    const timer = setInterval(sample, 2);
    const code = await new Promise((resolve) => child.on('close', resolve));
    clearInterval(timer);
    expect(code).toBe(0);
    const mine = niceness();
    const of = (name: string) => [...seen].filter(([key]) => key.endsWith(` ${name}`)).map(([, values]) => [...values]);
    // every build worker sampled once its module ran is ten steps below; one may be seen at the start too
    const lowered = of('WorkerThread').filter((values) => values.includes(Math.min(19, mine + WORKER_NICENESS_STEP)));
    expect(lowered.length).toBeGreaterThanOrEqual(3);
    expect(of('WorkerThread').flat().every((n) => n === mine || n === Math.min(19, mine + WORKER_NICENESS_STEP))).toBe(true);
    // the main thread is the one whose id is the process's (a new thread bears its maker's name at first)
    expect([...seen.get(`${child.pid} MainThread`) ?? []]).toEqual([mine]);
    expect(of('V8Worker').length).toBeGreaterThan(0);
    expect(of('V8Worker').flat().every((n) => n === mine)).toBe(true);
    // libuv's pool, if any thread made it: made by the main thread (at its niceness), never by a worker
    expect(of('libuv-worker').flat().every((n) => n === mine)).toBe(true);
  }, 60_000);
});
