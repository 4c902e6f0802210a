// npm run bench:swap -- [--seconds S] [--help]: what a snapshot swap and a start-up cost a running
// server, on the catalogue and snapshots of CATALOGUE_DB and DIST_DIR (build them first, e.g. the
// 100,000-video pyvideo file: docs/performance.md). Starts the real server (`npm start`, its own
// process), sends a request every 50 ms from here from the moment it is spawned, and prints:
//   - start-up: time to the first 200 answer (a prerendered page: served as soon as the snapshot's
//     manifest is verified), to the first 200 to a dynamic query (the model loaded; 503 before),
//     and the server's RSS once the model is loaded;
//   - swap: `current` pointed at a twin of the served snapshot (its files hard-linked, its manifest
//     head marked `"twin":1`, so a swap costs a full load without a second build), then back; for
//     each: the worst and p99 latency of the 50 ms requests, failures, time until the new snapshot
//     served, and the server's peak RSS and its RSS once the swap has settled;
// against the targets: worst latency <= 100 ms with 0 failures, first answer <= 3 s, RSS <= 600 MB.
// The requests alternate a prerendered page and a dynamic list query. Prints the machine's load
// average: on a shared machine the figures move with it. The twin is removed at the end.
import { createHash } from 'node:crypto';
import { appendFileSync, linkSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.ts';
import { layoutOf, MANIFEST_FILE } from '../src/snapshot/layout.ts';
import { swapCurrent } from '../src/snapshot/swap.ts';
import { wholeNumber } from '../src/cli/args.ts';
import { runCommand, UsageError } from './cli.ts';
import { EVERY_MS, get, proportionalSetOfTree, rssOf, spawnServer, startProbe, summarise } from './bench/latency-probe.ts';

const TARGET = { worstMs: 100, firstAnswerMs: 3000, rssMb: 600 };

/** A twin of a snapshot: its files hard-linked, its manifest head marked; returns the twin's id. */
function makeTwin(root: string, id: string): string {
  const manifest = readFileSync(join(root, id, MANIFEST_FILE));
  const at = manifest.indexOf(',"pages":{');
  if (at === -1) throw new Error(`snapshot ${id} has no readable manifest`);
  const twin = Buffer.concat([manifest.subarray(0, at), Buffer.from(',"twin":1'), manifest.subarray(at)]);
  const twinId = createHash('sha256').update(twin).digest('hex').slice(0, 16);
  const dir = join(root, twinId);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  for (const name of readdirSync(join(root, id))) if (name !== MANIFEST_FILE) linkSync(join(root, id, name), join(dir, name));
  writeFileSync(join(dir, MANIFEST_FILE), twin);
  return twinId;
}

const BENCH_SWAP_COMMAND = {
  run: 'npm run bench:swap',
  about: 'What a snapshot swap and a start-up cost a running server, on the catalogue and snapshots of CATALOGUE_DB and DIST_DIR (build them first): start-up to the first answer, the worst latency of a request every 50 ms during a swap, failures and RSS, against the targets.',
  options: {
    seconds: { type: 'string', value: 'S', help: 'how long to keep measuring after each swap (default 3)' },
    'server-log': { type: 'string', value: 'FILE', help: 'write the server\'s whole output to FILE, and every request slower than 100 ms with its time since the spawn (e.g. beside NODE_OPTIONS=--trace-gc, whose times count from the server\'s start)' },
  },
  notes: ['environment: CATALOGUE_DB, DIST_DIR and PUBLIC_BASE_URL name a built catalogue; PORT defaults to 4620.'],
} as const;

await runCommand('bench:swap', BENCH_SWAP_COMMAND, async ({ values }) => {
  const settle = wholeNumber('seconds', values.seconds, { min: 1, max: 3600, fallback: 3 }) * 1000;
  const port = Number(process.env['PORT'] ?? 4620);
  const config = loadConfig({ ...process.env, PORT: String(port), HOST: '127.0.0.1' });
  const { root } = layoutOf(config.distDir);
  const original = readlinkSync(join(root, 'current'));
  const manifestHead = readFileSync(join(root, original, MANIFEST_FILE)).subarray(0, 4096).toString('utf8');
  const page = '/v1/categories';
  const dynamic = (n: number) => `/v1/videos?limit=${7 + (n % 13)}&sort=views`;
  console.log(`bench:swap: snapshot ${original} in ${root}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on this machine`);
  if (!manifestHead.includes(`"baseUrl":${JSON.stringify(config.publicBaseUrl)}`)) {
    throw new UsageError(`the snapshot was not built for PUBLIC_BASE_URL=${config.publicBaseUrl}; set PUBLIC_BASE_URL to the one it was built for`);
  }

  const serverLog = values['server-log'];
  if (serverLog !== undefined) writeFileSync(serverLog, '');
  const probe = startProbe(port, (n) => (n % 2 === 0 ? page : dynamic(n + 1)));
  const { samples } = probe;
  const started = performance.now();
  const spawned = spawnServer({ ...process.env, PORT: String(port), HOST: '127.0.0.1' });
  const { server } = spawned;
  /** the server's output so far and the slow requests of `phase`, appended to --server-log */
  const keepLog = (phase: string) => {
    if (serverLog === undefined) return;
    const slow = samples.filter((s) => s.ms > 100).map((s) => `slow request: sent ${Math.round(s.at - started)} ms after the spawn, ${Math.round(s.ms)} ms, ${s.status} ${s.path}`);
    appendFileSync(serverLog, `--- ${phase}\n${spawned.log()}${slow.join('\n')}\n`);
  };
  try {
    // the first 200 (a prerendered page, served before the model is loaded), then the first 200
    // to a dynamic query (the model loaded)
    let firstAnswer: number | undefined;
    let firstDynamic: number | undefined;
    while (firstDynamic === undefined && performance.now() - started < 900_000) {
      await new Promise((r) => setTimeout(r, 20));
      const ok = samples.find((s) => s.status === 200);
      if (ok && firstAnswer === undefined) firstAnswer = ok.at + ok.ms - started;
      const dynamicOk = samples.find((s) => s.status === 200 && s.path !== page);
      if (dynamicOk) firstDynamic = dynamicOk.at + dynamicOk.ms - started;
      if (server.exitCode !== null) throw new Error(`the server stopped:\n${spawned.log()}`);
    }
    const unavailable = samples.filter((s) => s.status === 503).length;
    await new Promise((r) => setTimeout(r, settle));
    const rssServing = rssOf(server.pid!);
    const pss = proportionalSetOfTree(server.pid!);
    // npm start's supervisor holds the port, not the snapshot (docs/reliability.md, "Swaps between processes")
    const rssSupervisor = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
    console.log(`start-up: first 200 answer ${firstAnswer === undefined ? 'never' : `${Math.round(firstAnswer)} ms`} after spawning npm start (target <= ${TARGET.firstAnswerMs} ms); first 200 to a dynamic query ${firstDynamic === undefined ? 'never' : `${Math.round(firstDynamic)} ms`} (${unavailable} answered 503 before); RSS ${rssServing.toFixed(0)} MB once the model is loaded (target <= ${TARGET.rssMb} MB): the serving process ${(rssServing - rssSupervisor).toFixed(0)} MB, the supervisor ${rssSupervisor.toFixed(0)} MB; proportional set size ${pss.toFixed(0)} MB (the pages they share counted once)`);
    console.log(spawned.log().split('\n').filter((line) => /serving|refused/.test(line)).map((line) => `  server: ${line}`).join('\n'));
    keepLog('start-up');
    spawned.clearLog();

    const twin = makeTwin(root, original);
    try {
      for (const [from, to] of [[original, twin], [twin, original]] as const) {
        samples.length = 0;
        let peak = rssOf(server.pid!);
        const swapAt = performance.now();
        swapCurrent(root, to);
        let servedAt: number | undefined;
        while (servedAt === undefined && performance.now() - swapAt < 900_000) {
          await new Promise((r) => setTimeout(r, 100));
          peak = Math.max(peak, rssOf(server.pid!));
          const health = await get(port, '/v1/health');
          if (health.body.includes(to)) servedAt = performance.now();
        }
        const end = performance.now() + settle;
        while (performance.now() < end) {
          await new Promise((r) => setTimeout(r, 100));
          peak = Math.max(peak, rssOf(server.pid!));
        }
        const during = summarise(samples, swapAt);
        const after = rssOf(server.pid!);
        console.log(`swap ${from} -> ${to}: served after ${servedAt === undefined ? 'never' : `${Math.round(servedAt - swapAt)} ms`}; ${during.count} requests every ${EVERY_MS} ms: worst ${during.worst.toFixed(0)} ms (target <= ${TARGET.worstMs}), p99 ${during.p99.toFixed(0)} ms, p50 ${during.p50.toFixed(0)} ms, ${during.failures} failures${during.failures ? ` (${during.byStatus})` : ''} (target 0); peak RSS ${peak.toFixed(0)} MB, ${after.toFixed(0)} MB ${settle / 1000} s after it served (target <= ${TARGET.rssMb} MB)`);
        console.log(spawned.log().split('\n').filter((line) => /serving|refused/.test(line)).map((line) => `  server: ${line}`).join('\n'));
        keepLog(`swap ${from} -> ${to}`);
        spawned.clearLog();
      }
    } finally {
      swapCurrent(root, original);
      rmSync(join(root, twin), { recursive: true, force: true });
    }
    console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  } finally {
    await probe.stop();
    server.kill('SIGTERM');
  }
});
