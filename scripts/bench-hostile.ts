// npm run bench:hostile -- [--videos N] [--slow N] [--trickle N] [--fuzz N] [--only slow|trickle|cap|fuzz]: the HTTP front under
// hostile clients (docs/reliability.md, "HTTP front"), against `scripts/start.mjs` with the default
// deadlines and limits:
//   1. slow clients: N connections (default 1,000, from 8 loopback addresses) that send a byte a
//      second — heads read by the fast path, heads after an OPTIONS (node:http's), 1 MB POST bodies,
//      and connections that send nothing — while one normal client asks for pages in a loop: when
//      each slow connection was closed, and the normal client's latency before and during;
//   2. trickling: N connections (default 100) with a 7 KB head each, then a byte per timer tick
//      (about a millisecond), each byte its own TCP segment: the server's CPU;
//   3. one address opening 300 connections: how many the cap refuses, each with a problem;
//   4. fuzz: N random malformed heads (default 24,000): answers, drops, 5xx, problems with CORS.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { processTree } from './bench/latency-probe.ts';
import { request, Agent } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedCatalogue } from '../src/catalogue/seed-catalogue.ts';
import { buildSnapshot } from '../src/snapshot/build-snapshot.ts';
import { runCommand, UsageError } from './cli.ts';
import { exchange, malformedRequest, seeded } from './bench/raw-http.ts';
import { freePort, positive, waitFor } from './bench/serving.ts';

const ADDRESSES = 8;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;

/** Asks for `paths` in turn on one keep-alive connection until `until()` is true; the latencies in ms. */
async function normalClient(port: number, paths: readonly string[], until: () => boolean): Promise<{ latencies: number[]; errors: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  let errors = 0;
  for (let i = 0; !until(); i++) {
    const started = performance.now();
    const status = await new Promise<number>((resolve) => {
      const req = request({ host: '127.0.0.1', port, path: paths[i % paths.length], agent, headers: { 'accept-encoding': 'br' } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.setTimeout(10_000, () => req.destroy());
      req.on('error', () => resolve(0));
      req.end();
    });
    latencies.push(performance.now() - started);
    if (status !== 200) errors++;
    await sleep(20);
  }
  agent.destroy();
  return { latencies, errors };
}

const summary = (label: string, { latencies, errors }: { latencies: number[]; errors: number }) => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return `${label}: ${sorted.length} requests, p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${(sorted.at(-1) ?? NaN).toFixed(1)} ms, ${errors} not 200`;
};

/** A slow connection: sends `first` at once, then `rest` a byte every `gapMs`; resolves with ms until the server closed it. */
function slowConnection(port: number, localAddress: string, first: string, rest: string, gapMs: number): Promise<number> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket: Socket = connect({ port, host: '127.0.0.1', localAddress });
    let i = 0;
    let timer: NodeJS.Timeout | undefined;
    const done = () => { clearInterval(timer); socket.destroy(); resolve(performance.now() - started); };
    socket.on('connect', () => {
      if (first) socket.write(first);
      timer = setInterval(() => { if (!socket.destroyed) socket.write(rest[i++ % rest.length]!); }, gapMs);
    });
    socket.on('data', () => {});
    socket.on('end', done);
    socket.on('close', done);
    socket.on('error', done);
  });
}

/** CPU time (user + system) so far of a process and its descendants (npm start's serving processes), in ms. */
function cpuMs(pid: number): number {
  let ms = 0;
  for (const p of processTree(pid)) {
    try {
      const fields = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ms += ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    } catch { /* gone */ }
  }
  return ms;
}

const BENCH_HOSTILE_COMMAND = {
  run: 'npm run bench:hostile',
  about: 'The HTTP front under hostile clients (docs/reliability.md, "HTTP front"): slow connections closed by their deadlines while a normal client is timed, the CPU of byte-at-a-time heads, the per-address connection cap, and fuzzed malformed heads.',
  options: {
    videos: { type: 'string', value: 'N', help: 'videos in the seeded catalogue (default 2000)' },
    slow: { type: 'string', value: 'N', help: 'slow connections (default 1000)' },
    trickle: { type: 'string', value: 'N', help: 'trickling connections (default 100)' },
    fuzz: { type: 'string', value: 'N', help: 'fuzzed malformed heads (default 24000)' },
    only: { type: 'string', value: 'PHASE', help: 'run one phase: slow, trickle, cap or fuzz' },
  },
} as const;

await runCommand('bench:hostile', BENCH_HOSTILE_COMMAND, async ({ values }) => {
  const videos = positive('videos', values.videos, 2000);
  const slow = positive('slow', values.slow, 1000);
  const trickle = positive('trickle', values.trickle, 100);
  const fuzz = positive('fuzz', values.fuzz, 24_000);
  const only = values.only;
  if (only !== undefined && !['slow', 'trickle', 'cap', 'fuzz'].includes(only)) throw new UsageError('--only takes slow, trickle, cap or fuzz');
  const run = (phase: string) => only === undefined || only === phase;
  const dir = mkdtempSync(join(tmpdir(), 'vpa-bench-hostile-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let server: ReturnType<typeof spawn> | undefined;
  try {
    const catalogue = join(dir, 'catalogue.db');
    const distDir = join(dir, 'dist');
    seedCatalogue(catalogue, { videos, seed: 42 });
    await buildSnapshot({ catalogue, distDir, baseUrl: base });
    server = spawn(process.execPath, ['scripts/start.mjs'], {
      // the normal client alone comes from 127.0.0.1: lane budgets are not what is measured here
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_BASE_URL: base, CATALOGUE_DB: catalogue, DIST_DIR: distDir, RATE_LIMIT_PUBLIC: '10000000' },
      stdio: 'ignore',
    });
    await waitFor(`${base}/v1/health`);
    const pid = server.pid!;
    const pages = ['/v1/categories', '/v1/videos?limit=20&sort=latest', '/v1/videos?limit=5'];
    console.log(`server: scripts/start.mjs with the default deadlines and limits, ${videos}-video snapshot; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);

    if (run('slow')) {
      // 1. slow clients
      let attacking = true;
      const baseline = await normalClient(port, pages, (() => { const end = performance.now() + 5000; return () => performance.now() > end; })());
      console.log(summary('normal client, before', baseline));
      const kinds = [
        { name: 'slow head (fast path)', first: '', rest: 'GET /v1/categories HTTP/1.1\r\nHost: x\r\nX: ' + 'a'.repeat(4000) },
        { name: 'slow head after OPTIONS (node:http)', first: 'OPTIONS / HTTP/1.1\r\nHost: x\r\n\r\n', rest: 'GET /v1/categories HTTP/1.1\r\nHost: x\r\nX: ' + 'a'.repeat(4000) },
        { name: 'slow 1 MB POST body', first: 'POST /v1/categories HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n', rest: 'a' },
        { name: 'silent', first: '', rest: '' },
      ];
      const started = performance.now();
      const closings = Array.from({ length: slow }, (_, i) => {
        const kind = kinds[i % kinds.length]!;
        const closed = kind.rest === ''
          ? slowConnection(port, `127.0.0.${2 + (i % ADDRESSES)}`, '', ' ', 3_600_000)
          : slowConnection(port, `127.0.0.${2 + (i % ADDRESSES)}`, kind.first, kind.rest, 1000);
        return closed.then((ms) => ({ kind: kind.name, ms }));
      });
      const during = normalClient(port, pages, () => !attacking);
      const closed = await Promise.race([Promise.all(closings), sleep(120_000).then(() => undefined)]);
      attacking = false;
      const normal = await during;
      if (!closed) throw new Error(`not every slow connection was closed within 120 s`);
      console.log(`${slow} slow connections opened at once (${ADDRESSES} addresses, a byte a second), all gone ${((performance.now() - started) / 1000).toFixed(1)} s later; each closed by the server after:`);
      for (const kind of kinds) {
        const times = closed.filter((c) => c.kind === kind.name).map((c) => c.ms).sort((a, b) => a - b);
        console.log(`  ${kind.name}: ${times.length}, median ${(percentile(times, 50) / 1000).toFixed(1)} s, last ${((times.at(-1) ?? NaN) / 1000).toFixed(1)} s`);
      }
      const last = Math.max(...closed.map((c) => c.ms)) / 1000;
      console.log(`  all ${closed.length} closed within ${last.toFixed(1)} s (target: 30 s)`);
      console.log(summary('normal client, during', normal) + ' (target p99: under 50 ms)');

    }
    if (run('trickle')) {
      // 2. a byte a millisecond: one timer writes a byte to every connection each tick, each its own segment
      const cpuBefore = cpuMs(pid);
      const t0 = performance.now();
      let sent = 0;
      // each head starts with 7 KB sent at once (under the fast path's 8 KB), then grows a byte at a time
      const prefix = `GET /v1/categories HTTP/1.1\r\nHost: x\r\nX: ${'a'.repeat(7000)}`;
      const tricklers = Array.from({ length: trickle }, (_, i) => {
        const socket = connect({ port, host: '127.0.0.1', localAddress: `127.0.0.${2 + (i % ADDRESSES)}`, noDelay: true });
        socket.on('error', () => {});
        socket.on('data', () => {});
        socket.write(prefix);
        return socket;
      });
      const text = 'a'.repeat(20_000);
      let at = 0;
      const ticker = setInterval(() => {
        const byte = text[at++ % text.length]!;
        for (const socket of tricklers) if (!socket.destroyed && socket.writable) { socket.write(byte); sent++; }
      }, 1);
      await sleep(5000);
      clearInterval(ticker);
      for (const socket of tricklers) socket.destroy();
      const seconds = (performance.now() - t0) / 1000;
      const share = (cpuMs(pid) - cpuBefore) / (seconds * 1000);
      console.log(`${trickle} connections with a 7 KB head sending a byte at a time for 5 s (${sent} one-byte writes, ${(sent / seconds / 1000).toFixed(1)} KB/s in all): server CPU ${(share * 100).toFixed(0)}% of a core, ${((share * 1e6 * seconds) / sent).toFixed(1)} µs per byte`);
      await sleep(500);

    }
    if (run('cap')) {
      // 3. one address, many connections
      const greedy = await Promise.all(Array.from({ length: 300 }, () => exchange(port, { pieces: ['GET /v1/categories HTTP/1.1\r\nHost: x\r\n\r\n'], localAddress: '127.0.0.20', quietMs: 1500, limitMs: 5000 })));
      const statuses = new Map<number, number>();
      for (const g of greedy) for (const a of g.answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
      console.log(`300 connections at once from one address: ${[...statuses].map(([s, n]) => `${n} × ${s}`).join(', ')}`);
      await sleep(2500);

    }
    if (run('fuzz')) {
      // 4. fuzz
      const random = seeded(20260301);
      let answered = 0, waiting = 0, dropped = 0, serverErrors = 0, refusals = 0, bare = 0;
      const fuzzStarted = performance.now();
      let next = 0;
      let lastReport = 0;
      await Promise.all(Array.from({ length: 32 }, async () => {
        while (next < fuzz) {
          next++;
          const { bytes, method } = malformedRequest(random);
          const result = await exchange(port, { pieces: [bytes], quietMs: 250, limitMs: 5000, headOnly: (n) => n === 0 && method === 'HEAD' });
          if (result.answers.length > 0) answered++;
          else if (result.closed) dropped++;
          else waiting++;
          for (const a of result.answers) {
            if (a.status >= 500) serverErrors++;
            if (a.status >= 400) {
              refusals++;
              if (a.headers['access-control-allow-origin'] !== '*' || !/^application\/problem\+json/.test(a.headers['content-type'] ?? '')) bare++;
            }
          }
          const done = answered + dropped + waiting;
          if (performance.now() - lastReport > 5000) {
            lastReport = performance.now();
            const rate = done / ((performance.now() - fuzzStarted) / 1000);
            console.log(`  fuzz ${done}/${fuzz} (${((done / fuzz) * 100).toFixed(0)}%), ETA ${((fuzz - done) / rate).toFixed(0)} s`);
          }
        }
      }));
      console.log(`${fuzz} random malformed heads in ${((performance.now() - fuzzStarted) / 1000).toFixed(0)} s: ${answered} answered, ${waiting} incomplete heads still awaited after 250 ms, ${dropped} dropped without an answer, ${serverErrors} 5xx, ${refusals} answers >= 400 of which ${bare} not a problem with CORS`);
    }
    const health = await fetch(`${base}/v1/health`);
    console.log(`after all this, /v1/health answers ${health.status}`);
  } finally {
    server?.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});
