// npm run bench:static -- [--videos N] [--seconds S] [--rounds R]: requests/s of our static fast
// path against nginx serving the same page bodies as files, side by side. Each server gets core 0,
// wrk core 1; runs alternate ours, nginx, ours, nginx after a warm-up; we report the ratio of each
// pair and their median. Needs nginx and wrk (apt-get install -y nginx-light wrk).
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { seedCatalogue } from '../src/catalogue/seed-catalogue.ts';
import { buildSnapshot } from '../src/snapshot/build-snapshot.ts';
import { layoutOf, MANIFEST_FILE, pageFile, pageShardsOf } from '../src/snapshot/layout.ts';
import { openDiskSources } from '../src/snapshot/page-files.ts';
import type { Manifest } from '../src/snapshot/manifest.ts';
import { runCommand } from './cli.ts';
import { freePort, median, need, positive, SERVING_OPTIONS, waitFor } from './bench/serving.ts';

const SAMPLE = 10_000;

/**
 * Requests/s of wrk over the paths in `urls` (serving.ts wrk's run), and its socket errors: on a
 * loaded machine a few time out, which is reported beside the figure; any non-2xx answer throws.
 */
function wrkRate(port: number, urls: string, seconds: number): { rate: number; errors: string } {
  const out = execFileSync('taskset', ['-c', '1', 'wrk', '-t1', '-c50', `-d${seconds}s`, '-s', resolve('scripts/bench/random-urls.lua'), `http://127.0.0.1:${port}`],
    { env: { ...process.env, URLS: urls }, encoding: 'utf8' });
  const match = /Requests\/sec:\s+([\d.]+)/.exec(out);
  if (!match || /Non-2xx/.test(out)) throw new Error(`wrk run failed or saw errors:\n${out}`);
  const errors = /Socket errors: (.*)/.exec(out)?.[1];
  return { rate: Number(match[1]), errors: errors === undefined ? '' : ` (socket errors: ${errors})` };
}

/** Waits up to 10 minutes for `url` to answer: a loaded machine starts the server slowly. */
async function waitUntilUp(url: string): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not come up in 10 minutes`);
}

const BENCH_STATIC_COMMAND = {
  run: 'npm run bench:static',
  about: "Requests/s of the origin's static fast path against nginx serving the same page bodies as files, side by side (servers on core 0, wrk on core 1, alternating after a warm-up). Needs nginx, wrk and taskset.",
  options: SERVING_OPTIONS,
} as const;

await runCommand('bench:static', BENCH_STATIC_COMMAND, async ({ values }) => {
  need(['nginx', 'wrk', 'taskset'], 'nginx-light wrk util-linux');
  const videos = positive('videos', values.videos, 20_000);
  const seconds = positive('seconds', values.seconds, 10);
  const rounds = positive('rounds', values.rounds, 2);
  const dir = mkdtempSync(join(tmpdir(), 'vpa-bench-static-'));
  chmodSync(dir, 0o755); // nginx workers run as an unprivileged user
  const [ourPort, nginxPort] = [await freePort(), await freePort()];
  const base = `http://127.0.0.1:${ourPort}`;
  let server: ReturnType<typeof spawn> | undefined;
  const prefix = join(dir, 'nginx');
  try {
    const catalogue = join(dir, 'catalogue.db');
    const distDir = join(dir, 'dist');
    seedCatalogue(catalogue, { videos, seed: 42 });
    await buildSnapshot({ catalogue, distDir, baseUrl: base });

    // The same bodies as files for nginx: a deterministic sample of the snapshot's pages.
    const current = layoutOf(distDir).current;
    const manifest = JSON.parse(readFileSync(join(current, MANIFEST_FILE), 'utf8')) as Manifest;
    const keys = Object.keys(manifest.pages).filter((k) => !k.includes('%'));
    const step = Math.max(1, Math.floor(keys.length / SAMPLE));
    const sample = keys.filter((_, i) => i % step === 0).slice(0, SAMPLE);
    const sources = openDiskSources(current, pageShardsOf(manifest.files));
    const root = join(dir, 'root');
    for (const key of sample) {
      const file = join(root, pageFile(key));
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, sources.body.read(manifest.pages[key]!.body));
    }
    for (const source of Object.values(sources)) source.close();
    writeFileSync(join(dir, 'ours.txt'), sample.join('\n') + '\n');
    writeFileSync(join(dir, 'nginx.txt'), sample.map((k) => `/${pageFile(k)}`).join('\n') + '\n');

    mkdirSync(join(prefix, 'tmp'), { recursive: true });
    writeFileSync(join(prefix, 'nginx.conf'), `worker_processes 1; daemon on; pid ${prefix}/nginx.pid; error_log ${prefix}/error.log warn;
events { worker_connections 1024; }
http { access_log off; sendfile on; tcp_nopush on; tcp_nodelay on; keepalive_timeout 65; keepalive_requests 100000;
  types { application/json json; } default_type application/octet-stream; open_file_cache max=200000 inactive=60s;
  client_body_temp_path ${prefix}/tmp; proxy_temp_path ${prefix}/tmp; fastcgi_temp_path ${prefix}/tmp; uwsgi_temp_path ${prefix}/tmp; scgi_temp_path ${prefix}/tmp;
  server { listen 127.0.0.1:${nginxPort}; root ${root}; add_header Access-Control-Allow-Origin *; } }
`);
    execFileSync('taskset', ['-c', '0', 'nginx', '-p', prefix, '-c', join(prefix, 'nginx.conf')]);
    server = spawn('taskset', ['-c', '0', process.execPath, 'scripts/start.mjs'], {
      // one load generator from one address: a lane budget would answer 429 after 600 requests
      env: { ...process.env, PORT: String(ourPort), HOST: '127.0.0.1', PUBLIC_BASE_URL: base, CATALOGUE_DB: catalogue, DIST_DIR: distDir, RATE_LIMIT_PUBLIC: '10000000' },
      stdio: 'ignore',
    });
    await waitUntilUp(`${base}/v1/health`);
    await waitFor(`http://127.0.0.1:${nginxPort}/${pageFile(sample[0]!)}`);

    console.log(`${sample.length} pages of a ${videos}-video snapshot; wrk -t1 -c50 -d${seconds}s, servers on core 0, wrk on core 1`);
    wrkRate(ourPort, join(dir, 'ours.txt'), 3);
    wrkRate(nginxPort, join(dir, 'nginx.txt'), 3);
    const ratios: number[] = [];
    for (let r = 1; r <= rounds; r++) {
      const before = loadavg()[0]!.toFixed(1);
      const ours = wrkRate(ourPort, join(dir, 'ours.txt'), seconds);
      const nginx = wrkRate(nginxPort, join(dir, 'nginx.txt'), seconds);
      ratios.push(ours.rate / nginx.rate);
      console.log(`round ${r}: ours ${ours.rate.toFixed(0)} req/s${ours.errors}, nginx ${nginx.rate.toFixed(0)} req/s${nginx.errors}, ratio ${(ours.rate / nginx.rate).toFixed(2)} (load before ${before})`);
    }
    console.log(`median ratio ours/nginx: ${median(ratios).toFixed(2)} (target: at least 0.75)`);
  } finally {
    server?.kill('SIGTERM');
    try {
      execFileSync('nginx', ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-s', 'quit'], { stdio: 'ignore' });
    } catch { /* nginx was not started */ }
    rmSync(dir, { recursive: true, force: true });
  }
});
