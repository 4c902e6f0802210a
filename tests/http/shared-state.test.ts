// Rate limits and key revocations shared by several origins through a real Redis (docs/reliability.md,
// Shared state). Revocations: a key both origins' catalogues hold, revoked with npm run keys on one
// origin's catalogue, is refused by the other (whose catalogue still says active) within 2 s.
// Rate limits:
// two servers with RATE_LIMIT_STORE pointing at one redis-server count one budget per client,
// prerendered pages (the fast path) and handlers alike, and RateLimit headers come from the shared
// counter. With Redis stopped every request is still answered, each origin counting locally at its
// share of the budget, and /v1/status says so; with Redis back, both go back to it by themselves.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/catalogue/api-keys.ts';
import { openCatalogue } from '../../src/catalogue/open-catalogue.ts';
import { startRedis, type RedisProcess } from '../../scripts/bench/redis-server.ts';
import { until } from '../unit/support/until.ts';
import { startFixture, type Fixture } from './server-fixture.ts';

const PUBLIC = 6;

let redis: RedisProcess;
let a: Fixture;
let b: Fixture;

beforeAll(async () => {
  redis = await startRedis();
  const env = { RATE_LIMIT_PUBLIC: String(PUBLIC), TRUST_PROXY: 'true', RATE_LIMIT_STORE: redis.url };
  [a, b] = await Promise.all([startFixture({ seed: { videos: 60 }, env }), startFixture({ seed: { videos: 60 }, env })]);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await redis?.close();
});

let lastAddress = 0;
const newAddress = () => `2001:db8::${(++lastAddress).toString(16)}`;

async function get(fx: Fixture, target: string, address: string): Promise<{ status: number; ratelimit: string | null }> {
  const response = await fetch(fx.base + target, { headers: { 'x-forwarded-for': address } });
  await response.arrayBuffer();
  return { status: response.status, ratelimit: response.headers.get('ratelimit') };
}

const remainingOf = (value: string | null) => Number(/;r=(\d+)/.exec(value ?? '')?.[1] ?? NaN);

async function statusOf(fx: Fixture): Promise<{ status: string; detail: string } | undefined> {
  // each look from its own address: /v1/status counts against the public lane too
  const body = await (await fetch(`${fx.base}/v1/status`, { headers: { 'x-forwarded-for': newAddress() } })).json() as
    { data: { components: { id: string; status: string; detail: string }[] } };
  return body.data.components.find((c) => c.id === 'shared-state');
}

describe('shared key revocations', () => {
  it('a key revoked on one origin\'s catalogue is refused by every origin within 2 s', async () => {
    // one app and key in both catalogues (as copies of one catalogue would hold it)
    const source = openCatalogue(a.catalogue);
    let key: string;
    let appId: string;
    try {
      ({ key, appId } = createApp(source, 'Shared revocation', '2026-01-01T00:00:00Z'));
      const apps = source.prepare('SELECT * FROM apps WHERE id = ?').all(appId) as Record<string, unknown>[];
      const keys = source.prepare('SELECT * FROM api_keys WHERE app_id = ?').all(appId) as Record<string, unknown>[];
      const target = openCatalogue(b.catalogue);
      try {
        for (const [table, rows] of [['apps', apps], ['api_keys', keys]] as const) {
          for (const row of rows) target.prepare(`INSERT INTO ${table} (${Object.keys(row).join(', ')}) VALUES (${Object.keys(row).map(() => '?').join(', ')})`).run(...Object.values(row));
        }
      } finally {
        target.close();
      }
    } finally {
      source.close();
    }
    const partner = async (fx: Fixture) => (await fetch(`${fx.base}/v1/partner`, { headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': newAddress() } })).status;
    // both accept it once their catalogue reads (every 2 s) know it
    expect(await until(async () => (await partner(a)) === 200 && (await partner(b)) === 200, 6000)).toBe(true);

    const { stdout } = await promisify(execFile)(process.execPath, ['scripts/keys.ts', 'revoke', appId],
      { env: { ...process.env, CATALOGUE_DB: a.catalogue, RATE_LIMIT_STORE: redis.url } });
    const revokedAt = Date.now();
    expect(stdout).toMatch(/revoked 1 key/);
    expect(stdout).toMatch(/told Redis .*every origin refuses the key within 2 s/);
    const seen: number[] = [];
    expect(await until(async () => { const s = [await partner(b), await partner(a)]; seen.push(...s); return s[0] === 401 && s[1] === 401; }, 2000), seen.join()).toBe(true);
    expect(Date.now() - revokedAt).toBeLessThanOrEqual(2000);
    // b's own catalogue still says the key is active: only Redis told it
    const target = openCatalogue(b.catalogue);
    try {
      expect(target.prepare('SELECT revoked_at FROM api_keys WHERE app_id = ?').get(appId)).toEqual({ revoked_at: null });
    } finally {
      target.close();
    }
  });
});

describe('shared rate limits', () => {
  it('counts one budget per client across both origins, prerendered pages and handlers alike', async () => {
    const address = newAddress();
    const answers = [];
    // alternating origins; /v1/videos is a prerendered page, /v1/search runs a handler
    for (let i = 0; i < PUBLIC + 2; i++) answers.push(await get(i % 2 === 0 ? a : b, i % 3 === 0 ? '/v1/search?q=a' : '/v1/videos', address));
    expect(answers.map((r) => r.status)).toEqual([...Array(PUBLIC).fill(200), 429, 429]);
    expect(answers.slice(0, PUBLIC).map((r) => remainingOf(r.ratelimit))).toEqual([5, 4, 3, 2, 1, 0]);
  });

  it('keeps other clients\' budgets apart', async () => {
    const first = newAddress();
    for (let i = 0; i < PUBLIC; i++) await get(a, '/v1/videos', first);
    expect((await get(b, '/v1/videos', first)).status).toBe(429);
    expect((await get(b, '/v1/videos', newAddress())).status).toBe(200);
  });

  it('says in /v1/status that the limits are shared, and by how many origins', async () => {
    expect(await until(async () => (await statusOf(a))?.detail.includes('shared by 2 origins') ?? false, 5000)).toBe(true);
    expect((await statusOf(b))?.status).toBe('operational');
  });

  it('answers every request while Redis is down, at each origin\'s share, says so, and goes back to Redis by itself', async () => {
    await redis.stop();
    try {
      const address = newAddress();
      // share = 6 / 2 origins = 3 per origin
      const fromA = [];
      for (let i = 0; i < 4; i++) fromA.push((await get(a, '/v1/videos', address)).status);
      expect(fromA).toEqual([200, 200, 200, 429]);
      expect((await get(b, '/v1/search?q=a', address)).status).toBe(200);
      // /v1/status answers are kept for 2 s (answer-cache.ts)
      expect(await until(async () => (await statusOf(a))?.status === 'degraded', 4000)).toBe(true);
      const status = await statusOf(a);
      expect(status?.detail).toMatch(/cannot be reached.*locally at its share.*1\/2/);
    } finally {
      await redis.start();
    }
    // reconnects by itself: shared counting again, on both origins
    expect(await until(async () => (await statusOf(a))?.status === 'operational' && (await statusOf(b))?.status === 'operational', 8000)).toBe(true);
    const address = newAddress();
    const answers = [];
    for (let i = 0; i < PUBLIC + 1; i++) answers.push((await get(i % 2 === 0 ? b : a, '/v1/videos', address)).status);
    expect(answers).toEqual([...Array(PUBLIC).fill(200), 429]);
  }, 30_000);
});
