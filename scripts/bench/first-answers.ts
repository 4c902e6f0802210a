// npx node scripts/bench/first-answers.ts [--app DIR] [--warm S] [--runs R] [--idle S] [--count N] [--gc]
// [--by-run] [--renice-gc] [--node-flags=FLAGS] [--log FILE] [--port P] [--slowest K]: what bench:mix's
// first requests (list pages never asked before, one at a time, half identity, half with br
// accepted) are made of, answer by answer. Starts the server of the worktree DIR (default: this one;
// its bundle, as `npm start` runs it, with FLAGS added) on the snapshot in DIST_DIR, pinned to core 0;
// with --warm S, first R (default 1) runs of S seconds of wrk -t1 -c50 over bench:mix's 5,000 URLs
// (core 1) and one fetch of each, then S seconds idle (--idle), so that the heap and the answer cache
// are where bench:mix leaves them; then the N (default 1,000) first requests. Prints the percentiles
// of each half; the serving process's CPU per first answer; its main thread's time on a core and its
// wait for one, answer by answer (/proc/PID/task/PID/schedstat read before and after each request:
// the server's work apart from the machine's); the slowest K (default 20) answers (by their time on a
// core with --by-run) with their size and encoding; with --gc the collections in the serving process
// (a PerformanceObserver --import'ed through NODE_OPTIONS) that overlapped them. --renice-gc puts V8's
// worker threads of the serving process at nice 19 (tried: docs/performance.md). The answers are
// written as JSON to the temporary directory. docs/performance.md, "The first list answers,
// thirteenth round".
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, openSync, statSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { loadavg, setPriority, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config.ts';
import { layoutOf, MANIFEST_FILE } from '../../src/snapshot/layout.ts';
import { readManifestBaseUrl } from '../../src/snapshot/manifest.ts';
import { mixUrls } from './mix-urls.ts';
import { processTree, startScript } from './latency-probe.ts';
import { freePort } from './serving.ts';

const { values } = parseArgs({
  options: {
    app: { type: 'string' }, warm: { type: 'string' }, runs: { type: 'string' }, idle: { type: 'string' }, count: { type: 'string' }, gc: { type: 'boolean' },
    port: { type: 'string' }, slowest: { type: 'string' }, 'node-flags': { type: 'string' }, 'by-run': { type: 'boolean' }, 'renice-gc': { type: 'boolean' }, log: { type: 'string' },
  },
});
const app = resolve(values.app ?? '.');
const warm = Number(values.warm ?? 0);
const runs = Number(values.runs ?? 1);
const idle = Number(values.idle ?? 0);
const count = Number(values.count ?? 1000);
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');

const config = loadConfig();
const manifestFile = join(layoutOf(config.distDir).current, MANIFEST_FILE);
const baseUrl = readManifestBaseUrl(manifestFile);
if (baseUrl === undefined) throw new Error(`no snapshot in ${config.distDir}`);
const { urls, firsts } = mixUrls(manifestFile, false, count);

const dir = mkdtempSync(join(tmpdir(), 'vpa-first-answers-'));
const probe = join(dir, 'gc-probe.mjs');
// each process of the server writes its collections (epoch ms, duration, kind) to its own file
writeFileSync(probe, `import { PerformanceObserver, performance } from 'node:perf_hooks';
import { appendFileSync } from 'node:fs';
const file = ${JSON.stringify(dir)} + '/gc.' + process.pid;
let lines = '';
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) lines += (performance.timeOrigin + e.startTime).toFixed(3) + ' ' + e.duration.toFixed(3) + ' ' + e.detail.kind + '\\n';
  if (lines.length > 4096) { appendFileSync(file, lines); lines = ''; }
}).observe({ entryTypes: ['gc'] });
setInterval(() => { if (lines) { appendFileSync(file, lines); lines = ''; } }, 200).unref();
`);
const port = Number(values.port ?? (await freePort()));
const start = startScript();
const flags = values['node-flags']?.split(' ').filter(Boolean) ?? [];
const server = spawn('taskset', ['-c', '0', process.execPath, ...flags, ...start.args], {
  cwd: app,
  env: { ...process.env, ...start.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_BASE_URL: baseUrl, RATE_LIMIT_PUBLIC: '10000000',
    ...(values.gc && { NODE_OPTIONS: `--import ${probe}` }) },
  stdio: ['ignore', values.log ? openSync(values.log, 'w') : 'ignore', values.log ? openSync(values.log, 'a') : 'ignore'],
});

interface Timed { path: string; encoding: string; status: number; bytes: number; ms: number; from: number; to: number; run: number; wait: number }

/**
 * The serving process's main thread, /proc/PID/task/PID/schedstat: ns on a core and ns waiting for
 * one. Read before and after each request, it splits a first answer's time into the server's work
 * (GC pauses included) and its wait for core 0, which other processes share on a busy machine.
 */
let servingPid = 0;
const schedstat = (): [number, number] => {
  const [run, wait] = readFileSync(`/proc/${servingPid}/task/${servingPid}/schedstat`, 'utf8').split(' ').map(Number);
  return [run! / 1e6, wait! / 1e6];
};

async function fetchEach(paths: readonly string[], headers: Record<string, string> = {}): Promise<Timed[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const answers: Timed[] = [];
  for (const path of paths) {
    const [run0, wait0] = servingPid ? schedstat() : [0, 0];
    const from = performance.timeOrigin + performance.now();
    const started = performance.now();
    answers.push(await new Promise((done, fail) => {
      get({ host: '127.0.0.1', port, path, agent, headers }, (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => { bytes += c.length; });
        res.on('end', () => {
          const ms = performance.now() - started;
          const [run1, wait1] = servingPid ? schedstat() : [0, 0];
          done({ path, encoding: String(res.headers['content-encoding'] ?? 'identity'), status: res.statusCode ?? 0, bytes, ms, from, to: performance.timeOrigin + performance.now(), run: run1 - run0, wait: wait1 - wait0 });
        });
      }).on('error', fail);
    }));
  }
  agent.destroy();
  return answers;
}

/** CPU seconds of one thread (/proc/PID/task/TID/stat: utime + stime). */
const threadCpu = (pid: number, tid = pid): number => {
  const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const processCpu = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

function percentiles(ms: number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!.toFixed(2);
  return `p50 ${at(0.5)}, p90 ${at(0.9)}, p99 ${at(0.99)}, max ${at(1)} ms`;
}

try {
  for (let i = 0; ; i++) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/v1/videos?limit=1&offset=1`)).ok) break;
    } catch { /* not up yet */ }
    if (i > 1200) throw new Error('no answer in 10 minutes');
    await new Promise((r) => setTimeout(r, 500));
  }
  // the serving process: the one in the tree that uses the most CPU by now (it loaded the model)
  const tree = processTree(server.pid!);
  const serving = tree.reduce((a, b) => (processCpu(b) > processCpu(a) ? b : a));
  servingPid = serving;
  if (values['renice-gc']) {
    // V8's platform workers (concurrent marking, parallel scavenges, compiles) at the lowest priority
    const workers = readdirSync(`/proc/${serving}/task`).filter((tid) => readFileSync(`/proc/${serving}/task/${tid}/comm`, 'utf8').trim() === 'V8Worker');
    for (const tid of workers) setPriority(Number(tid), 19);
    console.log(`niced to 19: ${workers.length} V8Worker threads`);
  }
  console.log(`${values.app ?? '.'}: serving process ${serving}; load ${load()}`);
  if (warm > 0) {
    writeFileSync(join(dir, 'urls.txt'), urls.join('\n') + '\n');
    for (let run = 0; run < runs; run++) {
      execFileSync('taskset', ['-c', '1', 'wrk', '-t1', '-c50', `-d${warm}s`, '-s', resolve('scripts/bench/random-urls.lua'), `http://127.0.0.1:${port}`],
        { env: { ...process.env, URLS: join(dir, 'urls.txt') }, encoding: 'utf8' });
    }
    await fetchEach(urls);
    console.log(`warmed: ${runs} × ${warm} s of wrk and one fetch of each of ${urls.length} URLs; load ${load()}`);
  }
  // bench:mix's nginx runs leave the server idle for about 30 s before its first requests
  if (idle > 0) await new Promise((r) => setTimeout(r, idle * 1000));
  const half = Math.ceil(firsts.length / 2);
  const logSize = () => (values.log ? statSync(values.log).size : 0);
  const logAt = logSize();
  const cpu0 = [threadCpu(serving), processCpu(serving)];
  const t0 = performance.now();
  const identity = await fetchEach(firsts.slice(0, half));
  const cpu1 = [threadCpu(serving), processCpu(serving)];
  const br = await fetchEach(firsts.slice(half), { 'accept-encoding': 'br, gzip' });
  const cpu2 = [threadCpu(serving), processCpu(serving)];
  const wall = performance.now() - t0;
  if (values.log) console.log(`the server's log during the firsts: bytes ${logAt}–${logSize()} of ${values.log}`);
  console.log(`identity, ${identity.length}: ${percentiles(identity.map((a) => a.ms))}; main thread CPU ${((cpu1[0]! - cpu0[0]!) / identity.length * 1000).toFixed(3)} ms an answer (process ${((cpu1[1]! - cpu0[1]!) / identity.length * 1000).toFixed(3)})`);
  console.log(`br accepted, ${br.length}: ${percentiles(br.map((a) => a.ms))}; main thread CPU ${((cpu2[0]! - cpu1[0]!) / br.length * 1000).toFixed(3)} ms an answer (process ${((cpu2[1]! - cpu1[1]!) / br.length * 1000).toFixed(3)})`);
  const mean = (xs: number[]) => (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(3);
  console.log(`the server's main thread on core per answer (its work, GC included), identity: mean ${mean(identity.map((a) => a.run))}, ${percentiles(identity.map((a) => a.run))}; br: mean ${mean(br.map((a) => a.run))}, ${percentiles(br.map((a) => a.run))}`);
  console.log(`its wait for core 0 per answer, identity: ${percentiles(identity.map((a) => a.wait))}; br: ${percentiles(br.map((a) => a.wait))}`);
  console.log(`all: ${(wall / 1000).toFixed(1)} s; load ${load()}; failed: ${[...identity, ...br].filter((a) => a.status !== 200).length}`);

  const gcs: { at: number; ms: number; kind: number }[] = [];
  if (values.gc) {
    await new Promise((r) => setTimeout(r, 500));
    const file = join(dir, `gc.${serving}`);
    for (const line of readFileSync(file, 'utf8').trim().split('\n')) {
      const [at, ms, kind] = line.split(' ').map(Number);
      gcs.push({ at: at!, ms: ms!, kind: kind! });
    }
    const during = gcs.filter((g) => g.at >= identity[0]!.from && g.at <= br.at(-1)!.to);
    const byKind = new Map<number, number[]>();
    for (const g of during) byKind.set(g.kind, [...(byKind.get(g.kind) ?? []), g.ms]);
    console.log(`collections during the firsts (kind: count, ms in all, longest; 1 minor, 2 major, 4 incremental, 8 weak callbacks): ${[...byKind].map(([k, ms]) => `${k}: ${ms.length}, ${ms.reduce((a, b) => a + b, 0).toFixed(1)}, ${Math.max(...ms).toFixed(1)}`).join('; ')}`);
  }
  const all = [...identity, ...br].sort((a, b) => (values['by-run'] ? b.run - a.run : b.ms - a.ms));
  for (const a of all.slice(0, Number(values.slowest ?? 20))) {
    const overlapping = gcs.filter((g) => g.at + g.ms >= a.from && g.at <= a.to);
    console.log(`${a.ms.toFixed(2)} ms (run ${a.run.toFixed(2)}, wait ${a.wait.toFixed(2)}) ${a.encoding} ${a.bytes} B ${a.path}${overlapping.length ? ` — gc ${overlapping.map((g) => `${g.kind}:${g.ms.toFixed(1)}`).join(' ')}` : ''}`);
  }
  // by size: is the tail made of large bodies?
  const buckets = [0, 5_000, 20_000, 50_000, 100_000, Infinity];
  for (let b = 0; b < buckets.length - 1; b++) {
    const inside = [...identity, ...br].filter((a) => a.bytes >= buckets[b]! && a.bytes < buckets[b + 1]!);
    if (inside.length) console.log(`bodies ${buckets[b]}–${buckets[b + 1]} B: ${inside.length}, ${percentiles(inside.map((a) => a.ms))}`);
  }
  writeFileSync(join(tmpdir(), `first-answers-${process.pid}.json`), JSON.stringify({ identity, br, gcs }));
  console.log(`answers written to ${join(tmpdir(), `first-answers-${process.pid}.json`)}`);
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 300));
  rmSync(dir, { recursive: true, force: true });
}
