// npm run bench:cdn -- [--videos N] [--seconds S] [--rounds R]: the CDN tier's figures (docs/cdn.md).
// 1. Requests/s of the same API URLs through the nginx front (pages from its files) and from the
//    origin alone, side by side: servers on core 0, wrk on core 1, alternating, after a warm-up.
// 2. A rebuild under load: clients read through nginx while the catalogue changes, the snapshot is
//    rebuilt and nginx reloaded onto it; prints failures, retries and p99 during the swap.
// Needs nginx (libnginx-mod-http-brotli-static for br), wrk and taskset.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installedBrotliModule, nginxConfig, preparePrefix } from '../src/cdn/nginx-config.ts';
import { openCatalogue } from '../src/catalogue/open-catalogue.ts';
import { seedCatalogue } from '../src/catalogue/seed-catalogue.ts';
import { buildSnapshot } from '../src/snapshot/build-snapshot.ts';
import { layoutOf, MANIFEST_FILE } from '../src/snapshot/layout.ts';
import type { Manifest } from '../src/snapshot/manifest.ts';
import { runCommand } from './cli.ts';
import { freePort, median, need, positive, SERVING_OPTIONS, waitFor, wrk } from './bench/serving.ts';

const SAMPLE = 10_000;

const BENCH_CDN_COMMAND = {
  run: 'npm run bench:cdn',
  about: "The CDN tier's figures (docs/cdn.md): requests/s through the nginx front against the origin alone, then a rebuild under load through nginx (failures, retries, p99 during the swap). Needs nginx, wrk and taskset.",
  options: SERVING_OPTIONS,
} as const;

const percentile = (values: readonly number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0;

await runCommand('bench:cdn', BENCH_CDN_COMMAND, async ({ values }) => {
  need(['nginx', 'wrk', 'taskset'], 'nginx-light libnginx-mod-http-brotli-static wrk util-linux');
  const videos = positive('videos', values.videos, 20_000);
  const seconds = positive('seconds', values.seconds, 10);
  const rounds = positive('rounds', values.rounds, 2);
  const dir = mkdtempSync(join(tmpdir(), 'vpa-bench-cdn-'));
  chmodSync(dir, 0o755); // nginx workers run as an unprivileged user
  const [originPort, nginxPort] = [await freePort(), await freePort()];
  const base = `http://127.0.0.1:${originPort}`;
  const prefix = join(dir, 'nginx');
  const conf = join(prefix, 'nginx.conf');
  let origin: ReturnType<typeof spawn> | undefined;
  try {
    const catalogue = join(dir, 'catalogue.db');
    const distDir = join(dir, 'dist');
    seedCatalogue(catalogue, { videos, seed: 42 });
    await buildSnapshot({ catalogue, distDir, baseUrl: base, staticFiles: true });
    const current = layoutOf(distDir).current;
    const manifest = JSON.parse(readFileSync(join(current, MANIFEST_FILE), 'utf8')) as Manifest;
    const keys = Object.keys(manifest.pages).filter((k) => !k.includes('%'));
    const step = Math.max(1, Math.floor(keys.length / SAMPLE));
    const sample = keys.filter((_, i) => i % step === 0).slice(0, SAMPLE);
    writeFileSync(join(dir, 'urls.txt'), `${sample.join('\n')}\n`);

    preparePrefix(prefix);
    const writeConf = () => writeFileSync(conf, nginxConfig({
      listen: nginxPort, origins: [base], prefix, snapshotDir: realpathSync(current), publicBaseUrl: base,
      brotliModule: installedBrotliModule(),
    }));
    writeConf();
    origin = spawn('taskset', ['-c', '0', process.execPath, 'scripts/start.mjs'], {
      env: { ...process.env, PORT: String(originPort), HOST: '127.0.0.1', PUBLIC_BASE_URL: base, CATALOGUE_DB: catalogue, DIST_DIR: distDir, TRUST_PROXY: 'true', RATE_LIMIT_PUBLIC: '10000000' },
      stdio: 'ignore',
    });
    execFileSync('taskset', ['-c', '0', 'nginx', '-p', prefix, '-c', conf]);
    await waitFor(`${base}/v1/health`);
    await waitFor(`http://127.0.0.1:${nginxPort}${sample[0]}`);

    console.log(`${sample.length} API URLs of a ${videos}-video snapshot (${keys.length} pages); wrk -t1 -c50 -d${seconds}s; servers on core 0, wrk on core 1`);
    wrk(originPort, join(dir, 'urls.txt'), 3);
    wrk(nginxPort, join(dir, 'urls.txt'), 3);
    const ratios: number[] = [];
    for (let r = 1; r <= rounds; r++) {
      const alone = wrk(originPort, join(dir, 'urls.txt'), seconds);
      const front = wrk(nginxPort, join(dir, 'urls.txt'), seconds);
      ratios.push(front / alone);
      console.log(`round ${r}: origin alone ${alone.toFixed(0)} req/s, through nginx ${front.toFixed(0)} req/s, ratio ${(front / alone).toFixed(2)}`);
    }
    console.log(`median ratio nginx/origin: ${median(ratios).toFixed(2)}`);

    // A rebuild under load: 32 clients through nginx, retrying a GET once on a connection closed
    // before any answer (as browsers do); the catalogue changes, then build, config, reload.
    const latencies: { at: number; ms: number }[] = [];
    const failures: string[] = [];
    let retried = 0;
    let stop = false;
    const get = async (url: string, retry = true): Promise<void> => {
      const started = performance.now();
      try {
        const res = await fetch(url);
        await res.arrayBuffer();
        latencies.push({ at: started, ms: performance.now() - started });
        if (res.status !== 200) failures.push(`${res.status} ${url}`);
      } catch (error) {
        if (retry) {
          retried++;
          return get(url, false);
        }
        failures.push(`${(error as Error).message} ${url}`);
      }
    };
    execFileSync('taskset', ['-apc', '1', String(process.pid)], { stdio: 'ignore' });
    let n = 0;
    const clients = Array.from({ length: 32 }, async () => {
      while (!stop) await get(`http://127.0.0.1:${nginxPort}${sample[(n++ * 7919) % sample.length]}`);
    });
    await new Promise((r) => setTimeout(r, 3000));
    const swapStart = performance.now();
    const db = openCatalogue(catalogue);
    db.prepare("UPDATE videos SET title = title || ' (remastered)' WHERE rowid % 50 = 0").run();
    db.close();
    // the build in its own process on the servers' core, as an operator runs it: this process
    // (the clients) keeps core 1 and its event loop to itself
    const buildStarted = performance.now();
    const buildOutput = await new Promise<string>((done, fail) => {
      const child = spawn('taskset', ['-c', '0', process.execPath, 'scripts/build.ts', '--static-files'], {
        env: { ...process.env, CATALOGUE_DB: catalogue, DIST_DIR: distDir, PUBLIC_BASE_URL: base },
      });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => { out += chunk.toString(); });
      child.stderr.on('data', (chunk: Buffer) => { out += chunk.toString(); });
      child.on('exit', (code) => (code === 0 ? done(out) : fail(new Error(`build failed:\n${out}`))));
    });
    const built = { seconds: (performance.now() - buildStarted) / 1000, changed: Number(/(\d+) URLs changed/.exec(buildOutput)?.[1] ?? NaN) };
    writeConf();
    execFileSync('nginx', ['-p', prefix, '-c', conf, '-s', 'reload']);
    const swapEnd = performance.now() + 1000;
    await new Promise((r) => setTimeout(r, 4000));
    stop = true;
    await Promise.all(clients);
    const during = latencies.filter((l) => l.at >= swapStart && l.at <= swapEnd).map((l) => l.ms);
    const outside = latencies.filter((l) => l.at < swapStart).map((l) => l.ms);
    console.log(`rebuild under load: ${latencies.length} requests, ${failures.length} failed, ${retried} retried after a connection closed by the reload; ` +
      `build ${built.seconds.toFixed(1)} s (${built.changed} URLs changed); p99 before ${percentile(outside, 0.99).toFixed(1)} ms, during the rebuild and swap ${percentile(during, 0.99).toFixed(1)} ms (${during.length} requests)`);
    if (failures.length > 0) console.log(failures.slice(0, 10).join('\n'));
    console.log('(the load generator is Node fetch on the same 2 cores as the build: its own latencies are part of these figures)');
  } finally {
    origin?.kill('SIGTERM');
    try {
      execFileSync('nginx', ['-p', prefix, '-c', conf, '-s', 'quit'], { stdio: 'ignore' });
    } catch { /* nginx was not started */ }
    rmSync(dir, { recursive: true, force: true });
  }
});
