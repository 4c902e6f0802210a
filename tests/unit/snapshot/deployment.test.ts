// src/snapshot/deployment.ts through buildSnapshot and `npm run build`: the deployment's base URL
// is recorded with dist/, and a build for another one (or for the default, PUBLIC_BASE_URL unset)
// is refused before anything is written, unless --for-new-origin says the deployment moves.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { buildSnapshot, type BuildOptions } from '../../../src/snapshot/build-snapshot.ts';
import { DEPLOYMENT_FILE, readDeployment } from '../../../src/snapshot/deployment.ts';
import { layoutOf } from '../../../src/snapshot/layout.ts';
import { BASE_URL, tempDirs } from '../support/fixtures.ts';
import { readManifest, runSql, smallCatalogue, writeCatalogueFile } from '../support/snapshots.ts';

const run = promisify(execFile);
const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const OTHER = 'http://127.0.0.1:48201';

function setup(): BuildOptions & { dir: string } {
  const dir = dirs.make();
  return { dir, catalogue: writeCatalogueFile(join(dir, 'catalogue.db'), smallCatalogue()), distDir: join(dir, 'dist'), baseUrl: BASE_URL };
}

const recorded = (distDir: string) => JSON.parse(readFileSync(join(distDir, DEPLOYMENT_FILE), 'utf8')) as { baseUrl: string };
const entries = (distDir: string) => readdirSync(layoutOf(distDir).root).sort();
const currentId = (distDir: string) => readlinkSync(layoutOf(distDir).current);

/** `npm run build` as an operator runs it, in this worktree, with the given environment. */
async function npmBuild(env: Record<string, string | undefined>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const clean = { ...process.env, PUBLIC_BASE_URL: undefined, STATIC_FILES: undefined, ...env };
  try {
    const { stdout, stderr } = await run(process.execPath, ['scripts/build.ts', ...args], { env: clean });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('the deployment record', () => {
  it('is written by the first build with its base URL', async () => {
    const options = setup();
    expect(readDeployment(options.distDir)).toBeUndefined();
    await buildSnapshot(options);
    expect(recorded(options.distDir)).toEqual({ baseUrl: BASE_URL });
  });

  it('refuses a build for another base URL before writing anything, naming both and both ways on', async () => {
    const options = setup();
    const first = await buildSnapshot(options);
    runSql(options.catalogue, "UPDATE videos SET title = 'Changed' WHERE id = 'v1'");
    const before = entries(options.distDir);
    const refusal = buildSnapshot({ ...options, baseUrl: OTHER, baseUrlSource: 'from PUBLIC_BASE_URL' });
    await expect(refusal).rejects.toThrow(`this deployment serves ${BASE_URL}`);
    await expect(refusal).rejects.toThrow(`but this build is for ${OTHER} (from PUBLIC_BASE_URL)`);
    await expect(refusal).rejects.toThrow(`set PUBLIC_BASE_URL=${BASE_URL}; to move the deployment to ${OTHER}, add --for-new-origin`);
    expect(entries(options.distDir)).toEqual(before);
    expect(currentId(options.distDir)).toBe(first.id);
    expect(recorded(options.distDir).baseUrl).toBe(BASE_URL);
  });

  it('builds for the new base URL and records it when told explicitly', async () => {
    const options = setup();
    await buildSnapshot(options);
    const moved = await buildSnapshot({ ...options, baseUrl: OTHER, newOrigin: true });
    expect(currentId(options.distDir)).toBe(moved.id);
    expect(readManifest(join(layoutOf(options.distDir).root, moved.id)).baseUrl).toBe(OTHER);
    expect(recorded(options.distDir).baseUrl).toBe(OTHER);
    // and from then on the old one is the foreign one
    await expect(buildSnapshot(options)).rejects.toThrow(`this deployment serves ${OTHER}`);
  });

  it('takes the current snapshot\'s base URL for a dist/ built before the record existed', async () => {
    const options = setup();
    const first = await buildSnapshot(options);
    rmSync(join(options.distDir, DEPLOYMENT_FILE));
    expect(readDeployment(options.distDir)?.baseUrl).toBe(BASE_URL);
    await expect(buildSnapshot({ ...options, baseUrl: OTHER })).rejects.toThrow(new RegExp(`serves ${BASE_URL} \\(recorded in the snapshot served now`));
    expect(currentId(options.distDir)).toBe(first.id);
    await buildSnapshot(options);
    expect(recorded(options.distDir).baseUrl).toBe(BASE_URL);
  });

  it('names a damaged record and how to write it again, and a new-origin build rewrites it', async () => {
    const options = setup();
    await buildSnapshot(options);
    writeFileSync(join(options.distDir, DEPLOYMENT_FILE), '{"baseUrl":');
    await expect(buildSnapshot(options)).rejects.toThrow(/deployment\.json cannot be read .*--for-new-origin/);
    await buildSnapshot({ ...options, newOrigin: true });
    expect(recorded(options.distDir).baseUrl).toBe(BASE_URL);
  });
});

describe('npm run build and the deployment', () => {
  it('refuses a plain build when the deployment serves another origin, saying PUBLIC_BASE_URL is not set', async () => {
    const options = setup();
    const first = await buildSnapshot({ ...options, baseUrl: OTHER });
    const env = { CATALOGUE_DB: options.catalogue, DIST_DIR: options.distDir, PORT: '4321' };
    const plain = await npmBuild(env);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain(`build: this deployment serves ${OTHER}`);
    expect(plain.stderr).toContain('this build is for http://localhost:4321 (the default: PUBLIC_BASE_URL is not set)');
    expect(currentId(options.distDir)).toBe(first.id);

    const forIt = await npmBuild({ ...env, PUBLIC_BASE_URL: OTHER });
    expect(forIt.code, forIt.stderr).toBe(0);
    const byOption = await npmBuild(env, '--base-url', OTHER);
    expect(byOption.code, byOption.stderr).toBe(0);
    expect(byOption.stdout).toContain(`for ${OTHER}`);

    const moved = await npmBuild(env, '--for-new-origin');
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toContain('for http://localhost:4321');
    expect(recorded(options.distDir).baseUrl).toBe('http://localhost:4321');
  });

  it('refuses a --base-url that is not an origin, naming the option', async () => {
    const options = setup();
    const result = await npmBuild({ CATALOGUE_DB: options.catalogue, DIST_DIR: options.distDir }, '--base-url', 'ftp://example.test');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^build: --base-url must be an http\(s\) origin/);
    expect(existsSync(options.distDir)).toBe(false);
  });
});
