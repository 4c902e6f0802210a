// npm run bench:mix -- [--seconds S] [--runs R] [--lists-only] [--first N]: the long tail against
// nginx, on the snapshot in DIST_DIR (built from CATALOGUE_DB; e.g. pyvideo-100k, docs/performance.md).
// 5,000 URLs: 2,000 offset-paged list pages with filters and sorts (not prerendered: the handlers
// answer them), 2,000 video pages and 980 comment pages (prerendered), 20 channel list pages; with
// --lists-only, the 2,000 list pages alone. Our server starts fresh, pinned to core 0, and serves R
// runs of wrk -t1 -c50 (core 1, a random URL of the list per request); then the same bodies, fetched
// from our server, are written to files and nginx serves them for R runs. Last, the latency of N
// (default 1,000) list pages never asked before, one at a time, identity and with br accepted, and,
// as the floor they include, as many list bodies of the mix fetched from nginx the same way.
// Each run also prints requests per CPU second of the server's processes: on a shared machine the
// server's share of core 0 varies from run to run, its cost per request much less.
// With --cpu-prof DIR the server writes a V8 CPU profile of its whole run into DIR (where the mix's
// time goes: docs/performance.md, "Long tail: every query on the fast path").
// Needs nginx and wrk (apt-get install -y nginx-light wrk).
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadConfig } from '../src/config.ts';
import { layoutOf, MANIFEST_FILE } from '../src/snapshot/layout.ts';
import { readManifestBaseUrl } from '../src/snapshot/manifest.ts';
import { runCommand, UsageError } from './cli.ts';
import { mixUrls } from './bench/mix-urls.ts';
import { freePort, median, need, positive, waitFor } from './bench/serving.ts';
import { memoryOfTree, processTree, startScript } from './bench/latency-probe.ts';

/**
 * Waits (up to 10 minutes: a 100,000-video snapshot on a busy machine loads in a minute or more)
 * for the first answer of a query the handlers answer: prerendered pages are served before the
 * model is loaded, and a list page asked meanwhile is a 503 that would fail the run.
 */
async function waitUntilServing(port: number, server: ReturnType<typeof spawn>): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/v1/videos?limit=1&offset=1`)).ok) return;
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the server gave no answer in 10 minutes');
}

/** CPU seconds (user + system) used so far by the processes `pids` and their children's threads. */
function cpuSeconds(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of proc(5))
  }
  return ticks / 100; // USER_HZ
}

/** nginx's master and worker processes, from its pid file. */
function nginxPids(prefix: string): number[] {
  const master = Number(readFileSync(join(prefix, 'nginx.pid'), 'utf8').trim());
  const children = readFileSync(`/proc/${master}/task/${master}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  return [master, ...children];
}

/**
 * A wrk run (`wrk` below) with the CPU the server's processes used meanwhile: requests per CPU
 * second is what a loaded machine changes least (the server's share of core 0 varies, its cost
 * per request much less). Except in a fresh server's first run: there it also depends on how many
 * requests the run got in, since the ~2,000 first answers of list pages cost the same whatever
 * the run's count; hence the run's requests and CPU seconds are printed too.
 */
function measuredRun(port: number, urls: string, seconds: number, pids: () => number[]): { rate: number; errors: string; perCpuSecond: number; spent: string } {
  const before = cpuSeconds(pids());
  const run = wrk(port, urls, seconds);
  const cpu = cpuSeconds(pids()) - before;
  return { ...run, perCpuSecond: cpu > 0 ? run.requests / cpu : Number.NaN, spent: `${run.requests} requests in ${cpu.toFixed(1)} CPU s` };
}

/** Requests/s of wrk (-t1 -c50, on core 1) over the paths in `urls`, its request count and socket errors (timeouts under load are reported, not fatal); throws on any non-2xx answer. */
function wrk(port: number, urls: string, seconds: number): { rate: number; requests: number; errors: string } {
  const out = execFileSync('taskset', ['-c', '1', 'wrk', '-t1', '-c50', `-d${seconds}s`, '-s', resolve('scripts/bench/random-urls.lua'), `http://127.0.0.1:${port}`],
    { env: { ...process.env, URLS: urls }, encoding: 'utf8' });
  const match = /Requests\/sec:\s+([\d.]+)/.exec(out);
  if (!match || /Non-2xx/.test(out)) throw new Error(`wrk run failed or saw errors:\n${out}`);
  const errors = /Socket errors: (.*)/.exec(out)?.[1];
  return { rate: Number(match[1]), requests: Number(/(\d+) requests in/.exec(out)?.[1] ?? 0), errors: errors === undefined ? '' : `; socket errors: ${errors}` };
}

const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');

/** VmRSS and VmHWM (peak) of the server: npm start's supervisor and its serving processes, in MB. */
function memoryOf(pid: number): string {
  const { now, peak } = memoryOfTree(pid);
  return `RSS ${now.toFixed(0)} MB (peak ${peak.toFixed(0)} MB)`;
}

/** GETs each path once, one at a time on one connection: each answer's status, body and time. */
async function fetchEach(port: number, paths: readonly string[], headers: Record<string, string> = {}) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const answers: { path: string; status: number; body: Buffer; ms: number }[] = [];
  for (const path of paths) {
    const started = performance.now();
    answers.push(await new Promise((resolve, reject) => {
      get({ host: '127.0.0.1', port, path, agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ path, status: res.statusCode ?? 0, body: Buffer.concat(chunks), ms: performance.now() - started }));
      }).on('error', reject);
    }));
  }
  agent.destroy();
  return answers;
}

function percentiles(ms: number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!.toFixed(2);
  return `p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms`;
}

const BENCH_MIX_COMMAND = {
  run: 'npm run bench:mix',
  about: 'Serves the snapshot in DIST_DIR (from CATALOGUE_DB) fresh, pinned to core 0, for R runs of wrk -t1 -c50 over 5,000 URLs (2,000 offset-paged list pages, 2,000 videos, 980 comment pages, 20 channel lists), then nginx serving the same bodies from files; prints req/s of each run and the ratio, then the latency of N list pages never asked before. Needs nginx and wrk.',
  options: {
    seconds: { type: 'string', value: 'S', help: 'length of each run (default 10)' },
    runs: { type: 'string', value: 'R', help: 'runs of each side (default 3)' },
    first: { type: 'string', value: 'N', help: 'list pages never asked before, timed one at a time (default 1000)' },
    'lists-only': { type: 'boolean', help: 'the 2,000 list pages alone' },
    'cpu-prof': { type: 'string', value: 'DIR', help: 'write a CPU profile of the server (node --cpu-prof) into DIR' },
  },
} as const;

await runCommand('bench:mix', BENCH_MIX_COMMAND, async ({ values }) => {
  need(['nginx', 'wrk', 'taskset'], 'nginx-light wrk util-linux');
  const seconds = positive('seconds', values.seconds, 10);
  const runs = positive('runs', values.runs, 3);
  const first = positive('first', values.first, 1000);
  const listsOnly = values['lists-only'] === true;
  const config = loadConfig();
  const current = layoutOf(config.distDir).current;
  const manifestFile = join(current, MANIFEST_FILE);
  const baseUrl = readManifestBaseUrl(manifestFile);
  if (baseUrl === undefined) throw new UsageError(`no snapshot in ${config.distDir}: build one with npm run build`);

  const { urls, firsts } = mixUrls(manifestFile, listsOnly, first);

  const dir = mkdtempSync(join(tmpdir(), 'vpa-bench-mix-'));
  chmodSync(dir, 0o755); // nginx workers run as an unprivileged user
  const prefix = join(dir, 'nginx');
  const [ourPort, nginxPort] = [await freePort(), await freePort()];
  let server: ReturnType<typeof spawn> | undefined;
  try {
    writeFileSync(join(dir, 'ours.txt'), urls.join('\n') + '\n');
    console.log(`${urls.length} URLs (${listsOnly ? '2,000 list pages' : '2,000 list pages, 2,000 videos, 980 comment pages, 20 channel lists'}) of the snapshot in ${config.distDir}`);
    console.log(`wrk -t1 -c50 -d${seconds}s on core 1, each server on core 0; load average before: ${load()}`);
    const started = performance.now();
    const profile = typeof values['cpu-prof'] === 'string' ? ['--cpu-prof', `--cpu-prof-dir=${resolve(values['cpu-prof'])}`] : [];
    // the server as npm start runs it (package.json's start script: its environment and node flags)
    const start = startScript();
    server = spawn('taskset', ['-c', '0', process.execPath, ...profile, ...start.args], {
      // one load generator from one address: a lane budget would answer 429 after 600 requests
      env: { ...process.env, ...start.env, PORT: String(ourPort), HOST: '127.0.0.1', PUBLIC_BASE_URL: baseUrl, RATE_LIMIT_PUBLIC: '10000000' },
      stdio: 'ignore',
    });
    await waitUntilServing(ourPort, server);
    console.log(`ours: first answer ${((performance.now() - started) / 1000).toFixed(1)} s after start; ${memoryOf(server.pid!)}`);
    const ours: number[] = [];
    const oursPerCpu: number[] = [];
    for (let run = 1; run <= runs; run++) {
      const before = load();
      const { rate, errors, perCpuSecond, spent } = measuredRun(ourPort, join(dir, 'ours.txt'), seconds, () => processTree(server!.pid!));
      ours.push(rate);
      oursPerCpu.push(perCpuSecond);
      console.log(`ours run ${run}${run === 1 ? ' (fresh)' : ''}: ${rate.toFixed(0)} req/s, ${perCpuSecond.toFixed(0)} requests per CPU second (${spent}; load before ${before})${errors}; ${memoryOf(server.pid!)}`);
    }

    // The same bodies as files for nginx, as our server sends them.
    const root = join(dir, 'root');
    mkdirSync(join(root, 'm'), { recursive: true });
    const answers = await fetchEach(ourPort, urls);
    const failed = answers.filter((a) => a.status !== 200);
    if (failed.length > 0) throw new Error(`${failed.length} URLs failed, e.g. ${failed[0]!.path}: ${failed[0]!.status}`);
    answers.forEach((a, i) => writeFileSync(join(root, 'm', `${i}.json`), a.body));
    writeFileSync(join(dir, 'nginx.txt'), urls.map((_, i) => `/m/${i}.json`).join('\n') + '\n');
    mkdirSync(join(prefix, 'tmp'), { recursive: true });
    writeFileSync(join(prefix, 'nginx.conf'), `worker_processes 1; daemon on; pid ${prefix}/nginx.pid; error_log ${prefix}/error.log warn;
events { worker_connections 1024; }
http { access_log off; sendfile on; tcp_nopush on; tcp_nodelay on; keepalive_timeout 65; keepalive_requests 100000;
  types { application/json json; } default_type application/octet-stream; open_file_cache max=200000 inactive=60s;
  client_body_temp_path ${prefix}/tmp; proxy_temp_path ${prefix}/tmp; fastcgi_temp_path ${prefix}/tmp; uwsgi_temp_path ${prefix}/tmp; scgi_temp_path ${prefix}/tmp;
  server { listen 127.0.0.1:${nginxPort}; root ${root}; add_header Access-Control-Allow-Origin *; } }
`);
    execFileSync('taskset', ['-c', '0', 'nginx', '-p', prefix, '-c', join(prefix, 'nginx.conf')]);
    await waitFor(`http://127.0.0.1:${nginxPort}/m/0.json`);
    const nginx: number[] = [];
    const nginxPerCpu: number[] = [];
    for (let run = 1; run <= runs; run++) {
      const before = load();
      const { rate, errors, perCpuSecond, spent } = measuredRun(nginxPort, join(dir, 'nginx.txt'), seconds, () => nginxPids(prefix));
      nginx.push(rate);
      nginxPerCpu.push(perCpuSecond);
      console.log(`nginx run ${run}: ${rate.toFixed(0)} req/s, ${perCpuSecond.toFixed(0)} requests per CPU second (${spent}; load before ${before})${errors}`);
    }
    const base = median(nginx);
    const cpuBase = median(nginxPerCpu);
    console.log(`ours/nginx: first run ${(ours[0]! / base).toFixed(2)}, runs ${ours.map((o) => (o / base).toFixed(2)).join(' / ')} (against nginx's median ${base.toFixed(0)} req/s; target: first run at least 0.5)`);
    console.log(`ours/nginx per CPU second: first run ${(oursPerCpu[0]! / cpuBase).toFixed(2)}, runs ${oursPerCpu.map((o) => (o / cpuBase).toFixed(2)).join(' / ')} (against nginx's median ${cpuBase.toFixed(0)} requests per CPU second)`);

    // First requests: list pages never asked before, one at a time.
    const half = Math.ceil(firsts.length / 2);
    const identity = await fetchEach(ourPort, firsts.slice(0, half));
    const br = await fetchEach(ourPort, firsts.slice(half), { 'accept-encoding': 'br, gzip' });
    console.log(`first requests of ${half} list pages, identity: ${percentiles(identity.map((a) => a.ms))} (load ${load()})`);
    console.log(`first requests of ${firsts.length - half} list pages, br accepted: ${percentiles(br.map((a) => a.ms))}`);
    // The same client, the same way, against nginx serving list bodies of the mix from files: what
    // the machine and this client add to a request of that size, which a first answer's p99 includes
    // (on a shared machine, mostly the server waiting for its core: docs/performance.md, "The
    // serving process's memory and its first list answers").
    const listBodies = urls.flatMap((path, i) => (/^\/v1\/(videos\?|channels\/[^/]+\/videos|playlists\/)/.test(path) ? [`/m/${i}.json`] : [])).slice(0, half);
    const floor = await fetchEach(nginxPort, listBodies);
    console.log(`the same client against nginx, ${floor.length} list bodies one at a time (the floor): ${percentiles(floor.map((a) => a.ms))} (load ${load()})`);
    console.log(`ours at the end: ${memoryOf(server.pid!)}`);
  } finally {
    server?.kill('SIGTERM');
    try {
      execFileSync('nginx', ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-s', 'quit'], { stdio: 'ignore' });
    } catch { /* nginx was not started */ }
    rmSync(dir, { recursive: true, force: true });
  }
});
