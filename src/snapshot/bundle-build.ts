// Bundles the build as `npm run build` runs it (docs/architecture.md, "The build runs as bundled
// JavaScript"): the command (scripts/build.ts), the benchmarks' timed build
// (scripts/bench/run-build.ts) and every worker thread a module outside src/server/ starts
// (each `workerUrl` of a worker's source: found in the sources, so a new worker is bundled without being
// listed), each into one ES module of plain JavaScript, the workers named after their sources
// (worker-url.ts finds them there). The code id of src/ (build-bundle.mjs sourceCodeId) is written
// into the bundle, for buildCodeId, and beside it last with the SHA-256 of every other input
// (bundled-from.json): scripts/build.mjs runs the bundle only while the sources are those. Packages
// stay imports, resolved from node_modules.
import { build } from 'esbuild';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILD_BUNDLE_DIR, BUNDLED_FROM_FILE, fileSha256, sourceCodeId } from './build-bundle.mjs';

export interface BundledBuildFile {
  readonly path: string;
  readonly bytes: number;
}

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
      for (const [, name] of readFileSync(path, 'utf8').matchAll(/workerUrl\('\.\/([\w.-]+)\.ts', import\.meta\.url\)/g)) {
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

/** Bundles the build of the project at `root` into `outDir` (default: its dist/app/build/). */
export async function bundleBuild(root: string = process.cwd(), outDir: string = join(root, BUILD_BUNDLE_DIR)): Promise<BundledBuildFile[]> {
  const code = sourceCodeId(root);
  // a bundle being rewritten is never taken for one of these sources: its id goes first and comes back last
  rmSync(join(outDir, BUNDLED_FROM_FILE), { force: true });
  mkdirSync(outDir, { recursive: true });
  const entryPoints = {
    build: join(root, 'scripts', 'build.ts'),
    'run-build': join(root, 'scripts', 'bench', 'run-build.ts'),
    ...buildWorkerSources(root),
  };
  const result = await build({
    entryPoints, outdir: outDir, outExtension: { '.js': '.mjs' },
    bundle: true, platform: 'node', format: 'esm', target: 'node24', packages: 'external',
    logLevel: 'error', charset: 'utf8', metafile: true, absWorkingDir: root,
    define: { BUNDLED_BUILD_CODE_ID: JSON.stringify(code) },
  });
  // the inputs outside src/ (src/ is the code id's): their paths are relative to absWorkingDir, with slashes
  const inputs = Object.keys(result.metafile.inputs).filter((path) => !path.startsWith('src/')).sort();
  writeFileSync(join(outDir, BUNDLED_FROM_FILE), `${JSON.stringify({ code, inputs: Object.fromEntries(inputs.map((path) => [path, fileSha256(join(root, path))])) })}\n`);
  return [...Object.keys(result.metafile.outputs).map((path) => join(root, path)), join(outDir, BUNDLED_FROM_FILE)]
    .map((path) => ({ path, bytes: statSync(path).size }));
}
