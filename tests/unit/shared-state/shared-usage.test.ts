// Partner usage in a real Redis (src/shared-state/shared-usage.ts) through createPartners, as two
// origins on separate catalogue files count it: each batch is added once even when sent again
// under its id, both origins read the same totals, a closed origin's last counts are stored, and
// while Redis is down counts wait in memory (and go to the origin's own catalogue if it must stop).
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp, readUsage, type CreatedKey, type UsageRow } from '../../../src/catalogue/api-keys.ts';
import { openCatalogue } from '../../../src/catalogue/open-catalogue.ts';
import { startCatalogueThread, type CatalogueThread } from '../../../src/server/catalogue-thread.ts';
import { createPartners, type Partners } from '../../../src/server/partners.ts';
import { startRedis, type RedisProcess } from '../../../scripts/bench/redis-server.ts';
import { connectRedis, whenReady } from '../../../src/shared-state/redis-connection.ts';
import { createSharedUsage, readUsageTotals } from '../../../src/shared-state/shared-usage.ts';
import { tempDirs } from '../support/fixtures.ts';

let redis: RedisProcess;
const clients: Redis[] = [];
const threads: CatalogueThread[] = [];
const dirs = tempDirs();

async function client(): Promise<Redis> {
  const c = connectRedis(redis.url, { log: () => {} });
  clients.push(c);
  await whenReady(c, 10_000);
  return c;
}

beforeAll(async () => {
  redis = await startRedis({ persist: true });
});
afterEach(async () => {
  await Promise.all(threads.splice(0).map((t) => t.close()));
  dirs.cleanup();
});
afterAll(async () => {
  for (const c of clients) c.disconnect();
  await redis?.close();
});

const total = (rows: readonly UsageRow[]) => rows.reduce((n, r) => n + r.requests, 0);

/** An origin: its own catalogue file holding `app`'s key (as a copy would), partners with usage in Redis. */
async function origin(app: CreatedKey | undefined, name = 'Shared usage'): Promise<{ partners: Partners; path: string; app: CreatedKey; logged: string[] }> {
  const path = join(dirs.make(), 'catalogue.db');
  const db = openCatalogue(path);
  let created: CreatedKey;
  try {
    created = createApp(db, name, '2026-01-01T00:00:00Z');
    if (app) db.prepare('UPDATE apps SET id = ? WHERE id = ?').run(app.appId, created.appId);
  } finally {
    db.close();
  }
  const thread = startCatalogueThread(path);
  threads.push(thread);
  const logged: string[] = [];
  const partners = createPartners(thread, { poll: false, usageStore: createSharedUsage(await client()), log: (m) => logged.push(m) });
  await partners.ready();
  return { partners, path, app: app ?? created, logged };
}

describe('shared partner usage', () => {
  it('adds a batch once, however many times it is sent under its id', async () => {
    const store = createSharedUsage(await client());
    const rows = [{ appId: 'app_once', day: '2026-01-01', endpoint: '/v1/videos', requests: 3 }, { appId: 'app_once', day: '2026-01-01', endpoint: '/v1/search', requests: 2 }];
    await store.add(rows, 'batch-1');
    await store.add(rows, 'batch-1');
    await store.add([{ ...rows[0]!, requests: 1 }], 'batch-2');
    expect(await store.read('app_once')).toEqual([
      { appId: 'app_once', day: '2026-01-01', endpoint: '/v1/search', requests: 2 },
      { appId: 'app_once', day: '2026-01-01', endpoint: '/v1/videos', requests: 4 },
    ]);
    expect(await readUsageTotals(await client(), ['app_once', 'app_none'])).toEqual(new Map([['app_once', 6], ['app_none', 0]]));
  });

  it('counts once across two origins on separate catalogues, and a closed origin\'s last counts are kept', async () => {
    const a = await origin(undefined);
    const b = await origin(a.app);
    for (let i = 0; i < 5; i++) a.partners.count(a.app.appId, '/v1/videos');
    for (let i = 0; i < 3; i++) b.partners.count(a.app.appId, '/v1/search');
    await Promise.all([a.partners.flush(), b.partners.flush()]);
    await Promise.all([a.partners.prepare(a.app.appId), b.partners.prepare(a.app.appId)]);
    expect(total(a.partners.usage(a.app.appId))).toBe(8);
    expect(total(b.partners.usage(a.app.appId))).toBe(8);

    // counted, not flushed, then the origin stops (a restart): close stores them
    for (let i = 0; i < 4; i++) a.partners.count(a.app.appId, '/v1/videos');
    await a.partners.close();
    const again = await origin(a.app);
    await again.partners.prepare(a.app.appId);
    expect(total(again.partners.usage(a.app.appId))).toBe(12);
    await b.partners.close();
    // nothing went to either catalogue file: Redis holds the usage
    for (const path of [a.path, b.path]) {
      const db = openCatalogue(path);
      try {
        expect(readUsage(db, a.app.appId)).toEqual([]);
      } finally {
        db.close();
      }
    }
    await again.partners.close();
  });

  it('keeps counts in memory while Redis is down and stores them once when it answers again; a stop while it is down writes them to the catalogue', async () => {
    const a = await origin(undefined, 'Down');
    for (let i = 0; i < 2; i++) a.partners.count(a.app.appId, '/v1/videos');
    await a.partners.flush();
    await a.partners.prepare(a.app.appId);
    await redis.stop();
    try {
      for (let i = 0; i < 3; i++) a.partners.count(a.app.appId, '/v1/videos');
      await a.partners.flush();
      expect(a.logged.join('\n')).toMatch(/cannot store API usage in Redis/);
      // still answered, from what it counted itself
      expect(total(a.partners.usage(a.app.appId))).toBe(5);
      expect(a.partners.failure).toBeUndefined();
    } finally {
      await redis.start();
    }
    await Promise.all(clients.map((c) => whenReady(c, 10_000)));
    await a.partners.flush();
    await a.partners.flush();
    expect(a.logged.join('\n')).toMatch(/stored in Redis again/);
    expect(await readUsageTotals(clients[0]!, [a.app.appId])).toEqual(new Map([[a.app.appId, 5]]));

    const b = await origin(undefined, 'Stopped while down');
    b.partners.count(b.app.appId, '/v1/videos');
    await redis.stop();
    try {
      await b.partners.close();
    } finally {
      await redis.start();
    }
    expect(b.logged.join('\n')).toMatch(/1 counted requests could not be stored in Redis before shutdown: written to this origin's catalogue instead/);
    const db = openCatalogue(b.path);
    try {
      expect(total(readUsage(db, b.app.appId))).toBe(1);
    } finally {
      db.close();
    }
    await a.partners.close();
  }, 30_000);

  it('keeps what Redis counted across its own restart (appendonly)', async () => {
    const store = createSharedUsage(await client());
    await store.add([{ appId: 'app_durable', day: '2026-01-02', endpoint: '/v1/videos', requests: 7 }], 'durable-1');
    await redis.stop();
    await redis.start();
    await Promise.all(clients.map((c) => whenReady(c, 10_000)));
    expect(total(await store.read('app_durable'))).toBe(7);
  }, 20_000);
});
