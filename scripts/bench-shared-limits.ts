// npm run bench:shared-limits -- [--videos N] [--requests R] [--clients C]: the latency shared rate
// limits add (docs/reliability.md, Shared state; target: p50 at most 1 ms more). One seeded
// catalogue and snapshot, a real redis-server on loopback, and two server processes side by side:
// one counting in memory (the default), one with RATE_LIMIT_STORE pointing at Redis. C clients
// (default 4), each sending its next request when the last is answered, send R requests (default
// 4,000) to each server in turn — a prerendered list page and a search, from 1,000 client
// addresses (TRUST_PROXY) so that no budget runs out — for two rounds. Prints p50/p99 per kind and
// server and the added p50; then the same traffic to the shared server with Redis stopped (each
// origin counting locally: no request waits for Redis), and whether every answer was a 200.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedCatalogue } from '../src/catalogue/seed-catalogue.ts';
import { wholeNumber } from '../src/cli/args.ts';
import { readCommandLine, runCli } from './cli.ts';
import { startRedis, type RedisProcess } from './bench/redis-server.ts';
import { freePort, untilListening } from './bench/serving.ts';
import { request } from 'node:http';

const TARGET_ADDED_P50_MS = 1;
const BENCH_COMMAND = {
  run: 'npm run bench:shared-limits',
  about: 'The latency that counting rate limits in Redis (RATE_LIMIT_STORE) adds to API answers, beside the in-memory default; then the same traffic with Redis stopped.',
  options: {
    videos: { type: 'string', value: 'N', help: 'videos in the seeded catalogue (default 2000)' },
    requests: { type: 'string', value: 'R', help: 'requests to each server per round (default 4000)' },
    clients: { type: 'string', value: 'C', help: 'concurrent clients, each sending its next request when the last is answered (default 4)' },
  },
  notes: ['needs redis-server (bash scripts/ensure-redis.sh installs it).'],
} as const;

const { values } = readCommandLine('bench:shared-limits', BENCH_COMMAND);

const PATHS = { page: '/v1/videos?limit=20&sort=latest', search: '/v1/search?q=python' } as const;
type Kind = keyof typeof PATHS;

/** One GET; resolves with its status and latency in ms. */
function timed(agent: Agent, port: number, path: string, address: string): Promise<{ status: number; ms: number }> {
  const start = process.hrtime.bigint();
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { 'x-forwarded-for': address }, agent }, (res) => {
      res.resume();
      res.on('end', () => done({ status: res.statusCode ?? 0, ms: Number(process.hrtime.bigint() - start) / 1e6 }));
    });
    req.on('error', fail);
    req.end();
  });
}

const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;

async function load(port: number, requests: number, clients: number): Promise<{ latencies: Record<Kind, number[]>; failed: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const latencies: Record<Kind, number[]> = { page: [], search: [] };
  let next = 0;
  let failed = 0;
  await Promise.all(Array.from({ length: clients }, async () => {
    while (next < requests) {
      const i = next++;
      const kind: Kind = i % 2 === 0 ? 'page' : 'search';
      const { status, ms } = await timed(agent, port, PATHS[kind], `10.0.${(i % 1000) >> 8}.${i % 256}`);
      if (status !== 200) failed++;
      latencies[kind].push(ms);
    }
  }));
  agent.destroy();
  return { latencies, failed };
}

await runCli('bench:shared-limits', async () => {
  const videos = wholeNumber('--videos', values.videos, { min: 10, max: 1_000_000, fallback: 2000 });
  const requests = wholeNumber('--requests', values.requests, { min: 10, max: 1_000_000, fallback: 4000 });
  const clients = wholeNumber('--clients', values.clients, { min: 1, max: 256, fallback: 4 });
  const dir = mkdtempSync(join(tmpdir(), 'vpa-bench-shared-'));
  const servers: ChildProcess[] = [];
  let redis: RedisProcess | undefined;
  try {
    const catalogue = join(dir, 'catalogue.db');
    seedCatalogue(catalogue, { videos, seed: 7 });
    const [memoryPort, sharedPort] = [await freePort(), await freePort()];
    const base = { ...process.env, CATALOGUE_DB: catalogue, DIST_DIR: join(dir, 'dist'), HOST: '127.0.0.1', TRUST_PROXY: 'true',
      RATE_LIMIT_PUBLIC: '10000000', PUBLIC_BASE_URL: `http://127.0.0.1:${memoryPort}` };
    console.log(`bench:shared-limits: building a snapshot of ${videos} videos…`);
    execFileSync(process.execPath, ['scripts/build.ts'], { env: base, stdio: 'ignore' });
    redis = await startRedis();
    const start = async (port: number, extra: Record<string, string>) => {
      const child = spawn(process.execPath, ['scripts/start.mjs'], { env: { ...base, ...extra, PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit'] });
      servers.push(child);
      await untilListening(child);
    };
    await start(memoryPort, {});
    await start(sharedPort, { RATE_LIMIT_STORE: redis.url });
    // warm both (JIT, page cache, Redis scripts)
    await load(memoryPort, 500, clients);
    await load(sharedPort, 500, clients);

    const all: Record<'memory' | 'redis', Record<Kind, number[]>> = { memory: { page: [], search: [] }, redis: { page: [], search: [] } };
    let failed = 0;
    for (let round = 1; round <= 2; round++) {
      for (const [name, port] of [['memory', memoryPort], ['redis', sharedPort]] as const) {
        const result = await load(port, requests, clients);
        failed += result.failed;
        for (const kind of Object.keys(PATHS) as Kind[]) all[name][kind].push(...result.latencies[kind]);
        console.log(`bench:shared-limits: round ${round}/2, ${name}: ${requests} requests (${Math.round((round - 1) * 50 + (name === 'memory' ? 25 : 50))}%)`);
      }
    }
    const line = (name: string, values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return { text: `${name.padEnd(28)} p50 ${percentile(sorted, 0.5).toFixed(3)} ms  p99 ${percentile(sorted, 0.99).toFixed(3)} ms  (${sorted.length})`, p50: percentile(sorted, 0.5) };
    };
    console.log(`\n${clients} clients, ${requests} requests per server per round, 2 rounds; load average ${(await import('node:os')).loadavg()[0]!.toFixed(2)}`);
    let worstAdded = Number.NEGATIVE_INFINITY;
    for (const kind of Object.keys(PATHS) as Kind[]) {
      const memory = line(`${kind} (${PATHS[kind]}) memory`, all.memory[kind]);
      const shared = line(`${kind} redis`, all.redis[kind]);
      console.log(memory.text);
      console.log(shared.text);
      const added = shared.p50 - memory.p50;
      worstAdded = Math.max(worstAdded, added);
      console.log(`  added p50: ${added.toFixed(3)} ms`);
    }
    await redis.stop();
    const down = await load(sharedPort, requests, clients);
    failed += down.failed;
    const downAll = [...down.latencies.page, ...down.latencies.search];
    console.log(line('redis stopped (local share)', downAll).text);
    console.log(`\nadded p50 ${worstAdded.toFixed(3)} ms (target ≤ ${TARGET_ADDED_P50_MS} ms): ${worstAdded <= TARGET_ADDED_P50_MS ? 'met' : 'MISSED'}; ${failed === 0 ? 'every answer a 200' : `${failed} answers were not 200`}`);
  } finally {
    for (const child of servers) child.kill('SIGTERM');
    await redis?.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
