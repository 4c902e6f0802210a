// Every operator command in scripts/ as an operator runs it: `--help` and `-h` print its usage and
// run nothing; an unknown or mistyped option is refused with a message naming it, before anything
// runs (exit 2). The catalogue and dist/ given to each command stay untouched. import and export
// are the catalogue commands' own (tests/unit/catalogue).
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCatalogue } from '../../../src/catalogue/open-catalogue.ts';
import { tempDirs } from '../support/fixtures.ts';
import { smallCatalogue, writeCatalogueFile } from '../support/snapshots.ts';

const run = promisify(execFile);
const dirs = tempDirs();
afterAll(() => dirs.cleanup());

/** The commands: every script in scripts/ (npm start's is plain JavaScript) but the shared helper and the catalogue's own. */
const COMMANDS = readdirSync('scripts').filter((name) => /\.m?[jt]s$/.test(name) && !['cli.ts', 'import.ts', 'export.ts'].includes(name)).sort();
const SHELL = readdirSync('scripts').filter((name) => name.endsWith('.sh')).sort();

let env: NodeJS.ProcessEnv;
let catalogue: string;
let distDir: string;
let catalogueStamp: number;

beforeAll(() => {
  const dir = dirs.make();
  catalogue = writeCatalogueFile(join(dir, 'catalogue.db'), smallCatalogue());
  catalogueStamp = statSync(catalogue).mtimeMs;
  distDir = join(dir, 'dist');
  // BENCH_PINNED: bench:search would otherwise re-run itself under taskset first
  env = { ...process.env, CATALOGUE_DB: catalogue, DIST_DIR: distDir, BENCH_PINNED: '1', PORT: '0' };
});

async function command(script: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const [file, argv] = script.endsWith('.sh') ? ['bash', [join('scripts', script), ...args]] : [process.execPath, [join('scripts', script), ...args]];
  try {
    const { stdout, stderr } = await run(file, argv, { env, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Nothing ran: no dist/, no new catalogue, the catalogue file unchanged. */
function expectNothingRan(what: string) {
  expect(existsSync(distDir), `${what} created dist/`).toBe(false);
  expect(statSync(catalogue).mtimeMs, `${what} wrote the catalogue`).toBe(catalogueStamp);
}

describe('every command', () => {
  it('covers the scripts it should', () => {
    expect(COMMANDS).toEqual(expect.arrayContaining(['build.ts', 'changes.ts', 'keys.ts', 'nginx-config.ts', 'seed.ts', 'start.mjs', 'bench-build.ts', 'bench-cdn.ts', 'bench-search.ts', 'bench-static.ts']));
  });

  // -h is the same flag to the shared parser (tests/unit/cli/args.test.ts): asked of build and start here
  it.concurrent.each([...COMMANDS, ...SHELL])('%s answers --help with its usage and runs nothing', async (script) => {
    for (const flag of ['build.ts', 'start.mjs'].includes(script) ? ['--help', '-h'] : ['--help']) {
      const result = await command(script, flag);
      expect(result.code, `${script} ${flag}: ${result.stderr}`).toBe(0);
      expect(result.stdout, `${script} ${flag}`).toMatch(/^usage: /);
      expect(result.stdout, `${script} ${flag}`).toMatch(/--help|^usage: bash/);
      expectNothingRan(`${script} ${flag}`);
    }
  });

  it.concurrent.each([...COMMANDS, ...SHELL])('%s refuses an unknown option, naming it, and runs nothing', async (script) => {
    const result = await command(script, '--no-such-option');
    expect(result.code, `${script}: ${result.stdout}${result.stderr}`).toBe(2);
    expect(result.stderr).toMatch(/unknown (option|argument) --no-such-option/);
    expect(result.stderr).toMatch(/--help/);
    expectNothingRan(script);
  });

  it('refuses a mistyped build option, suggesting the right one, and builds nothing', async () => {
    for (const args of [['--static-file'], ['--fulll'], ['--help-me'], ['static-files'], ['--base-url']]) {
      const result = await command('build.ts', ...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(/^build: (unknown option|unexpected argument|--base-url needs a value)/);
      expectNothingRan(`build ${args.join(' ')}`);
    }
    expect((await command('build.ts', '--static-file')).stderr).toContain('(did you mean --static-files?)');
  });

  it('build and start refuse a PUBLIC_BASE_URL with a path, saying the service must be served at the root of its origin, and run nothing', async () => {
    const base = 'https://example.org/videos';
    const expected = `PUBLIC_BASE_URL must be an origin without a path (got "${base}", whose path is /videos): the service must be served at the root of its origin`;
    for (const script of ['build.ts', 'start.mjs']) {
      const result = await run(process.execPath, [join('scripts', script)], { env: { ...env, PUBLIC_BASE_URL: base }, timeout: 60_000 }).then(() => ({ code: 0, stderr: '' }), (e: { code: number; stderr: string }) => e);
      expect(result.code, `${script}: ${result.stderr}`).toBe(2);
      expect(result.stderr, script).toContain(expected);
      expectNothingRan(`${script} with PUBLIC_BASE_URL=${base}`);
    }
    const flagged = await command('build.ts', '--base-url', `${base}/`);
    expect(flagged.code).toBe(2);
    expect(flagged.stderr).toContain(`--base-url must be an origin without a path (got "${base}/", whose path is /videos/)`);
    expectNothingRan('build --base-url with a path');
  });

    it('lets --help win over everything else on the line', async () => {
    const result = await command('build.ts', '--for-new-origin', '--nonsense', '-h');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--for-new-origin');
    expectNothingRan('build --for-new-origin --nonsense -h');
  });

  it('seed refuses a --db that is a directory, and build a CATALOGUE_DB that is no SQLite file, naming it', async () => {
    const dir = dirs.make();
    const seeded = await command('seed.ts', '--videos', '5', '--db', dir);
    expect(seeded.code).toBe(2);
    expect(seeded.stderr).toBe(`seed: --db ${dir} is a directory: give the path of the catalogue file to write\n`);
    const text = join(dir, 'catalogue.db');
    writeFileSync(text, 'not a database\n'.repeat(100));
    const built = await run(process.execPath, ['scripts/build.ts'], { env: { ...env, CATALOGUE_DB: text, DIST_DIR: join(dir, 'dist') }, timeout: 60_000 }).then(() => ({ code: 0, stderr: '' }), (e: { code: number; stderr: string }) => e);
    expect(built.code).toBe(1);
    expect(built.stderr).toContain(`build: ${text} is not a SQLite catalogue (file is not a database)`);
    expectNothingRan('seed and build on the wrong files');
  });

  it('start names a CATALOGUE_DB that is a directory or no SQLite file, and serves nothing', async () => {
    const dir = dirs.make();
    const text = join(dir, 'catalogue.db');
    writeFileSync(text, 'not a database\n'.repeat(100));
    for (const [catalogueDb, expected] of [[text, `start: CATALOGUE_DB ${text} is not a SQLite catalogue (file is not a database)`], [dir, `start: CATALOGUE_DB ${dir} is a directory:`]] as const) {
      const started = await run(process.execPath, ['scripts/start.mjs'], { env: { ...env, CATALOGUE_DB: catalogueDb, DIST_DIR: join(dir, 'dist') }, timeout: 60_000 }).then(() => ({ code: 0, stderr: '' }), (e: { code: number; stderr: string }) => e);
      expect(started.code, catalogueDb).toBe(2);
      expect(started.stderr, catalogueDb).toContain(expected);
    }
    expect(existsSync(join(dir, 'dist'))).toBe(false);
  });

  it('start says the port is in use when another process listens on it', async () => {
    const dir = dirs.make();
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    const port = (taken.address() as AddressInfo).port;
    try {
      const catalogueDb = writeCatalogueFile(join(dir, 'catalogue.db'), smallCatalogue());
      const started = await run(process.execPath, ['scripts/start.mjs'], { env: { ...env, CATALOGUE_DB: catalogueDb, DIST_DIR: join(dir, 'dist'), PORT: String(port), HOST: '127.0.0.1', PUBLIC_BASE_URL: `http://127.0.0.1:${port}` }, timeout: 60_000 })
        .then(() => ({ code: 0, stderr: '' }), (e: { code: number; stderr: string }) => e);
      expect(started.code).toBe(1);
      expect(started.stderr).toContain(`start: port ${port} is in use: another process listens on it; stop it, or set PORT to a free port`);
    } finally {
      taken.close();
    }
  }, 90_000);

  it('keys, build and export say the catalogue is locked by another writer, not only SQLite\'s "database is locked"', async () => {
    const dir = dirs.make();
    const catalogueDb = writeCatalogueFile(join(dir, 'catalogue.db'), smallCatalogue());
    const writer = openCatalogue(catalogueDb);
    writer.pragma('journal_mode = DELETE'); // a rollback journal: the writer's exclusive lock keeps readers out too
    writer.exec('BEGIN EXCLUSIVE');
    try {
      const lockedEnv = { ...env, CATALOGUE_DB: catalogueDb, DIST_DIR: join(dir, 'dist') };
      const attempts = await Promise.all([['keys.ts', 'list'], ['build.ts'], ['export.ts', join(dir, 'out.ndjson')]].map((argv) =>
        run(process.execPath, [join('scripts', argv[0]!), ...argv.slice(1)], { env: lockedEnv, timeout: 60_000 }).then(() => ({ code: 0, stderr: '' }), (e: { code: number; stderr: string }) => e)));
      for (const [i, name] of ['keys', 'build', 'export'].entries()) {
        expect(attempts[i]!.code, name).toBe(1);
        expect(attempts[i]!.stderr, name).toContain(`${name}: the catalogue is locked by another process that has been writing to it for more than 5 s (an import, say); nothing was done: try again once it has finished (SQLite: database is locked)`);
      }
      expect(readdirSync(dir).filter((name) => !name.startsWith('catalogue.db'))).toEqual([]); // no dist/, no out.ndjson or its temporary
    } finally {
      writer.exec('ROLLBACK');
      writer.close();
    }
  }, 90_000);

  it('seed refuses to replace a catalogue another connection holds a write transaction on, and leaves it whole', async () => {
    const dir = dirs.make();
    const catalogueDb = writeCatalogueFile(join(dir, 'catalogue.db'), smallCatalogue());
    const before = statSync(catalogueDb).ino;
    const writer = openCatalogue(catalogueDb); // WAL, as every catalogue is opened: readers still read
    const held = () => writer.prepare("SELECT value FROM meta WHERE key = 'held'").pluck().get();
    writer.exec('BEGIN IMMEDIATE');
    writer.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('held', 'by a writer')").run();
    let seeded: { code: number; stdout: string; stderr: string };
    try {
      seeded = await command('seed.ts', '--videos', '5', '--db', catalogueDb);
      // the writer's transaction is still its own, and commits into the same file
      expect(held()).toBe('by a writer');
      writer.exec('COMMIT');
    } finally {
      if (writer.inTransaction) writer.exec('ROLLBACK');
    }
    writer.close();
    expect(seeded.code).toBe(1);
    expect(seeded.stderr).toBe('seed: the catalogue is locked by another process that has been writing to it for more than 5 s (an import, say); nothing was done: try again once it has finished (SQLite: database is locked)\n');
    expect(seeded.stdout).not.toMatch(/records/); // refused before the first video: no progress line, no "wrote"
    expect(statSync(catalogueDb).ino).toBe(before);
    expect(readdirSync(dir).sort()).toEqual(['catalogue.db']); // no catalogue.db.tmp, the WAL checkpointed away
    const reader = openCatalogue(catalogueDb, { readonly: true });
    try {
      expect(reader.prepare("SELECT value FROM meta WHERE key = 'held'").pluck().get()).toBe('by a writer');
      expect(reader.prepare('SELECT count(*) FROM videos').pluck().get()).toBe(smallCatalogue().filter((r) => r.kind === 'video').length);
    } finally {
      reader.close();
    }
    // once the writer is done, the same seed replaces it
    expect((await command('seed.ts', '--videos', '5', '--db', catalogueDb)).code).toBe(0);
    expect(statSync(catalogueDb).ino).not.toBe(before);
  }, 90_000);

  it('keys names an unknown command and a revoke without what to revoke, and touches nothing', async () => {
    const unknown = await command('keys.ts', 'frob');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^keys: unknown command "frob": the commands are create, list and revoke;/);
    const revoke = await command('keys.ts', 'revoke');
    expect(revoke.code).toBe(2);
    expect(revoke.stderr).toMatch(/^keys: give one app id or key prefix to revoke/);
    const list = await command('keys.ts', 'list', 'x');
    expect(list.code).toBe(2);
    expect(list.stderr).toMatch(/^keys: list takes no argument, not "x";/);
    expectNothingRan('keys frob, revoke, list x');
  });

  it('refuses a changes option without its value, and a snapshot id that is not one', async () => {
    const missing = await command('changes.ts', '--snapshot');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^changes: --snapshot needs a value/);
    const bad = await command('changes.ts', '--snapshot', '../../etc');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--snapshot needs a snapshot id (16 hex digits), not "../../etc"');
    const unknown = await command('changes.ts', '--snapshot', '0123456789abcdef');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^changes: no snapshot 0123456789abcdef in .* and no list of its changes in /);
  });
});
