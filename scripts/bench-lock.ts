// npm run bench:lock -- [--lock S] [--videos N] [--clients C]: answers while another process holds
// an exclusive lock on the catalogue (docs/reliability.md, "Catalogue database and status"). A real
// server (pinned to core 0 when taskset exists; this load generator on core 1) on a seeded
// catalogue; C clients (default 4) send partner traffic (a developer key: a prerendered page, a
// dynamic query, /v1/partner) beside anonymous static and dynamic requests, while a second process
// holds `BEGIN EXCLUSIVE` for S seconds (default 20). Prints the latency of every answer during the
// lock (p50/p99/max) against the target (none slower than 50 ms), beside the same traffic without
// a lock (what the machine gives anyway), then how long after the release
// the usage counted during the lock was stored, and whether every request was.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, readUsage } from '../src/catalogue/api-keys.ts';
import { openCatalogue } from '../src/catalogue/open-catalogue.ts';
import { seedCatalogue } from '../src/catalogue/seed-catalogue.ts';
import { wholeNumber } from '../src/cli/args.ts';
import { readCommandLine, runCli } from './cli.ts';
import { getStatus, untilListening } from './bench/serving.ts';

const TARGET_MAX_MS = 50;
const PORT = 4620;
const BENCH_LOCK_COMMAND = {
  run: 'npm run bench:lock',
  about: 'Latency while another process holds an exclusive lock on the catalogue, beside the same traffic without one; then whether every usage count was stored after the release.',
  options: {
    lock: { type: 'string', value: 'SECONDS', help: 'how long the other process holds the exclusive lock (default 20)' },
    videos: { type: 'string', value: 'N', help: 'videos in the seeded catalogue (default 2000)' },
    clients: { type: 'string', value: 'C', help: 'concurrent clients, each sending its next request when the last is answered (default 4)' },
  },
} as const;

// read before anything runs, so --help and a mistyped option never start a benchmark
const { values } = readCommandLine('bench:lock', BENCH_LOCK_COMMAND);

const hasTaskset = spawnSync('taskset', ['--version']).status === 0;
if (hasTaskset && !process.env['BENCH_PINNED']) {
  const run = spawnSync('taskset', ['-c', '1', process.execPath, ...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env: { ...process.env, BENCH_PINNED: '1' } });
  process.exit(run.status ?? 1);
}

function options(): { lock: number; videos: number; clients: number } {
  return {
    lock: wholeNumber('lock', values.lock, { min: 1, max: 3600, fallback: 20 }),
    videos: wholeNumber('videos', values.videos, { min: 1, max: 10_000_000, fallback: 2000 }),
    clients: wholeNumber('clients', values.clients, { min: 1, max: 1000, fallback: 4 }),
  };
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });
const get = (path: string, headers: Record<string, string>): Promise<number> => getStatus(agent, PORT, path, headers);

/** A second process that takes an exclusive lock on the catalogue and holds it for `ms`. */
function holdLock(path: string, ms: number): Promise<{ child: ChildProcess; released: Promise<number> }> {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1]);
    db.pragma('busy_timeout = 5000');
    db.exec('BEGIN EXCLUSIVE');
    db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('bench-lock', ?)").run(String(Date.now()));
    process.stdout.write('locked\\n');
    setTimeout(() => { db.exec('COMMIT'); db.close(); process.stdout.write('released\\n'); }, Number(process.argv[2]));
  `;
  const child = spawn(process.execPath, ['-e', script, path, String(ms)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const released = new Promise<number>((done, fail) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('released')) done(performance.now());
    });
    child.on('exit', (code) => { if (!out.includes('released')) fail(new Error(`the locking process exited with ${code}`)); });
  });
  return new Promise((done, fail) => {
    const check = () => { if (out.includes('locked')) done({ child, released }); };
    child.stdout!.on('data', check);
    child.on('exit', (code) => fail(new Error(`the locking process exited with ${code} before locking`)));
  });
}

const storedRequests = (path: string, appId: string): number => {
  const db = openCatalogue(path, { readonly: true });
  try {
    return readUsage(db, appId).reduce((sum, r) => sum + r.requests, 0);
  } finally {
    db.close();
  }
};

await runCli('bench:lock', async () => {
  const { lock, videos, clients } = options();
  const dir = mkdtempSync(join(tmpdir(), 'vpa-bench-lock-'));
  const catalogue = join(dir, 'catalogue.db');
  const env = {
    ...process.env, CATALOGUE_DB: catalogue, DIST_DIR: join(dir, 'dist'), PORT: String(PORT), HOST: '127.0.0.1',
    PUBLIC_BASE_URL: `http://127.0.0.1:${PORT}`, RATE_LIMIT_PUBLIC: '10000000', RATE_LIMIT_KEY: '10000000',
  };
  let server: ChildProcess | undefined;
  try {
    console.log(`bench:lock: seeding ${videos} videos and building the snapshot in ${dir}`);
    seedCatalogue(catalogue, { videos, seed: 42 });
    execFileSync(process.execPath, ['scripts/build.ts'], { env, stdio: 'ignore' });
    const db = openCatalogue(catalogue);
    const app = createApp(db, 'bench:lock', new Date().toISOString());
    db.close();

    server = spawn(hasTaskset ? 'taskset' : process.execPath, [...(hasTaskset ? ['-c', '0', process.execPath] : []), 'scripts/start.mjs'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    await untilListening(server);

    const keyed = { authorization: `Bearer ${app.key}` };
    const mix: readonly [string, Record<string, string>][] = [
      ['/v1/categories', keyed], ['/v1/videos?limit=3&sort=views', keyed], ['/v1/partner', keyed],
      ['/v1/categories', {}], ['/v1/videos?limit=2&q=a', {}],
    ];
    let counted = 0;
    let n = 0;
    const next = () => mix[n++ % mix.length]!;
    // warm-up: the key is known and the app's stored usage read before the lock
    for (let i = 0; i < 50; i++) {
      const [path, headers] = next();
      await get(path, headers);
      if (headers === keyed) counted++;
    }

    /** `clients` clients for `seconds`, printing progress every 5 s; latency figures at the end */
    async function phase(label: string, seconds: number) {
      const startedAt = performance.now();
      const latencies: number[] = [];
      const slowest: [number, string][] = [];
      let failures = 0;
      let lastReport = startedAt;
      const until = startedAt + seconds * 1000 - 200;
      await Promise.all(Array.from({ length: clients }, async () => {
        while (performance.now() < until && latencies.length < 5_000_000) {
          const [path, headers] = next();
          const started = performance.now();
          const status = await get(path, headers);
          const ms = performance.now() - started;
          latencies.push(ms);
          if (headers === keyed) counted++;
          if (status !== 200) failures++;
          if (slowest.length < 3 || ms > slowest[2]![0]) {
            slowest.push([ms, path]);
            slowest.sort((a, b) => b[0] - a[0]);
            slowest.length = Math.min(slowest.length, 3);
          }
          const now = performance.now();
          if (now - lastReport >= 5000) {
            lastReport = now;
            const done = (now - startedAt) / (seconds * 1000);
            console.log(`  ${label}: ${((now - startedAt) / 1000).toFixed(0)} s of ${seconds} s (${(done * 100).toFixed(0)}%, ${(seconds - (now - startedAt) / 1000).toFixed(0)} s left): ${latencies.length} requests, slowest ${slowest[0]![0].toFixed(1)} ms`);
          }
        }
      }));
      const sorted = Float64Array.from(latencies).sort();
      const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
      const max = sorted[sorted.length - 1]!;
      console.log(`${label}: ${latencies.length} requests (${failures} not 200), ${(latencies.length / seconds).toFixed(0)} req/s; latency p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, max ${max.toFixed(1)} ms (slowest: ${slowest.map(([ms, p]) => `${ms.toFixed(0)} ms ${p}`).join(', ')})`);
      return { max, failures };
    }

    // the same traffic without a lock first: what this machine gives anyway
    await phase('without a lock', lock);
    const { released } = await holdLock(catalogue, lock * 1000);
    console.log(`bench:lock: another process holds an exclusive lock for ${lock} s; ${clients} clients send partner and anonymous traffic`);
    const during = await phase('during the lock', lock);
    const failures = during.failures;
    console.log(`target: no request slower than ${TARGET_MAX_MS} ms during the lock: ${during.max <= TARGET_MAX_MS ? 'met' : 'missed'}`);
    const releasedAt = await released;

    let stored = storedRequests(catalogue, app.appId);
    while (stored < counted && performance.now() - releasedAt < 30_000) {
      await new Promise((r) => setTimeout(r, 100));
      stored = storedRequests(catalogue, app.appId);
    }
    const delay = (performance.now() - releasedAt) / 1000;
    console.log(`usage: ${counted} keyed requests counted, ${stored} stored ${stored === counted ? `— all of them, ${delay.toFixed(1)} s after the release` : `after ${delay.toFixed(1)} s — some missing`}`);
    if (stored !== counted || failures > 0) process.exitCode = 1;
  } finally {
    server?.kill('SIGTERM');
    agent.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
});
