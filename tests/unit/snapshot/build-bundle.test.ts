// The build as bundled JavaScript (src/snapshot/build-bundle.mjs, bundle-build.ts, scripts/build.mjs;
// docs/architecture.md, "The build runs as bundled JavaScript"): the bundle is run only while the
// sources are the ones it was made from, it names its code as the sources do, and it builds the
// same snapshot as the sources, incrementally too (every worker thread of a rebuild, bundled).
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { BUNDLED_FROM_FILE, currentBundle, fileSha256, sourceCodeId } from '../../../src/snapshot/build-bundle.mjs';
import { buildWorkerSources, bundleBuild } from '../../../src/snapshot/bundle-build.ts';
import { layoutOf } from '../../../src/snapshot/layout.ts';
import { buildCodeId } from '../../../src/snapshot/previous-snapshot.ts';
import { readBuiltFrom } from '../../../src/snapshot/swap.ts';
import { BASE_URL, tempDirs } from '../support/fixtures.ts';
import { readTree, runSql, smallCatalogue, writeCatalogueFile } from '../support/snapshots.ts';

const run = promisify(execFile);
const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const ROOT = process.cwd();

/** A project of two source files and a lock file, for the code id. */
function project(): string {
  const root = dirs.make();
  mkdirSync(join(root, 'src', 'lib'), { recursive: true });
  writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'src', 'lib', 'b.ts'), 'export const b = 2;\n');
  writeFileSync(join(root, 'package-lock.json'), '{"lockfileVersion": 3}\n');
  return root;
}

/** A bundle of `entry` in `root` recorded as made from sources of code id `code` and the other inputs `inputs` as they are. */
function fakeBundle(root: string, code: string, entry = 'build', inputs: readonly string[] = []): string {
  const dir = join(root, 'dist', 'app', 'build');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${entry}.mjs`), 'export {};\n');
  writeFileSync(join(dir, BUNDLED_FROM_FILE), JSON.stringify({ code, inputs: Object.fromEntries(inputs.map((input) => [input, fileSha256(join(root, input))])) }));
  return join(dir, `${entry}.mjs`);
}

describe('the code id of the sources', () => {
  it('is the same for the same sources, and changes with any file under src/ or the lock file', () => {
    const root = project();
    const first = sourceCodeId(root);
    expect(sourceCodeId(root)).toBe(first);
    writeFileSync(join(root, 'src', 'lib', 'b.ts'), 'export const b = 3;\n');
    const edited = sourceCodeId(root);
    expect(edited).not.toBe(first);
    writeFileSync(join(root, 'src', 'lib', 'c.ts'), '');
    const added = sourceCodeId(root);
    expect(added).not.toBe(edited);
    writeFileSync(join(root, 'package-lock.json'), '{"lockfileVersion": 3, "packages": {}}\n');
    expect(sourceCodeId(root)).not.toBe(added);
  });

  it('is the build code id of this project run from its sources', () => {
    expect(buildCodeId()).toBe(sourceCodeId(ROOT));
  });
});

describe('which build npm run build runs', () => {
  it('runs the bundle made from the sources as they are', () => {
    const root = project();
    const bundle = fakeBundle(root, sourceCodeId(root));
    expect(currentBundle(root, 'build')).toBe(bundle);
  });

  it('runs the sources when no bundle was made, or its code id is missing', () => {
    const root = project();
    expect(currentBundle(root, 'build')).toBeUndefined();
    fakeBundle(root, sourceCodeId(root));
    rmSync(join(root, 'dist', 'app', 'build', BUNDLED_FROM_FILE));
    expect(currentBundle(root, 'build')).toBeUndefined();
  });

  it('runs the sources once an input outside src/ (the command itself) changed or went since the bundle was made', () => {
    const root = project();
    mkdirSync(join(root, 'scripts'));
    writeFileSync(join(root, 'scripts', 'build.ts'), "console.log('build');\n");
    const bundle = fakeBundle(root, sourceCodeId(root), 'build', ['scripts/build.ts']);
    expect(currentBundle(root, 'build')).toBe(bundle);
    writeFileSync(join(root, 'scripts', 'build.ts'), "console.log('build, changed');\n");
    expect(currentBundle(root, 'build')).toBeUndefined();
    rmSync(join(root, 'scripts', 'build.ts'));
    expect(currentBundle(root, 'build')).toBeUndefined();
  });

  it('runs the sources once a source changed after the bundle was made, and when the entry was not bundled', () => {
    const root = project();
    fakeBundle(root, sourceCodeId(root));
    writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 2;\n');
    expect(currentBundle(root, 'build')).toBeUndefined();
    fakeBundle(root, sourceCodeId(root), 'build');
    expect(currentBundle(root, 'run-build')).toBeUndefined();
  });
});

describe('the bundle', () => {
  it('holds every worker thread started outside the server, each named after its source', () => {
    const workers = buildWorkerSources(ROOT);
    for (const name of ['derive-worker', 'previous-manifest-worker', 'served-model-data-worker', 'search-index-worker', 'text-file-worker', 'shard-check-worker', 'compress-worker', 'page-file-sink-worker']) {
      expect(workers[name], name).toBe(join(ROOT, 'src', 'snapshot', `${name}.ts`));
    }
    expect(Object.values(workers).filter((source) => source.startsWith(join(ROOT, 'src', 'server')))).toEqual([]);
  });

  it('refuses two worker threads of the same name in different folders (one bundle file for both)', () => {
    const root = project();
    for (const dir of ['one', 'two']) {
      mkdirSync(join(root, 'src', dir));
      writeFileSync(join(root, 'src', dir, 'start.ts'), "new Worker(workerUrl('./same-worker.ts', import.meta.url));\n");
    }
    expect(() => buildWorkerSources(root)).toThrow(/two worker threads are named same-worker/);
  });

  it('builds the snapshot the sources build, incrementally too, under the code id of the sources', async () => {
    mkdirSync(join(ROOT, 'dist'), { recursive: true });
    // inside the project, so that its packages resolve from node_modules as dist/app/build's do
    const out = mkdtempSync(join(ROOT, 'dist', '.bundle-test-'));
    try {
      const files = await bundleBuild(ROOT, out);
      expect(files.map((f) => f.path)).toEqual(expect.arrayContaining([join(out, 'build.mjs'), join(out, 'text-file-worker.mjs'), join(out, BUNDLED_FROM_FILE)]));
      // what it was made from: the code id of src/, and the command's own files by their SHA-256
      const made = JSON.parse(readFileSync(join(out, BUNDLED_FROM_FILE), 'utf8')) as { code: string; inputs: Record<string, string> };
      expect(made.code).toBe(sourceCodeId(ROOT));
      expect(made.inputs['scripts/build.ts']).toBe(fileSha256(join(ROOT, 'scripts', 'build.ts')));
      expect(made.inputs['scripts/cli.ts']).toBe(fileSha256(join(ROOT, 'scripts', 'cli.ts')));
      expect(Object.keys(made.inputs).filter((input) => input.startsWith('src/'))).toEqual([]);
      const dir = dirs.make();
      const catalogue = writeCatalogueFile(join(dir, 'catalogue.db'), smallCatalogue());
      const env = { ...process.env, CATALOGUE_DB: catalogue, PUBLIC_BASE_URL: BASE_URL, STATIC_FILES: undefined };
      const build = (script: string, distDir: string, ...args: string[]) => run(process.execPath, [script, ...args], { env: { ...env, DIST_DIR: distDir }, timeout: 60_000 });
      const bundled = join(dir, 'bundled');
      await build(join(out, 'build.mjs'), bundled);
      runSql(catalogue, "UPDATE videos SET title = 'Changed by the test' WHERE id = 'v1'");
      const rebuilt = await build(join(out, 'build.mjs'), bundled);
      // the rebuild started from the bundle's own snapshot: its code id is the sources'
      expect(rebuilt.stdout).toMatch(/pages as in the served snapshot/);
      expect(readBuiltFrom(layoutOf(bundled).root)?.code).toBe(buildCodeId());
      const sources = join(dir, 'sources');
      await build('scripts/build.ts', sources, '--full');
      const id = (distDir: string) => readlinkSync(layoutOf(distDir).current);
      expect(id(bundled)).toBe(id(sources));
      expect(readTree(join(layoutOf(bundled).root, id(bundled)))).toEqual(readTree(join(layoutOf(sources).root, id(sources))));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);
});
