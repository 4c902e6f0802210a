// npm run bench:addresses -- [--requests N] [--bytes B]: the server's memory under N requests
// (default 20,000), each with a distinct B-byte X-Forwarded-For value that is not an address
// (default 8,192), to a server started with TRUST_PROXY=true on a small seeded catalogue
// (docs/reliability.md, "Catalogue database and status": client addresses). Prints the server's
// RSS before and after, and how many of the requests were refused once the one bucket they share
// (the socket's address) was spent, against the target: the RSS grows by less than 50 MB.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { rssOf } from './bench/latency-probe.ts';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedCatalogue } from '../src/catalogue/seed-catalogue.ts';
import { wholeNumber } from '../src/cli/args.ts';
import { readCommandLine, runCli } from './cli.ts';
import { getStatus, untilListening } from './bench/serving.ts';

const PORT = 4621;
const TARGET_GROWTH_MB = 50;
const BENCH_ADDRESSES_COMMAND = {
  run: 'npm run bench:addresses',
  about: 'Server memory under requests with distinct junk X-Forwarded-For values (TRUST_PROXY=true): a client address key is never larger than an address.',
  options: {
    requests: { type: 'string', value: 'N', help: 'requests, each with its own X-Forwarded-For value (default 20000)' },
    // a request head stays under the 16 KB both parsers allow
    bytes: { type: 'string', value: 'B', help: 'length of each value, at most 12000 (default 8192)' },
  },
} as const;

// read before anything runs, so --help and a mistyped option never start a benchmark
const { values } = readCommandLine('bench:addresses', BENCH_ADDRESSES_COMMAND);

function options(): { requests: number; bytes: number } {
  return {
    requests: wholeNumber('requests', values.requests, { min: 1, max: 10_000_000, fallback: 20_000 }),
    bytes: wholeNumber('bytes', values.bytes, { min: 1, max: 12_000, fallback: 8192 }),
  };
}

/** the server's RSS: npm start's supervisor and its serving processes */
const rssMb = (pid: number): number => rssOf(pid);

const agent = new Agent({ keepAlive: true, maxSockets: 8 });
const get = (path: string, headers: Record<string, string>): Promise<number> => getStatus(agent, PORT, path, headers);

await runCli('bench:addresses', async () => {
  const { requests, bytes } = options();
  const dir = mkdtempSync(join(tmpdir(), 'vpa-bench-addresses-'));
  const catalogue = join(dir, 'catalogue.db');
  const env = {
    ...process.env, CATALOGUE_DB: catalogue, DIST_DIR: join(dir, 'dist'), PORT: String(PORT), HOST: '127.0.0.1',
    PUBLIC_BASE_URL: `http://127.0.0.1:${PORT}`, TRUST_PROXY: 'true',
  };
  let server: ChildProcess | undefined;
  try {
    console.log(`bench:addresses: seeding 300 videos and building the snapshot in ${dir}`);
    seedCatalogue(catalogue, { videos: 300, seed: 42 });
    execFileSync(process.execPath, ['scripts/build.ts'], { env, stdio: 'ignore' });
    server = spawn(process.execPath, ['scripts/start.mjs'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    await untilListening(server);
    const pid = server.pid!;
    for (let i = 0; i < 200; i++) await get('/v1/categories', { 'x-forwarded-for': '192.0.2.1' });
    const before = rssMb(pid);
    const filler = 'x'.repeat(bytes);
    const counts = new Map<number, number>();
    let sent = 0;
    let lastReport = performance.now();
    const started = performance.now();
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (sent < requests) {
        const i = sent++;
        const value = `${i}-${filler}`.slice(0, bytes);
        const status = await get('/v1/categories', { 'x-forwarded-for': value });
        counts.set(status, (counts.get(status) ?? 0) + 1);
        const now = performance.now();
        if (now - lastReport >= 5000) {
          lastReport = now;
          const rate = sent / ((now - started) / 1000);
          console.log(`  ${sent} of ${requests} (${((sent / requests) * 100).toFixed(0)}%, about ${((requests - sent) / rate).toFixed(0)} s left), server RSS ${rssMb(pid).toFixed(0)} MB`);
        }
      }
    }));
    const after = rssMb(pid);
    const growth = after - before;
    console.log(`${requests} requests with distinct ${bytes}-byte X-Forwarded-For values in ${((performance.now() - started) / 1000).toFixed(1)} s: ${[...counts].map(([s, n]) => `${n} × ${s}`).join(', ')}`);
    console.log(`server RSS: ${before.toFixed(0)} MB before, ${after.toFixed(0)} MB after (${growth >= 0 ? '+' : ''}${growth.toFixed(0)} MB) — target: under +${TARGET_GROWTH_MB} MB: ${growth < TARGET_GROWTH_MB ? 'met' : 'missed'}`);
  } finally {
    server?.kill('SIGTERM');
    agent.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
});
