// A real topology on loopback (docs/reliability.md, Shared state; docs/cdn.md, Scaling out): nginx
// in front of three origin processes (npm start) with their own DIST_DIR and their own copy of the
// catalogue each, and one redis-server: the operator commands run on the primary catalogue, and only
// Redis carries what they change to the origins. A developer key's budget holds within ±10% across
// the three; a key created and revoked with npm run keys is accepted, then refused, by all three
// within 2 s and a channel gone live (npm run import) shows on all three within 5 s; under load
// through nginx, Redis is stopped and started again, then a rebuild is rolled across the origins
// (copy, swap, each serving it before the next: a new serving process each, the old one ending its
// kept-alive connections to nginx) and nginx reloaded, with no failed request.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/catalogue/api-keys.ts';
import { openCatalogue } from '../../src/catalogue/open-catalogue.ts';
import { seedCatalogue } from '../../src/catalogue/seed-catalogue.ts';
import { buildSnapshot } from '../../src/snapshot/build-snapshot.ts';
import { layoutOf } from '../../src/snapshot/layout.ts';
import { swapCurrent } from '../../src/snapshot/swap.ts';
import { freePort, startRedis, type RedisProcess } from '../../scripts/bench/redis-server.ts';
import { untilListening } from '../../scripts/bench/serving.ts';
import { startNginx, type NginxFront } from '../cdn/nginx-front.ts';
import { until as untilEvery } from '../unit/support/until.ts';

const until = (check: () => Promise<boolean>, ms: number) => untilEvery(check, ms, 50);

const KEY_BUDGET = 60;
const ORIGINS = 3;

let dir: string;
let catalogue: string;
let primaryDist: string;
let redis: RedisProcess;
let front: NginxFront;
let key: string;
const origins: { base: string; dist: string; child: ChildProcess }[] = [];

const currentId = (dist: string) => basename(realpathSync(layoutOf(dist).current));
/** The snapshot an origin's /v1/health says it serves. */
const servedId = (health: string): string | undefined => {
  try {
    return (JSON.parse(health) as { data: { snapshot: { id: string } | null } }).data.snapshot?.id;
  } catch {
    return undefined;
  }
};

/** Copies snapshot `id` of the primary build into an origin's DIST_DIR and swaps it in. */
function rollTo(dist: string, id: string): void {
  cpSync(join(layoutOf(primaryDist).root, id), join(layoutOf(dist).root, id), { recursive: true });
  swapCurrent(layoutOf(dist).root, id);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vpa-topology-'));
  catalogue = join(dir, 'catalogue.db');
  seedCatalogue(catalogue, { videos: 120, seed: 11 });
  const db = openCatalogue(catalogue);
  try {
    ({ key } = createApp(db, 'Topology', '2026-01-01T00:00:00Z'));
  } finally {
    db.close();
  }
  redis = await startRedis();
  const ports = await Promise.all(Array.from({ length: ORIGINS }, () => freePort()));
  const baseUrl = `http://127.0.0.1:${ports[0]}`;
  primaryDist = join(dir, 'dist');
  const { id } = await buildSnapshot({ catalogue, distDir: primaryDist, baseUrl, staticFiles: true });
  await Promise.all(ports.map(async (port, i) => {
    const dist = join(dir, `origin-${i}`);
    mkdirSync(layoutOf(dist).root, { recursive: true });
    rollTo(dist, id);
    // each origin its own copy of the catalogue, as on its own machine
    const copy = join(dir, `origin-${i}.db`);
    copyFileSync(catalogue, copy);
    const child = spawn(process.execPath, ['scripts/start.mjs'], {
      env: {
        ...process.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_BASE_URL: baseUrl, CATALOGUE_DB: copy, DIST_DIR: dist,
        TRUST_PROXY: 'true', SHARED_STATE_STORE: redis.url, RATE_LIMIT_KEY: String(KEY_BUDGET), RATE_LIMIT_PUBLIC: '10000000', RATE_LIMIT_SITE: '10000000',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    origins[i] = { base: `http://127.0.0.1:${port}`, dist, child };
    await untilListening(child);
  }));
  front = await startNginx(primaryDist, origins.map((o) => o.base));
}, 400_000);

afterAll(async () => {
  front?.close();
  await Promise.all(origins.map((o) => new Promise<void>((done) => {
    if (o.child.exitCode !== null) return done();
    o.child.once('exit', () => done());
    o.child.kill('SIGTERM');
  })));
  await redis?.close();
  rmSync(dir, { recursive: true, force: true });
});

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

/** One GET; a kept-alive connection closed before any answer (nginx's reload) is retried once, as clients do. */
function get(base: string, path: string, headers: Record<string, string> = {}, retry = true): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, headers, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => { body += chunk; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (retry && req.reusedSocket && error.code === 'ECONNRESET') resolve(get(base, path, headers, false));
      else reject(error);
    });
    req.end();
  });
}

describe('nginx, three origins and one Redis', () => {
  it('counts every origin in Redis', async () => {
    for (const origin of origins) {
      expect(await until(async () => (await get(origin.base, '/v1/status')).body.includes(`shared by ${ORIGINS} origins`), 8000)).toBe(true);
    }
  });

  it(`holds a developer key's budget (${KEY_BUDGET} a minute) within ±10% across the three`, async () => {
    const statuses: number[] = [];
    for (let i = 0; i < KEY_BUDGET * 1.5; i++) statuses.push((await get(front.base, `/v1/search?q=t${i}`, { authorization: `Bearer ${key}` })).status);
    const answered = statuses.filter((s) => s === 200).length;
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    expect(answered).toBeGreaterThanOrEqual(KEY_BUDGET * 0.9);
    expect(answered).toBeLessThanOrEqual(KEY_BUDGET * 1.1);
  });

  it('accepts a new key on all three within 2 s, refuses it once revoked on all three within 2 s and shows a channel gone live on all three within 5 s', async () => {
    const operator = (script: string, ...args: string[]) => promisify(execFile)(process.execPath, [script, ...args],
      { env: { ...process.env, CATALOGUE_DB: catalogue, SHARED_STATE_STORE: redis.url } });
    const created = (await operator('scripts/keys.ts', 'create', 'Topology revoked')).stdout;
    const createdAt = Date.now();
    const second = { key: /^(vpk_\S+)$/m.exec(created)![1]!, appId: /created app (app_\w+)/.exec(created)![1]! };
    const partner = (base: string) => get(base, '/v1/partner', { authorization: `Bearer ${second.key}` }).then((r) => r.status);
    expect(await until(async () => (await Promise.all(origins.map((o) => partner(o.base)))).every((s) => s === 200), 2000)).toBe(true);
    expect(Date.now() - createdAt).toBeLessThanOrEqual(2000);
    await operator('scripts/keys.ts', 'revoke', second.appId);
    const revokedAt = Date.now();
    expect(await until(async () => (await Promise.all(origins.map((o) => partner(o.base)))).every((s) => s === 401), 2000)).toBe(true);
    expect(Date.now() - revokedAt).toBeLessThanOrEqual(2000);

    const db = openCatalogue(catalogue);
    let channel: string;
    try {
      channel = (db.prepare('SELECT username FROM channels ORDER BY username LIMIT 1').get() as { username: string }).username;
    } finally {
      db.close();
    }
    const records = join(dir, 'live.ndjson');
    writeFileSync(records, `${JSON.stringify({ kind: 'live', channel, state: 'live', title: 'Topology live', startedAt: '2026-01-01T00:00:00Z', viewers: 7 })}\n`);
    await operator('scripts/import.ts', records);
    const liveAt = Date.now();
    expect(await until(async () => (await Promise.all(origins.map((o) => get(o.base, '/v1/live')))).every((r) => r.body.includes('Topology live')), 5000)).toBe(true);
    expect(Date.now() - liveAt).toBeLessThanOrEqual(5000);
  });

  it('answers every request under load while Redis stops and starts again and a rebuild rolls across the origins', async () => {
    const targets = ['/v1/videos?limit=20&sort=latest', '/v1/search?q=python', '/v1/videos?limit=7&sort=likes', '/v1/categories'];
    const failures: string[] = [];
    let answered = 0;
    let stop = false;
    const clients = Array.from({ length: 4 }, async (_, c) => {
      for (let n = 0; !stop && n < 100_000; n++) {
        const path = targets[(n + c) % targets.length]!;
        try {
          const { status } = await get(front.base, path);
          if (status === 200) answered++;
          else failures.push(`${path}: ${status}`);
        } catch (error) {
          failures.push(`${path}: ${(error as Error).message}`);
        }
      }
    });
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    await pause(500);
    await redis.stop();
    await pause(2000);
    await redis.start();
    expect(await until(async () => (await Promise.all(origins.map((o) => get(o.base, '/v1/status')))).every((r) => r.body.includes('shared by')), 10_000)).toBe(true);

    const db = openCatalogue(catalogue);
    try {
      db.prepare("UPDATE videos SET title = title || ' (rolled)' WHERE id = (SELECT id FROM videos WHERE privacy = 'public' ORDER BY id LIMIT 1)").run();
    } finally {
      db.close();
    }
    const { id } = await buildSnapshot({ catalogue, distDir: primaryDist, baseUrl: origins[0]!.base, staticFiles: true });
    for (const origin of origins) {
      rollTo(origin.dist, id);
      // each origin verifies and loads it (a new serving process) and then serves it, while the
      // others keep serving the old one; its old process ends its connections to nginx meanwhile
      expect(await until(async () => currentId(origin.dist) === id && servedId((await get(origin.base, '/v1/health')).body) === id, 20_000)).toBe(true);
      await pause(1200);
    }
    await front.reload();
    await pause(1000);
    stop = true;
    await Promise.all(clients);
    expect(failures).toEqual([]);
    expect(answered).toBeGreaterThan(100);
  }, 120_000);
});
