// npm run bench:static -- [--videos N] [--seconds S] [--rounds R]: requests/s of our static fast
// path against nginx serving the same page bodies as files, side by side. Each server gets core 0,
// wrk core 1; runs alternate ours, nginx, ours, nginx after a warm-up; we report the ratio of each
// pair and their median. Needs nginx and wrk (apt-get install -y nginx-light wrk).
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { seedCatalogue } from '../src/catalogue/seed-catalogue.ts';
import { buildSnapshot } from '../src/snapshot/build-snapshot.ts';
import { layoutOf, MANIFEST_FILE, PAGE_FILES, pageFile } from '../src/snapshot/layout.ts';
import type { Manifest } from '../src/snapshot/manifest.ts';
import { runCli, UsageError } from './cli.ts';

const SAMPLE = 10_000;

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const value = i === -1 ? fallback : Number(process.argv[i + 1]);
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`${name} must be a positive integer`);
  return value;
}

function need(command: string): void {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
  } catch {
    throw new UsageError(`${command} is needed: apt-get install -y nginx-light wrk util-linux`);
  }
}

const freePort = () => new Promise<number>((done) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as { port: number };
    probe.close(() => done(port));
  });
});

function wrk(port: number, urls: string, seconds: number): number {
  const out = execFileSync('taskset', ['-c', '1', 'wrk', '-t1', '-c50', `-d${seconds}s`, '-s', resolve('scripts/bench/random-urls.lua'), `http://127.0.0.1:${port}`],
    { env: { ...process.env, URLS: urls }, encoding: 'utf8' });
  const match = /Requests\/sec:\s+([\d.]+)/.exec(out);
  if (!match || /Non-2xx/.test(out)) throw new Error(`wrk run failed or saw errors:\n${out}`);
  return Number(match[1]);
}

async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

await runCli('bench:static', async () => {
  for (const command of ['nginx', 'wrk', 'taskset']) need(command);
  const videos = option('--videos', 20_000);
  const seconds = option('--seconds', 10);
  const rounds = option('--rounds', 2);
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
    const bodies = readFileSync(join(current, PAGE_FILES.body));
    const root = join(dir, 'root');
    for (const key of sample) {
      const [offset, length] = manifest.pages[key]!.body;
      const file = join(root, pageFile(key));
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, bodies.subarray(offset, offset + length));
    }
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
    server = spawn('taskset', ['-c', '0', process.execPath, 'scripts/start.ts'], {
      env: { ...process.env, PORT: String(ourPort), HOST: '127.0.0.1', PUBLIC_BASE_URL: base, CATALOGUE_DB: catalogue, DIST_DIR: distDir },
      stdio: 'ignore',
    });
    await waitFor(`${base}/v1/health`);
    await waitFor(`http://127.0.0.1:${nginxPort}/${pageFile(sample[0]!)}`);

    console.log(`${sample.length} pages of a ${videos}-video snapshot; wrk -t1 -c50 -d${seconds}s, servers on core 0, wrk on core 1`);
    wrk(ourPort, join(dir, 'ours.txt'), 3);
    wrk(nginxPort, join(dir, 'nginx.txt'), 3);
    const ratios: number[] = [];
    for (let r = 1; r <= rounds; r++) {
      const ours = wrk(ourPort, join(dir, 'ours.txt'), seconds);
      const nginx = wrk(nginxPort, join(dir, 'nginx.txt'), seconds);
      ratios.push(ours / nginx);
      console.log(`round ${r}: ours ${ours.toFixed(0)} req/s, nginx ${nginx.toFixed(0)} req/s, ratio ${(ours / nginx).toFixed(2)}`);
    }
    const sorted = [...ratios].sort((a, b) => a - b);
    const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
    console.log(`median ratio ours/nginx: ${median.toFixed(2)} (target: at least 0.75)`);
  } finally {
    server?.kill('SIGTERM');
    try {
      execFileSync('nginx', ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-s', 'quit'], { stdio: 'ignore' });
    } catch { /* nginx was not started */ }
    rmSync(dir, { recursive: true, force: true });
  }
});
