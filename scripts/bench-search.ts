// npm run bench:search -- [--videos N] [--dir DIR] [--seconds S] [--clients C]: search latency at C
// concurrent clients (default 20, each sending its next query as soon as the last is answered)
// against a real server on a seeded catalogue (default 100,000 videos), with the server pinned to
// core 0 and this load generator to core 1. Two streams: a repeating one (5,000 distinct queries,
// Zipf-distributed, as real query logs are) and one where every query is new (no cache can help).
// Mix: 70% /v1/search, 20% /v1/videos?q=, 10% /v1/search?type=all. Prints p50/p90/p99/max, req/s,
// the server's CPU time a request (user + system, which a busy machine inflates far less than
// latency) and its RSS (now and peak), against the targets: p99 under 25 ms, RSS under 1 GB (a
// catalogue of half a million videos or more: a million's, 50 ms and 4 GB).
// Clients are bench/light-client.ts (BENCH_CLIENT=node-http: node:http's client, as before
// 2026-11-26's last iteration); BENCH_POOL sets the repeating stream's distinct queries,
// BENCH_SLOWEST prints each stream's slowest requests, BENCH_STREAMS=new or repeating runs
// one stream alone, BENCH_SERVER_FLAGS and BENCH_SERVER_LOG
// the server's node flags and where its output goes, BENCH_PORT the port it listens on (default
// 4610; the snapshot is built for http://127.0.0.1:4610 whatever the port, or for PUBLIC_BASE_URL
// when it is set: a snapshot built for another base URL is refused by the server).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { seedCatalogue } from '../src/catalogue/seed-catalogue.ts';
import { countVideos } from '../src/snapshot/build-heap.ts';
import { runLightClient, type Answered } from './bench/light-client.ts';
import { searchQueries } from './bench/search-queries.ts';
import { waitFor } from './bench/serving.ts';
import { memoryOfTree, processTree, startScript } from './bench/latency-probe.ts';
import { loadavg, tmpdir } from 'node:os';
import { wholeNumber } from '../src/cli/args.ts';
import { readCommandLine, runCli } from './cli.ts';

/** The targets by the catalogue's size: at 100,000 videos, and a million's (issue 12) from half a million up. */
const targetFor = (videos: number) => (videos >= 500_000 ? { p99Ms: 50, rssMb: 4096 } : { p99Ms: 25, rssMb: 1024 });
/** where the server listens (BENCH_PORT: so that two benchmarks on one machine need not collide) */
const PORT = Number(process.env['BENCH_PORT'] ?? 4610);
/** the snapshot's base URL, whatever the port: a snapshot built by one run serves the next */
const BASE_URL = process.env['PUBLIC_BASE_URL'] ?? 'http://127.0.0.1:4610';

const BENCH_SEARCH_COMMAND = {
  run: 'npm run bench:search',
  about: 'Search latency at C concurrent clients against a real server on a seeded catalogue (server on core 0, load on core 1): a repeating stream and one where every query is new; prints p50/p90/p99/max, req/s and the server\'s RSS against the targets.',
  options: {
    videos: { type: 'string', value: 'N', help: 'videos in the seeded catalogue (default 100000)' },
    dir: { type: 'string', value: 'DIR', help: 'keep the catalogue and snapshot in DIR and reuse them next time (default: a temporary folder, removed)' },
    seconds: { type: 'string', value: 'S', help: 'length of each stream (default 20)' },
    clients: { type: 'string', value: 'C', help: 'concurrent closed-loop clients (default 20)' },
  },
  notes: ['environment: BENCH_CLIENT=node-http, BENCH_POOL, BENCH_SLOWEST, BENCH_STREAMS, BENCH_SERVER_FLAGS, BENCH_SERVER_LOG, BENCH_PORT, PUBLIC_BASE_URL (the snapshot\'s; see the head of scripts/bench-search.ts).'],
} as const;

// read before anything runs, so --help and a mistyped option never start a benchmark
const { values } = readCommandLine('bench:search', BENCH_SEARCH_COMMAND);

const hasTaskset = spawnSync('taskset', ['--version']).status === 0;
if (hasTaskset && !process.env['BENCH_PINNED']) {
  // Re-run this script on core 1; the server gets core 0.
  const run = spawnSync('taskset', ['-c', '1', process.execPath, ...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env: { ...process.env, BENCH_PINNED: '1' } });
  process.exit(run.status ?? 1);
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });
function get(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: PORT, path, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

const target = (q: string, i: number) =>
  i % 10 < 7 ? `/v1/search?q=${encodeURIComponent(q)}` : i % 10 < 9 ? `/v1/videos?q=${encodeURIComponent(q)}` : `/v1/search?type=all&q=${encodeURIComponent(q)}`;

// BENCH_CLIENT=node-http measures with node:http's client, as runs before 2026-11-26's last did
const nodeHttp = process.env['BENCH_CLIENT'] === 'node-http';

async function load(next: () => string, clients: number, seconds: number) {
  const latencies = new Float64Array(Math.ceil(seconds * 100_000));
  let count = 0;
  const slowest: [number, string][] = [];
  let failures = 0;
  const until = performance.now() + seconds * 1000;
  const answered = ({ path, status, ms }: Answered) => {
    if (count < latencies.length) latencies[count++] = ms;
    if (slowest.length < 5 || ms > slowest[4]![0]) {
      slowest.push([ms, path]);
      slowest.sort((a, b) => b[0] - a[0]);
      slowest.length = Math.min(slowest.length, 5);
    }
    if (status !== 200) failures++;
  };
  await Promise.all(Array.from({ length: clients }, async () => {
    if (!nodeHttp) return runLightClient(PORT, next, until, answered);
    while (performance.now() < until) {
      const start = performance.now();
      const path = next();
      const status = await get(path);
      answered({ path, status, ms: performance.now() - start });
    }
  }));
  const sorted = latencies.subarray(0, count).sort();
  const at = (p: number) => sorted[Math.min(count - 1, Math.floor(count * p))]!;
  return { slowest, requests: count, failures, rps: count / seconds, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: sorted[count - 1]! };
}

/**
 * The CPU time (user + system, ms) the server's processes have used: per request, the server's cost
 * of a stream, which a machine shared with other work inflates far less than latency (the clock
 * ticks of /proc/PID/stat, 10 ms each: a stream of thousands of requests makes them fine enough).
 */
function cpuOfTree(pid: number): number {
  let ticks = 0;
  for (const p of processTree(pid)) {
    try {
      // the fields after the command's closing parenthesis: utime and stime are the 12th and 13th
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch { /* gone */ }
  }
  return ticks * 10;
}

/** the server's memory: npm start's supervisor and its serving processes (docs/reliability.md, "Swaps between processes") */
const rssOf = (pid: number): { now: number; peak: number } => memoryOfTree(pid);

await runCli('bench:search', async () => {
  const videos = wholeNumber('videos', values.videos, { min: 1, max: 10_000_000, fallback: 100_000 });
  const seconds = wholeNumber('seconds', values.seconds, { min: 1, max: 86_400, fallback: 20 });
  const clients = wholeNumber('clients', values.clients, { min: 1, max: 10_000, fallback: 20 });
  const keep = values.dir !== undefined;
  const dir = values.dir ?? mkdtempSync(join(tmpdir(), 'vpa-bench-search-'));
  mkdirSync(dir, { recursive: true });
  const catalogue = join(dir, 'catalogue.db');
  const env = {
    ...process.env, CATALOGUE_DB: catalogue, DIST_DIR: join(dir, 'dist'), PORT: String(PORT), HOST: '127.0.0.1',
    PUBLIC_BASE_URL: BASE_URL, RATE_LIMIT_PUBLIC: '10000000',
  };
  try {
    if (!existsSync(catalogue)) {
      console.log(`bench:search: seeding ${videos} videos in ${dir}`);
      seedCatalogue(catalogue, { videos, seed: 42 });
    }
    if (!existsSync(join(dir, 'dist', 'snapshots', 'current'))) {
      console.log('bench:search: building the snapshot');
      execFileSync(process.execPath, ['scripts/build.ts'], { env, stdio: 'ignore' });
    }
    // the server as npm start runs it (package.json's start script: its environment and node
    // flags), unless BENCH_SERVER_FLAGS gives other node flags
    const start = startScript();
    const flags = process.env['BENCH_SERVER_FLAGS'];
    const args = flags === undefined ? start.args : [...flags.split(' ').filter(Boolean), 'scripts/start.mjs'];
    const server = spawn(hasTaskset ? 'taskset' : process.execPath, [...(hasTaskset ? ['-c', '0', process.execPath] : []), ...args], { env: { ...env, ...start.env }, stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((ready, fail) => {
        let out = '';
        server.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('listening on')) {
            server.stdout.removeAllListeners('data');
            // keep draining, so the server never blocks on a full pipe (into BENCH_SERVER_LOG if set)
            const log = process.env['BENCH_SERVER_LOG'];
            if (log) server.stdout.pipe(createWriteStream(log));
            else server.stdout.resume();
            ready();
          }
        });
        server.once('exit', (code) => fail(new Error(`the server exited with ${code} before listening`)));
      });
      // npm start answers prerendered pages at once and other queries 503 until the model and the
      // search index are loaded (docs/reliability.md): the streams start once search answers
      await waitFor(`http://127.0.0.1:${PORT}/v1/search?q=talk`, 600);
      const pid = server.pid!; // taskset execs the command in its own process
      const loaded = rssOf(pid);
      const pool = searchQueries(catalogue, Number(process.env['BENCH_POOL'] ?? 5000));
      const distinct = searchQueries(catalogue, 400_000, 11);
      // what the catalogue holds, which --videos only says when it seeds one (a --dir of another size)
      const held = countVideos(catalogue) ?? videos;
      const TARGET = targetFor(held);
      console.log(`bench:search: ${held} videos, ${clients} clients, ${seconds} s a stream; sample queries: ${pool.slice(0, 8).map((q) => JSON.stringify(q)).join(', ')}`);
      // Zipf over the pool: rank k drawn with probability ∝ 1/k
      const weights = pool.map((_, k) => 1 / (k + 1));
      const cumulative: number[] = [];
      weights.reduce((sum, w, k) => (cumulative[k] = sum + w), 0);
      let seed = 1;
      const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
      const zipf = () => {
        const x = rnd() * cumulative.at(-1)!;
        let lo = 0;
        let hi = cumulative.length - 1;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (cumulative[mid]! < x) lo = mid + 1;
          else hi = mid;
        }
        return pool[lo]!;
      };
      let n = 0;
      await load(() => target(zipf(), n++), clients, 3); // warm-up
      const streams = [
        ['repeating (Zipf over 5,000 queries)', () => target(zipf(), n++)],
        ['every query new', () => target(distinct[n % distinct.length]!, n++)],
      ] as const;
      // BENCH_STREAMS=new (or repeating) runs that stream alone: a profile of the server then holds only it
      const only = process.env['BENCH_STREAMS'];
      for (const [label, next] of streams.filter(([label]) => !only || label.includes(only))) {
        const cpuBefore = cpuOfTree(server.pid!);
        const r = await load(next, clients, seconds);
        const cpuMs = cpuOfTree(server.pid!) - cpuBefore;
        if (process.env['BENCH_SLOWEST']) console.log(r.slowest.map(([t, p]) => `  ${t.toFixed(0)} ms ${decodeURIComponent(p)}`).join('\n'));
        console.log(`${label}: ${r.requests} requests, ${r.rps.toFixed(0)} req/s, ${r.failures} failed; latency p50 ${r.p50.toFixed(1)} ms, p90 ${r.p90.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, max ${r.max.toFixed(1)} ms — p99 target ${TARGET.p99Ms} ms ${r.p99 <= TARGET.p99Ms ? 'met' : 'missed'}; server CPU ${(cpuMs / r.requests).toFixed(3)} ms a request (load average ${loadavg()[0]!.toFixed(1)})`);
      }
      const rss = rssOf(pid);
      console.log(`server RSS: ${rss.now.toFixed(0)} MB now, ${rss.peak.toFixed(0)} MB peak (${loaded.now.toFixed(0)} MB once loaded, ${loaded.peak.toFixed(0)} MB peak while loading) — target ${TARGET.rssMb} MB ${rss.peak <= TARGET.rssMb ? 'met' : 'missed'}`);
    } finally {
      server.kill('SIGTERM');
    }
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
});
