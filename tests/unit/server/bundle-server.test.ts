// The server as npm start runs it is bundled into plain JavaScript (docs/architecture.md, "The
// server runs as bundled JavaScript"): each bundle must run without the sources and without Node's
// type stripping, and every worker thread a serving process starts must have its bundle beside it.
// (tests/http/process-swap.test.ts runs these bundles for real through scripts/start.mjs.)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workerUrl } from '../../../src/lib/worker-url.ts';
import { bundleServer } from '../../../src/server/bundle-server.ts';
import { tempDirs } from '../support/fixtures.ts';

const dirs = tempDirs();
afterAll(() => dirs.cleanup());
let outDir: string;
let files: string[];

beforeAll(async () => {
  outDir = dirs.make();
  files = (await bundleServer(outDir)).map((f) => f.path);
}, 60_000);

/** Every module a bundle imports, statically or dynamically by a literal name. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:^import [^;]*? from |^import |\bimport\()["']([^"']+)["']/gm)].map((m) => m[1]!);
}

describe('the server bundles', () => {
  it('are the supervisor, the serving process and one per worker thread of src/server', () => {
    const workers = readdirSync(join('src', 'server')).filter((n) => n.endsWith('-worker.ts')).map((n) => n.replace(/\.ts$/, '.mjs'));
    expect(workers.length).toBeGreaterThan(0);
    expect(readdirSync(outDir).sort()).toEqual(['serving.mjs', 'supervisor.mjs', ...workers].sort());
    expect(files).toHaveLength(workers.length + 2);
  });

  it('import only Node built-ins and packages: no source file, no TypeScript', () => {
    for (const file of readdirSync(outDir).map((n) => join(outDir, n))) {
      const imports = importsOf(file);
      for (const name of imports) {
        const allowed = name.startsWith('node:') || builtinModules.includes(name) || /^(@[\w.-]+\/)?[\w.-]+(\/[\w./-]+)?$/.test(name);
        expect(allowed && !name.endsWith('.ts'), `${file} imports ${name}`).toBe(true);
      }
    }
    // packages are imported, not inlined: the scan above sees them
    expect(importsOf(join(outDir, 'serving.mjs'))).toEqual(expect.arrayContaining(['zod', 'node:worker_threads']));
    expect(importsOf(join(outDir, 'catalogue-worker.mjs'))).toContain('better-sqlite3');
  });

  it('find every worker thread the serving process starts beside it', () => {
    const serving = readFileSync(join(outDir, 'serving.mjs'), 'utf8');
    const started = [...serving.matchAll(/workerUrl\("([^"]+)", import\.meta\.url\)/g)].map((m) => m[1]!);
    expect(started.sort()).toEqual(['./catalogue-worker.ts', './search-worker.ts', './verify-worker.ts']);
    const base = pathToFileURL(join(outDir, 'serving.mjs')).href;
    for (const source of started) expect(existsSync(workerUrl(source, base)), source).toBe(true);
  });
});

describe('workerUrl', () => {
  it('is the TypeScript source beside a source module', () => {
    expect(workerUrl('./search-worker.ts', 'file:///app/src/server/snapshot-store.ts').href).toBe('file:///app/src/server/search-worker.ts');
  });

  it('is the bundle beside a bundled module', () => {
    expect(workerUrl('./search-worker.ts', 'file:///app/dist/app/start/serving.mjs').href).toBe('file:///app/dist/app/start/search-worker.mjs');
  });
});
