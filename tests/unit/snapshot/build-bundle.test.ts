// The build as bundled JavaScript (src/snapshot/build-bundle.mjs, bundle-build.ts, scripts/build.mjs;
// docs/architecture.md, "The build runs as bundled JavaScript"): the bundle is run only while the
// sources are the ones it was made from, a bundle is never rewritten under a build running from it,
// every worker thread it starts is one of its own, it names its code as the sources do, and it builds
// the same snapshot as the sources, incrementally too.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILD_BUNDLES_DIR, bundleChoice, CURRENT_BUNDLE_FILE, currentBundle, sha256Of, sourceCodeId } from '../../../src/snapshot/build-bundle.mjs';
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

/** A project of two source files, a lock file and the command's own file, for the code id and the launcher. */
function project(): string {
  const root = dirs.make();
  mkdirSync(join(root, 'src', 'lib'), { recursive: true });
  mkdirSync(join(root, 'scripts'));
  writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'src', 'lib', 'b.ts'), 'export const b = 2;\n');
  writeFileSync(join(root, 'package-lock.json'), '{"lockfileVersion": 3}\n');
  writeFileSync(join(root, 'scripts', 'build.ts'), "console.log('from the sources');\n");
  return root;
}

/** A bundle of `root` named current, made from its sources as they are, whose build prints `says`. */
function fakeBundle(root: string, { code = sourceCodeId(root), inputs = ['scripts/build.ts'], says = 'from the bundle', body = '' } = {}): string {
  const folder = '0123456789abcdef';
  const dir = join(root, BUILD_BUNDLES_DIR, folder);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'build.mjs'), `${body}console.log(${JSON.stringify(says)});\n`);
  writeFileSync(join(root, BUILD_BUNDLES_DIR, CURRENT_BUNDLE_FILE), JSON.stringify({ folder, code, inputs: Object.fromEntries(inputs.map((input) => [input, sha256Of(join(root, input))])) }));
  return join(dir, 'build.mjs');
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

describe('which build is run, and why', () => {
  const sources = (reason: RegExp) => ({ reason: expect.stringMatching(reason) as unknown });

  it('is the current bundle while it was made from the sources as they are', () => {
    const root = project();
    const bundle = fakeBundle(root);
    expect(bundleChoice(root, 'build')).toEqual({ file: bundle });
    expect(currentBundle(root, 'build')).toBe(bundle);
  });

  it('is the sources when no bundle was made, when its record is not one, or it has not the entry', () => {
    const root = project();
    expect(bundleChoice(root, 'build')).toEqual(sources(/^no bundle was made \(npm run build:app makes one\)$/));
    expect(currentBundle(root, 'build')).toBeUndefined();
    fakeBundle(root);
    expect(bundleChoice(root, 'run-build')).toEqual(sources(/^the current bundle has no run-build\.mjs \(npm run build:app makes it current\)$/));
    expect(currentBundle(root, 'run-build')).toBeUndefined();
    writeFileSync(join(root, BUILD_BUNDLES_DIR, CURRENT_BUNDLE_FILE), '{"folder": "../../..", "code": "x", "inputs": {}}');
    expect(bundleChoice(root, 'build')).toEqual(sources(/^dist\/build-bundles\/current\.json is not a bundle's record/));
    writeFileSync(join(root, BUILD_BUNDLES_DIR, CURRENT_BUNDLE_FILE), 'not JSON');
    expect(bundleChoice(root, 'build')).toEqual(sources(/^dist\/build-bundles\/current\.json is not a bundle's record/));
    expect(currentBundle(root, 'build')).toBeUndefined();
  });

  it('is the sources once a file under src/ changed since the bundle was made', () => {
    const root = project();
    fakeBundle(root);
    writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 2;\n');
    expect(bundleChoice(root, 'build')).toEqual(sources(/^src\/, package-lock\.json or Node's version changed since the bundle was made \(npm run build:app makes it current\)$/));
    expect(currentBundle(root, 'build')).toBeUndefined();
  });

  it('is the sources once an input outside src/ (the command itself) changed or went', () => {
    const root = project();
    fakeBundle(root);
    writeFileSync(join(root, 'scripts', 'build.ts'), "console.log('changed');\n");
    expect(bundleChoice(root, 'build')).toEqual(sources(/^scripts\/build\.ts changed since the bundle was made/));
    rmSync(join(root, 'scripts', 'build.ts'));
    expect(bundleChoice(root, 'build')).toEqual(sources(/^the sources could not be compared with the bundle \(ENOENT/));
    expect(currentBundle(root, 'build')).toBeUndefined();
  });

  it('is the sources, which then say what is wrong, when a file under src/ cannot be read', () => {
    const root = project();
    fakeBundle(root);
    symlinkSync(join(root, 'nowhere'), join(root, 'src', '.#a.ts'));
    expect(bundleChoice(root, 'build')).toEqual(sources(/^the sources could not be compared with the bundle \(ENOENT/));
    expect(currentBundle(root, 'build')).toBeUndefined();
  });
});

describe('npm run build (scripts/build.mjs)', () => {
  /** A project with this project's launcher and the module it decides with. */
  function launcherProject(): string {
    const root = project();
    mkdirSync(join(root, 'src', 'snapshot'));
    copyFileSync(join(ROOT, 'src', 'snapshot', 'build-bundle.mjs'), join(root, 'src', 'snapshot', 'build-bundle.mjs'));
    copyFileSync(join(ROOT, 'scripts', 'build.mjs'), join(root, 'scripts', 'build.mjs'));
    return root;
  }
  /** The launcher of project `root`, run from another folder. */
  const launch = (root: string) => run(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: dirname(root) });

  it('runs the bundle while it is current, and the sources once they changed, saying why in one line', async () => {
    const root = launcherProject();
    fakeBundle(root);
    expect(await launch(root)).toMatchObject({ stdout: 'from the bundle\n', stderr: '' });
    writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 3;\n');
    expect(await launch(root)).toMatchObject({
      stdout: 'from the sources\n',
      stderr: "build: running from the TypeScript sources, about 0.4 s slower than the bundle: src/, package-lock.json or Node's version changed since the bundle was made (npm run build:app makes it current)\n",
    });
  });

  it('runs the sources, saying so, when the bundle cannot be loaded (a package not found from where it lies)', async () => {
    const root = launcherProject();
    fakeBundle(root, { body: "import 'a-package-nobody-installed';\n" });
    const { stdout, stderr } = await launch(root);
    expect(stdout).toBe('from the sources\n');
    expect(stderr).toMatch(/^build: the bundled build could not be loaded \(Cannot find package 'a-package-nobody-installed'.*\): running it from its sources\n$/);
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

  it('finds a worker however its call is quoted or spaced, and refuses two of the same name in different folders', () => {
    const root = project();
    mkdirSync(join(root, 'src', 'one'));
    writeFileSync(join(root, 'src', 'one', 'start.ts'), 'new Worker(workerUrl(\n  "./same-worker.ts",\n  import.meta.url));\n');
    expect(buildWorkerSources(root)).toEqual({ 'same-worker': join(root, 'src', 'one', 'same-worker.ts') });
    mkdirSync(join(root, 'src', 'two'));
    writeFileSync(join(root, 'src', 'two', 'start.ts'), "new Worker(workerUrl('./same-worker.ts', import.meta.url));\n");
    expect(() => buildWorkerSources(root)).toThrow(/two worker threads are named same-worker/);
  });

  it('is refused, and not made current, when the build starts a worker thread it did not bundle', async () => {
    const root = project();
    mkdirSync(join(root, 'scripts', 'bench'));
    writeFileSync(join(root, 'scripts', 'bench', 'run-build.ts'), 'export {};\n');
    writeFileSync(join(root, 'scripts', 'build.ts'), "import { Worker } from 'node:worker_threads';\nnew Worker(new URL('./lost-worker.ts', import.meta.url));\n");
    await expect(bundleBuild(root)).rejects.toThrow(/build\.mjs starts a worker thread that is not named by workerUrl/);
    expect(readdirSync(join(root, BUILD_BUNDLES_DIR))).toEqual([]);
  });

  it('is made in a folder of its own, named by what it was made from, and the same sources give the same folder', async () => {
    mkdirSync(join(ROOT, 'dist'), { recursive: true });
    // inside the project, so that its packages resolve from node_modules as dist/build-bundles' do
    const out = mkdtempSync(join(ROOT, 'dist', '.bundle-test-'));
    try {
      const made = await bundleBuild(ROOT, out);
      expect(made.files.map((f) => f.path)).toEqual(expect.arrayContaining([join(made.dir, 'build.mjs'), join(made.dir, 'run-build.mjs'), join(made.dir, 'text-file-worker.mjs')]));
      const current = JSON.parse(readFileSync(join(out, CURRENT_BUNDLE_FILE), 'utf8')) as { folder: string; code: string; inputs: Record<string, string> };
      expect(join(out, current.folder)).toBe(made.dir);
      expect(current.code).toBe(sourceCodeId(ROOT));
      expect(current.inputs['scripts/build.ts']).toBe(sha256Of(join(ROOT, 'scripts', 'build.ts')));
      expect(current.inputs['scripts/cli.ts']).toBe(sha256Of(join(ROOT, 'scripts', 'cli.ts')));
      expect(Object.keys(current.inputs).filter((input) => input.startsWith('src/'))).toEqual([]);
      expect((await bundleBuild(ROOT, out)).dir).toBe(made.dir);
      expect(readdirSync(out).sort()).toEqual([CURRENT_BUNDLE_FILE, current.folder].sort());
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('builds the snapshot the sources build, incrementally too, under the code id of the sources', async () => {
    mkdirSync(join(ROOT, 'dist'), { recursive: true });
    const out = mkdtempSync(join(ROOT, 'dist', '.bundle-test-'));
    try {
      const { dir: bundleDir } = await bundleBuild(ROOT, out);
      const dir = dirs.make();
      const catalogue = writeCatalogueFile(join(dir, 'catalogue.db'), smallCatalogue());
      const env = { ...process.env, CATALOGUE_DB: catalogue, PUBLIC_BASE_URL: BASE_URL, STATIC_FILES: undefined };
      const build = (script: string, distDir: string, ...args: string[]) => run(process.execPath, [script, ...args], { env: { ...env, DIST_DIR: distDir }, timeout: 60_000 });
      const bundled = join(dir, 'bundled');
      await build(join(bundleDir, 'build.mjs'), bundled);
      runSql(catalogue, "UPDATE videos SET title = 'Changed by the test' WHERE id = 'v1'");
      const rebuilt = await build(join(bundleDir, 'build.mjs'), bundled);
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
