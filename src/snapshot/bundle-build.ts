// Bundles the build as `npm run build` runs it (docs/architecture.md, "The build runs as bundled
// JavaScript"): the command (scripts/build.ts), the benchmarks' timed build
// (scripts/bench/run-build.ts) and every worker thread a module outside src/server/ starts, each
// into one ES module of plain JavaScript, the workers named after their sources (worker-url.ts
// finds them there). Each bundle goes into a folder of its own, named by what it was made from and
// never rewritten, so a build running from an older one keeps its workers; current.json is pointed
// at it last. What it was made from is the bytes esbuild compiled: the code id of src/ (checked
// unchanged after bundling, and every source compiled checked against the file) is written into the
// bundle, for buildCodeId, and the SHA-256 of every other input is recorded beside it
// (build-bundle.mjs currentBundle checks both before the bundle is run). The options are the
// server's (lib/node-bundle.ts: packages stay imports, tsconfig.json is not read).
import { build, type Plugin } from 'esbuild';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { NODE_BUNDLE_OPTIONS } from '../lib/node-bundle.ts';
import { BUILD_BUNDLES_DIR, CURRENT_BUNDLE_FILE, sha256Of, sourceCodeId } from './build-bundle.mjs';

export interface BundledBuild {
  /** the bundle's folder */
  readonly dir: string;
  readonly files: readonly { readonly path: string; readonly bytes: number }[];
}

/** A bundle current.json no longer names is removed once no build has started from it for this long (scripts/build.mjs touches the folder it runs: a build may still be running from it). */
const KEPT_MS = 24 * 60 * 60 * 1000;

/** `workerUrl('./<name>.ts', import.meta.url)` in a source, with either quote and any spacing. */
const WORKER_CALL = /workerUrl\(\s*(['"])\.\/([\w.-]+)\.ts\1\s*,\s*import\.meta\.url\s*\)/g;

/** The sources of the worker threads started outside src/server/, by the name their bundle takes. */
export function buildWorkerSources(root: string): Record<string, string> {
  const workers: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (path !== join(root, 'src', 'server')) walk(path);
        continue;
      }
      if (!entry.name.endsWith('.ts')) continue;
      for (const [, , name] of readFileSync(path, 'utf8').matchAll(WORKER_CALL)) {
        const source = join(dir, `${name}.ts`);
        const known = workers[name!];
        if (known !== undefined && known !== source) throw new Error(`two worker threads are named ${name}: ${known} and ${source} (their bundles would be one file)`);
        workers[name!] = source;
      }
    }
  };
  walk(join(root, 'src'));
  return workers;
}

/**
 * Every thread the bundled build starts must be one of its own bundles: each `new Worker(` in its
 * output is `new Worker(workerUrl("./<name>.ts", import.meta.url)` with <name>.mjs made beside it (a
 * worker started otherwise, or whose call buildWorkerSources did not find, would be looked for in
 * vain only when a build needs it).
 */
function checkWorkers(dir: string): void {
  const made = new Set(readdirSync(dir));
  for (const file of made) {
    if (!file.endsWith('.mjs')) continue;
    const text = readFileSync(join(dir, file), 'utf8');
    for (const at of text.matchAll(/new Worker\(/g)) {
      const call = /^new Worker\(workerUrl\("\.\/([\w.-]+)\.ts", import\.meta\.url\)/.exec(text.slice(at.index, at.index + 200));
      if (call === null) throw new Error(`${file} starts a worker thread that is not named by workerUrl('./<name>.ts', import.meta.url): ${text.slice(at.index, at.index + 80)}`);
      if (!made.has(`${call[1]}.mjs`)) throw new Error(`${file} starts the worker thread ${call[1]}.ts, which was not bundled`);
    }
  }
}

const LOADERS: Readonly<Record<string, 'ts' | 'js' | 'json'>> = { '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.js': 'js', '.mjs': 'js', '.cjs': 'js', '.json': 'json' };

/** Loads each source itself, recording the SHA-256 of the very bytes esbuild compiles, by path under `root` (with slashes). */
function hashingLoader(root: string, compiled: Map<string, string>): Plugin {
  return {
    name: 'hash-compiled-sources',
    setup(b) {
      b.onLoad({ filter: /.*/, namespace: 'file' }, (args) => {
        const loader = LOADERS[extname(args.path)];
        if (loader === undefined) throw new Error(`no loader for ${args.path}`);
        const contents = readFileSync(args.path);
        compiled.set(relative(root, args.path).split(sep).join('/'), sha256Of(contents));
        return { contents, loader };
      });
    },
  };
}

/** Bundles the build of the project at `root` into a new folder under `outRoot` (default: its dist/build-bundles/) and makes it the current one. */
export async function bundleBuild(root: string = process.cwd(), outRoot: string = join(root, BUILD_BUNDLES_DIR)): Promise<BundledBuild> {
  const code = sourceCodeId(root);
  mkdirSync(outRoot, { recursive: true });
  const making = mkdtempSync(join(outRoot, '.making-'));
  try {
    const compiled = new Map<string, string>();
    const entryPoints = { build: join(root, 'scripts', 'build.ts'), 'run-build': join(root, 'scripts', 'bench', 'run-build.ts'), ...buildWorkerSources(root) };
    await build({
      ...NODE_BUNDLE_OPTIONS, entryPoints, outdir: making, absWorkingDir: root,
      define: { BUNDLED_BUILD_CODE_ID: JSON.stringify(code) },
      plugins: [hashingLoader(root, compiled)],
    });
    checkWorkers(making);
    // what was compiled is what the record says: src/ as its code id names it, the others as hashed
    const changed = [...compiled].filter(([path, sha256]) => path.startsWith('src/') && sha256Of(join(root, path)) !== sha256).map(([path]) => path);
    if (changed.length > 0 || sourceCodeId(root) !== code) throw new Error(`the sources changed while they were bundled (${changed.join(', ') || 'src/'}): run it again`);
    const inputs = Object.fromEntries([...compiled].filter(([path]) => !path.startsWith('src/')).sort(([a], [b]) => (a < b ? -1 : 1)));
    const folder = sha256Of(Buffer.from(JSON.stringify({ code, inputs }))).slice(0, 16);
    const dir = join(outRoot, folder);
    try {
      renameSync(making, dir);
    } catch (error) {
      // the same sources bundled before: the same bytes (esbuild is deterministic); that one is kept
      if ((error as NodeJS.ErrnoException).code !== 'ENOTEMPTY' && (error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      rmSync(making, { recursive: true, force: true });
    }
    const pointer = join(outRoot, `.${CURRENT_BUNDLE_FILE}.${process.pid}`);
    writeFileSync(pointer, `${JSON.stringify({ folder, code, inputs })}\n`);
    renameSync(pointer, join(outRoot, CURRENT_BUNDLE_FILE));
    removeOldBundles(outRoot, folder);
    return { dir, files: readdirSync(dir).map((name) => ({ path: join(dir, name), bytes: statSync(join(dir, name)).size })) };
  } finally {
    rmSync(making, { recursive: true, force: true });
  }
}

/** Removes the bundles (and bundles left half made) older than KEPT_MS but the current one. */
function removeOldBundles(outRoot: string, current: string): void {
  for (const name of readdirSync(outRoot)) {
    if (name === current || name === CURRENT_BUNDLE_FILE) continue;
    const path = join(outRoot, name);
    try {
      if (Date.now() - statSync(path).mtimeMs > KEPT_MS) rmSync(path, { recursive: true, force: true });
    } catch { /* gone already */ }
  }
}
