// Builds meeting real faults of the file system (docs/reliability.md, "Builds and the file system"):
// a full disk (a small tmpfs mounted in a private mount namespace: as root, or in an unprivileged
// user namespace) and a file-size limit (RLIMIT_FSIZE, set with `ulimit -f` for the build's
// process: EFBIG). Nothing is mocked: `npm run build` runs as an operator runs it and meets the
// fault in write(2). Also: what killed builds leave behind, and which snapshots pruning keeps.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readlinkSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalogue } from '../../../src/catalogue/seed-catalogue.ts';
import { buildSnapshot, type BuildOptions } from '../../../src/snapshot/build-snapshot.ts';
import { layoutOf } from '../../../src/snapshot/layout.ts';
import { tempDirs } from '../support/fixtures.ts';
import { runSql, smallCatalogue, writeCatalogueFile } from '../support/snapshots.ts';

const BASE = 'http://127.0.0.1:4999';
const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/**
 * The command prefix that runs a shell in a private mount namespace where this user may mount a
 * tmpfs (root: `unshare --mount`; anyone else: with --map-root-user), or undefined when this
 * machine allows neither; the full-disk test then meets a file-size limit instead.
 */
function tmpfsNamespace(): string[] | undefined {
  for (const prefix of [['unshare', '--mount', '--propagation', 'private'], ['unshare', '--mount', '--map-root-user', '--propagation', 'private']]) {
    const probe = spawnSync(prefix[0]!, [...prefix.slice(1), 'sh', '-c', 'd=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs "$d" && umount "$d"; r=$?; rmdir "$d"; exit $r'], { stdio: 'ignore' });
    if (probe.status === 0) return prefix;
  }
  return undefined;
}

interface Prepared {
  readonly dir: string;
  readonly catalogue: string;
  /** a dist/ whose current snapshot was built from the catalogue before it changed */
  readonly distDir: string;
  readonly servedId: string;
  readonly entries: string[];
}

/** A served snapshot of 300 seeded videos (about 4 MB), then a catalogue change the next build must write. */
async function prepare(): Promise<Prepared> {
  const dir = dirs.make();
  const catalogue = join(dir, 'catalogue.db');
  seedCatalogue(catalogue, { videos: 300, seed: 5 });
  const distDir = join(dir, 'prepared');
  const { id } = await buildSnapshot({ catalogue, distDir, baseUrl: BASE });
  runSql(catalogue, "UPDATE videos SET title = title || ' (remastered)'");
  return { dir, catalogue, distDir, servedId: id, entries: readdirSync(layoutOf(distDir).root).sort() };
}

const kilobytesOf = (dir: string) => Number(spawnSync('du', ['-sk', dir], { encoding: 'utf8' }).stdout.split('\t')[0]);

interface Attempt {
  readonly exit: number;
  readonly output: string;
  readonly entries: string[];
  readonly current: string;
  /** KB the dist folder takes after the attempt */
  readonly used: number;
}

/** Parses the `@@name exit=N entries=a,b, current=ID used=KB` lines the namespaced script prints after each build. */
function attempts(output: string): Map<string, Attempt> {
  const found = new Map<string, Attempt>();
  let from = 0;
  for (const match of output.matchAll(/^@@(\w+) exit=(\d+) entries=(\S*) current=(\S*) used=(\d+)$/gm)) {
    found.set(match[1]!, { exit: Number(match[2]), output: output.slice(from, match.index), entries: match[3]!.split(',').filter(Boolean).sort(), current: match[4]!, used: Number(match[5]) });
    from = match.index! + match[0].length;
  }
  return found;
}

/** Runs the build three times on a disk too small for a second snapshot, the third time after it grew. */
function buildOnFullTmpfs(namespace: string[], p: Prepared): { output: string; sizeKb: number; before: number } {
  const dist = join(p.dir, 'dist');
  mkdirSync(dist);
  const before = kilobytesOf(p.distDir);
  const sizeKb = before + Math.ceil(before / 3); // room for a third of a new snapshot
  const script = `
    mount -t tmpfs -o size=${sizeKb}k tmpfs "$DIST_DIR" || exit 90
    cp -a "$PREPARED/." "$DIST_DIR/" || exit 91
    report() { echo "@@$1 exit=$2 entries=$(ls -A "$DIST_DIR/snapshots" | tr '\\n' ',') current=$(readlink "$DIST_DIR/snapshots/current") used=$(du -sk "$DIST_DIR" | cut -f1)"; }
    report prepared 0
    "$NODE" scripts/build.ts 2>&1; report first $?
    "$NODE" scripts/build.ts 2>&1; report retry $?
    mount -o remount,size=${sizeKb * 4}k "$DIST_DIR" || exit 92
    "$NODE" scripts/build.ts 2>&1; report roomy $?
  `;
  const result = spawnSync(namespace[0]!, [...namespace.slice(1), 'sh', '-c', script], {
    encoding: 'utf8',
    env: { ...process.env, NODE: process.execPath, PREPARED: p.distDir, DIST_DIR: dist, CATALOGUE_DB: p.catalogue, PUBLIC_BASE_URL: BASE, STATIC_FILES: '' },
    timeout: 240_000,
  });
  expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
  return { output: result.stdout, sizeKb, before };
}

/** `npm run build` with RLIMIT_FSIZE set to `limitKb` for its process (EFBIG past it). */
function buildUnderFileSizeLimit(p: Prepared, distDir: string, limitKb: number | undefined): { exit: number; output: string } {
  // sh's ulimit -f counts 512-byte blocks (dash) or 1024-byte ones (bash): both are far below the snapshot's files here
  const limit = limitKb === undefined ? '' : `ulimit -f ${limitKb} && `;
  const result = spawnSync('sh', ['-c', `${limit}exec "$NODE" scripts/build.ts`], {
    encoding: 'utf8',
    env: { ...process.env, NODE: process.execPath, DIST_DIR: distDir, CATALOGUE_DB: p.catalogue, PUBLIC_BASE_URL: BASE, STATIC_FILES: '' },
    timeout: 120_000,
  });
  return { exit: result.status ?? -1, output: `${result.stdout}${result.stderr}` };
}

describe('a build on a full disk', () => {
  let namespace: string[] | undefined;
  beforeAll(() => {
    namespace = tmpfsNamespace();
  });

  it('says the disk is full, removes everything it wrote, leaves the served snapshot serving, and so does a retry', async () => {
    const p = await prepare();
    if (namespace === undefined) {
      // No way to mount a small file system here: the same fault path, met through a file-size limit.
      const dist = join(p.dir, 'dist');
      cpSync(p.distDir, dist, { recursive: true, verbatimSymlinks: true });
      for (let attempt = 0; attempt < 2; attempt++) {
        const run = buildUnderFileSizeLimit(p, dist, 1024);
        expect(run.exit, run.output).toBe(1);
        expect(run.output).toContain('a file grew past the file-size limit (EFBIG) while writing the snapshot');
        expect(readdirSync(layoutOf(dist).root).sort()).toEqual(p.entries);
      }
      return;
    }
    const { output, before } = buildOnFullTmpfs(namespace, p);
    const runs = attempts(output);
    const prepared = runs.get('prepared')!;
    expect(prepared.entries).toEqual(p.entries);
    for (const name of ['first', 'retry']) {
      const run = runs.get(name)!;
      expect(run.exit, run.output).toBe(1);
      expect(run.output).toMatch(new RegExp(`build: the disk is full \\(ENOSPC\\) while writing the snapshot in \\S+/snapshots: what this build wrote was removed, and snapshot ${p.servedId} is still served\\. Free space there \\(the snapshot served now takes \\d+\\.\\d MB\\) and build again\\.`));
      expect(run.output).not.toMatch(/EBADF|bad file descriptor|\n\s+at /);
      // nothing of the failed build is left: the same entries, the same snapshot served, the space given back
      expect(run.entries, name).toEqual(p.entries);
      expect(run.current).toBe(p.servedId);
      expect(run.used, `${name}: ${run.used} KB used after, ${prepared.used} KB before`).toBeLessThanOrEqual(prepared.used + 8);
    }
    const roomy = runs.get('roomy')!;
    expect(roomy.exit, roomy.output).toBe(0);
    expect(roomy.current).not.toBe(p.servedId);
    expect(roomy.entries).toContain(p.servedId); // kept: it was served before the new one
    expect(before).toBeGreaterThan(1000);
  });
});

describe('a build past the file-size limit', () => {
  // write(2) first writes what fits and returns a short count; a build that ignored it swapped in a
  // snapshot whose page files were cut at the limit, and exited 0
  it('says so (EFBIG), removes everything it wrote and leaves the served snapshot serving', async () => {
    const p = await prepare();
    const dist = join(p.dir, 'dist');
    cpSync(p.distDir, dist, { recursive: true, verbatimSymlinks: true });
    const run = buildUnderFileSizeLimit(p, dist, 1024);
    expect(run.exit, run.output).toBe(1);
    expect(run.output).toMatch(new RegExp(`build: a file grew past the file-size limit \\(EFBIG\\) while writing the snapshot in \\S+: what this build wrote was removed, and snapshot ${p.servedId} is still served\\. Raise the limit \\(ulimit -f\\)`));
    expect(run.output).not.toMatch(/EBADF|bad file descriptor|\n\s+at /);
    expect(readdirSync(layoutOf(dist).root).sort()).toEqual(p.entries);
    expect(readlinkSync(layoutOf(dist).current)).toBe(p.servedId);

    const unlimited = buildUnderFileSizeLimit(p, dist, undefined);
    expect(unlimited.exit, unlimited.output).toBe(0);
    expect(readlinkSync(layoutOf(dist).current)).not.toBe(p.servedId);
  });
});

describe('leftovers of killed builds', () => {
  it('removes the half-written folder of a build killed while writing pages, and the temporaries of dead ones', async () => {
    const p = await prepare();
    const root = layoutOf(p.distDir).root;
    const child = spawn(process.execPath, ['scripts/build.ts'], {
      env: { ...process.env, DIST_DIR: p.distDir, CATALOGUE_DB: p.catalogue, PUBLIC_BASE_URL: BASE, STATIC_FILES: '' },
      stdio: 'ignore',
    });
    const exited = new Promise((done) => child.once('exit', done));
    let building: string | undefined;
    for (let i = 0; i < 1200 && building === undefined; i++) {
      building = readdirSync(root).find((name) => name.startsWith('.building-') && existsSync(join(root, name)) && readdirSync(join(root, name)).some((file) => file.startsWith('pages-')));
      if (building === undefined) await new Promise((r) => setTimeout(r, 50));
    }
    expect(building, 'the build never started writing pages').toBeDefined();
    child.kill('SIGKILL');
    await exited;
    expect(existsSync(join(root, building!))).toBe(true);

    // what a build killed between its small writes leaves, from a process that has ended
    const dead = spawnSync('true').pid!;
    symlinkSync(p.servedId, join(root, `.current-${dead}`));
    writeFileSync(join(root, `.built-from.json-${dead}`), '{"snapshot":');
    writeFileSync(join(p.distDir, `deployment.json-${dead}`), '{"baseUrl":');
    // and a folder of a build still running elsewhere (a live process): not ours to remove
    const live = spawn('sleep', ['60'], { stdio: 'ignore' });
    const running = `.building-${live.pid}-1`;
    mkdirSync(join(root, running));
    try {
      const messages: string[] = [];
      await buildSnapshot({ catalogue: p.catalogue, distDir: p.distDir, baseUrl: BASE, onProgress: (m) => messages.push(m) });
      const left = readdirSync(root).filter((name) => name.startsWith('.'));
      expect(left).toEqual([running]);
      expect(readdirSync(p.distDir).filter((name) => name.includes('-'))).toEqual([]);
      expect(messages.join('\n')).toMatch(/removed 4 leftovers of builds that were stopped: /);
    } finally {
      live.kill('SIGKILL');
    }
  });
});

describe('a build stopped by a signal', () => {
  /** Starts `npm run build`'s script, stops it with `signal` once it writes pages, and says how it ended. */
  async function stopWhileWritingPages(catalogue: string, distDir: string, signal: NodeJS.Signals, times = 1) {
    const root = layoutOf(distDir).root;
    const child = spawn(process.execPath, ['scripts/build.ts'], {
      env: { ...process.env, DIST_DIR: distDir, CATALOGUE_DB: catalogue, PUBLIC_BASE_URL: BASE, STATIC_FILES: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<NodeJS.Signals | null>((done) => child.once('exit', (_code, s) => done(s)));
    let building: string | undefined;
    for (let i = 0; i < 1200 && building === undefined; i++) {
      building = existsSync(root) ? readdirSync(root).find((name) => name.startsWith('.building-') && existsSync(join(root, name)) && readdirSync(join(root, name)).some((file) => file.startsWith('pages-'))) : undefined;
      if (building === undefined) await new Promise((r) => setTimeout(r, 50));
    }
    expect(building, 'the build never started writing pages').toBeDefined();
    for (let i = 0; i < times; i++) child.kill(signal);
    return { signal: await exited, stderr, building: building! };
  }

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`removes what it wrote aside and its lock when stopped by ${signal} while writing pages, and ends by that signal`, async () => {
      const p = await prepare();
      const root = layoutOf(p.distDir).root;
      const stopped = await stopWhileWritingPages(p.catalogue, p.distDir, signal);
      expect(stopped.signal, stopped.stderr).toBe(signal);
      // before: the half-written folder (hundreds of MB on a large catalogue) and the lock stayed until the next build
      expect(readdirSync(root).filter((name) => name.startsWith('.')), stopped.stderr).toEqual([]);
      expect(readdirSync(root).sort()).toEqual(p.entries);
      expect(readlinkSync(layoutOf(p.distDir).current)).toBe(p.servedId);
      expect(stopped.stderr).toMatch(new RegExp(`build: stopped by ${signal}; removed what it had written aside \\(${stopped.building.replace(/[.]/g, '\\.')}\\); snapshot ${p.servedId} is served`));
    });
  }

  it('removes everything when a second Ctrl-C follows the first (the terminal\'s and the one a heap re-run passes on)', async () => {
    const p = await prepare();
    const root = layoutOf(p.distDir).root;
    const stopped = await stopWhileWritingPages(p.catalogue, p.distDir, 'SIGINT', 2);
    expect(stopped.signal, stopped.stderr).toBe('SIGINT');
    expect(readdirSync(root).sort(), stopped.stderr).toEqual(p.entries);
  });

  it('leaves no DIST_DIR behind when it was the first build', async () => {
    const dir = dirs.make();
    const catalogue = join(dir, 'catalogue.db');
    seedCatalogue(catalogue, { videos: 300, seed: 5 });
    const distDir = join(dir, 'dist');
    const stopped = await stopWhileWritingPages(catalogue, distDir, 'SIGINT');
    expect(stopped.signal, stopped.stderr).toBe('SIGINT');
    expect(stopped.stderr).toContain('; no snapshot is served');
    expect(existsSync(distDir)).toBe(false);
  });
});

describe('snapshots kept for rollback', () => {
  const setup = (): BuildOptions => {
    const dir = dirs.make();
    return { catalogue: writeCatalogueFile(join(dir, 'catalogue.db'), smallCatalogue()), distDir: join(dir, 'dist'), baseUrl: BASE, keep: 1 };
  };
  const ids = (o: BuildOptions) => readdirSync(layoutOf(o.distDir).root).filter((n) => /^[0-9a-f]{16}$/.test(n)).sort();

  it('keeps the snapshot served most recently, not the newest folder', async () => {
    const options = setup();
    const a = await buildSnapshot(options);
    runSql(options.catalogue, "UPDATE videos SET views = 1000 WHERE id = 'v4'");
    const b = await buildSnapshot(options);
    runSql(options.catalogue, "UPDATE videos SET views = 1 WHERE id = 'v4'");
    const reverted = await buildSnapshot(options);
    expect(reverted.id).toBe(a.id); // A served again, its folder as old as it was
    runSql(options.catalogue, "UPDATE videos SET views = 5000 WHERE id = 'v4'");
    const c = await buildSnapshot(options);
    // served: A, B, A, C. The one served before C is A (nginx's old workers may still read it), not B.
    expect(ids(options)).toEqual([a.id, c.id].sort());
    expect(ids(options)).not.toContain(b.id);
  });

  it('does not count a snapshot that was never served', async () => {
    const options = setup();
    const a = await buildSnapshot(options);
    runSql(options.catalogue, "UPDATE videos SET views = 1000 WHERE id = 'v4'");
    const b = await buildSnapshot(options);
    // a complete snapshot no build swapped in, newer than any: copied in by hand, or left by a build
    // that died between writing it and the swap
    const never = join(layoutOf(options.distDir).root, '0123456789abcdef');
    cpSync(join(layoutOf(options.distDir).root, b.id), never, { recursive: true });
    const future = new Date(Date.now() + 60_000);
    utimesSync(never, future, future);
    runSql(options.catalogue, "UPDATE videos SET views = 2000 WHERE id = 'v4'");
    const c = await buildSnapshot(options);
    expect(ids(options)).toEqual([b.id, c.id].sort());
    expect(ids(options)).not.toContain(a.id);
    rmSync(never, { recursive: true, force: true });
  });
});
