// npm run nginx-config as an operator runs it: clear messages for bad arguments, and from a
// snapshot built without --static-files, the files written on demand and a configuration that
// Debian's nginx accepts.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalogue } from '../../src/catalogue/seed-catalogue.ts';
import { buildSnapshot } from '../../src/snapshot/build-snapshot.ts';
import { layoutOf, MANIFEST_FILE, pageFile } from '../../src/snapshot/layout.ts';
import type { Manifest } from '../../src/snapshot/manifest.ts';
import { STATIC_DIR } from '../../src/snapshot/static-files.ts';
import { nginxBinary } from './nginx-front.ts';
import { stampOfEtag } from '../../src/http/etag.ts';

const run = promisify(execFile);
let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vpa-nginx-cli-'));
  seedCatalogue(join(dir, 'catalogue.db'), { videos: 40, seed: 7 });
  await buildSnapshot({ catalogue: join(dir, 'catalogue.db'), distDir: join(dir, 'dist'), baseUrl: 'http://127.0.0.1:4321' });
  env = { ...process.env, CATALOGUE_DB: join(dir, 'catalogue.db'), DIST_DIR: join(dir, 'dist') };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function nginxConfig(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('npm', ['run', '-s', 'nginx-config', '--', ...args], { env, cwd: process.cwd() });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('npm run nginx-config', () => {
  it('names what is wrong with its arguments, and exits 2', async () => {
    const out = join(dir, 'nginx', 'nginx.conf');
    const cases: [string[], RegExp][] = [
      [[], /--listen is required/],
      [['--listen', '80000', '--origin', 'http://127.0.0.1:4321', '--out', out], /--listen must be a port/],
      [['--listen', '8080', '--out', out], /--origin is required/],
      [['--listen', '8080', '--origin', 'localhost:4321', '--out', out], /--origin localhost:4321 must be http:\/\/HOST:PORT|is not a URL/],
      [['--listen', '8080', '--origin', 'http://127.0.0.1:4321/api', '--out', out], /must be http:\/\/HOST:PORT/],
      [['--listen', '8080', '--origin', 'http://127.0.0.1:4321'], /--out is required/],
      [['--listen', '8080', '--origin', 'http://127.0.0.1:4321', '--out', out, '--workers', 'many'], /--workers must be a number/],
    ];
    // the cases at once: each is a process of its own (npm, node), slow on a loaded machine
    const results = await Promise.all(cases.map(([args]) => nginxConfig(...args)));
    cases.forEach(([args, message], i) => {
      expect(results[i]!.code, args.join(' ')).toBe(2);
      expect(results[i]!.stderr, args.join(' ')).toMatch(message);
    });
  });

  it('writes the static files a snapshot lacks, then a configuration nginx accepts', async () => {
    const current = realpathSync(layoutOf(join(dir, 'dist')).current);
    expect(existsSync(join(current, STATIC_DIR))).toBe(false);
    const out = join(dir, 'nginx', 'nginx.conf');
    const result = await nginxConfig('--listen', '18080', '--origin', 'http://127.0.0.1:4321', '--origin', 'http://127.0.0.1:4322', '--out', out);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/static files written/);

    const manifest = JSON.parse(readFileSync(join(current, MANIFEST_FILE), 'utf8')) as Manifest;
    const [key, page] = Object.entries(manifest.pages).find(([, p]) => p.gzip !== undefined)!;
    const file = join(current, STATIC_DIR, pageFile(key));
    expect(statSync(file).size).toBe(page.body[1]);
    expect(Math.floor(statSync(file).mtimeMs / 1000)).toBe(stampOfEtag(page.etag));
    expect(statSync(`${file}.gz`).size).toBe(page.gzip![1]);
    expect(readFileSync(join(current, STATIC_DIR, '_headers'), 'utf8')).toContain(`/${pageFile(key)}\n  ETag: ${page.etag}`);

    const conf = readFileSync(out, 'utf8');
    expect(conf).toContain(`root ${current}/${STATIC_DIR};`);
    expect(conf).toMatch(/server 127\.0\.0\.1:4321;\s+server 127\.0\.0\.1:4322;/);
    const check = spawnSync(nginxBinary(), ['-t', '-p', join(dir, 'nginx'), '-c', out], { encoding: 'utf8' });
    expect(check.stderr).toMatch(/test is successful/);
    expect(check.status).toBe(0);
  });
});
