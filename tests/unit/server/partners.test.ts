// createPartners (src/server/partners.ts), on a real catalogue thread: keys checked against the
// last read (a new key looked up with a fresh read), usage counted in memory per app, UTC day and
// endpoint, merged with the stored counts, and written by the thread on flush and on close — kept
// and written later while the catalogue is locked or gone, never lost, never counted twice.
import Database from 'better-sqlite3';
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addUsage, createApp, readUsage, revokeKeys, type CreatedKey, type UsageRow } from '../../../src/catalogue/api-keys.ts';
import { openCatalogue } from '../../../src/catalogue/open-catalogue.ts';
import { startCatalogueThread, type CatalogueThread } from '../../../src/server/catalogue-thread.ts';
import { createPartners, type Partners } from '../../../src/server/partners.ts';
import { tempDirs } from '../support/fixtures.ts';

const dirs = tempDirs();
const running: Partners[] = [];
const threads: CatalogueThread[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.close()));
  await Promise.all(threads.splice(0).map((t) => t.close()));
  dirs.cleanup();
});

/** 2026-03-01T23:59:58Z */
const LATE = Date.UTC(2026, 2, 1, 23, 59, 58);

/** A catalogue file with `names` apps; returns their keys. */
function catalogueWith(path: string, ...names: string[]): CreatedKey[] {
  const db = openCatalogue(path);
  try {
    return names.map((name) => createApp(db, name, '2026-03-01T00:00:00Z'));
  } finally {
    db.close();
  }
}

function withCatalogue<T>(path: string, work: (db: ReturnType<typeof openCatalogue>) => T): T {
  const db = openCatalogue(path);
  try {
    return work(db);
  } finally {
    db.close();
  }
}

/** Partners on their own thread, reads and writes driven by hand; `reads` counts the reads of keys. */
async function partnersOf(path: string, options: { flushMs?: number; poll?: boolean; lockReportMs?: number } = {}) {
  const clock = { now: LATE };
  const logged: string[] = [];
  const thread = startCatalogueThread(path);
  threads.push(thread);
  const counted = { keys: 0 };
  const counting: CatalogueThread = { path, close: thread.close, run: (operation, argument) => {
    if (operation === 'keys') counted.keys++;
    return thread.run(operation, argument);
  } };
  const partners = createPartners(counting, { ttlMs: 2000, poll: false, ...options, now: () => clock.now, log: (m) => logged.push(m) });
  running.push(partners);
  await partners.ready();
  return { partners, clock, logged, counted };
}

const byEndpoint = (rows: readonly UsageRow[]) => rows.map((r) => `${r.day} ${r.endpoint} ${r.requests}`).sort();
const stored = (path: string, appId: string) => withCatalogue(path, (db) => readUsage(db, appId)).reduce((n, r) => n + r.requests, 0);

describe('createPartners verify', () => {
  it('accepts a valid key and names its app', async () => {
    const path = join(dirs.make(), 'catalogue.db');
    const [app] = catalogueWith(path, 'Weather wall');
    const { partners } = await partnersOf(path);
    expect(partners.verify(app!.key)).toEqual({ appId: app!.appId, appName: 'Weather wall' });
    expect(partners.failure).toBeUndefined();
  });

  it('rejects a malformed, an unknown and a near-miss key', async () => {
    const path = join(dirs.make(), 'catalogue.db');
    const [app] = catalogueWith(path, 'A');
    const { partners } = await partnersOf(path);
    const key = app!.key;
    const lastChanged = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    for (const token of ['', 'vpk_short', `${key}x`, key.slice(0, -1), key.toUpperCase() === key ? key.toLowerCase() : key.toUpperCase(),
      `vpk_${'Q'.repeat(32)}`, lastChanged, ` ${key}`]) {
      expect(partners.verify(token), token).toBeUndefined();
      expect(await partners.lookup(token), token).toBeUndefined();
    }
    expect(partners.verify(key)).toBeDefined();
  });

  it('refuses a revoked key from the next read of the keys, and not before', async () => {
    const path = join(dirs.make(), 'catalogue.db');
    const [app, other] = catalogueWith(path, 'A', 'B');
    const { partners } = await partnersOf(path);
    expect(partners.verify(app!.key)).toBeDefined();
    withCatalogue(path, (db) => revokeKeys(db, app!.prefix, '2026-03-01T00:00:01Z'));
    expect(partners.verify(app!.key)).toBeDefined();
    await partners.ready();
    expect(partners.verify(app!.key)).toBeUndefined();
    expect(await partners.lookup(app!.key)).toBeUndefined();
    expect(partners.verify(other!.key)).toBeDefined();
  });

  it('accepts a key created after it started at once, by looking it up with a fresh read', async () => {
    const path = join(dirs.make(), 'catalogue.db');
    catalogueWith(path, 'A');
    const { partners } = await partnersOf(path);
    const [late] = catalogueWith(path, 'Late');
    expect(partners.verify(late!.key)).toBeUndefined();
    expect(await partners.lookup(late!.key)).toEqual({ appId: late!.appId, appName: 'Late' });
    expect(partners.verify(late!.key)).toBeDefined();
  });

  it('reads the keys at most a few times a second for a flood of made-up keys', async () => {
    const path = join(dirs.make(), 'catalogue.db');
    catalogueWith(path, 'A');
    const { partners, counted } = await partnersOf(path);
    const before = counted.keys;
    const started = Date.now();
    await Promise.all(Array.from({ length: 200 }, (_, i) => partners.lookup(`vpk_${String(i).padStart(32, 'Q')}`)));
    await partners.lookup(`vpk_${'Z'.repeat(32)}`);
    const seconds = (Date.now() - started) / 1000;
    expect(counted.keys - before).toBeLessThanOrEqual(Math.ceil(seconds * 4) + 1);
  });

  it('rejects every key, and reports the catalogue missing, while there is none', async () => {
    const path = join(dirs.make(), 'missing.db');
    const { partners } = await partnersOf(path);
    expect(await partners.lookup(`vpk_${'Q'.repeat(32)}`)).toBeUndefined();
    expect(partners.failure).toMatchObject({ kind: 'missing', message: expect.stringMatching(/cannot read developer keys from the catalogue/) });
  });
});

describe('createPartners usage', () => {
  it('counts per UTC day and endpoint, and merges the counts not yet stored with the stored ones', async () => {
    const path = join(dirs.make(), 'catalogue.db');
    const [app, other] = catalogueWith(path, 'A', 'B');
    withCatalogue(path, (db) => addUsage(db, [
      { appId: app!.appId, day: '2026-03-01', endpoint: '/v1/videos/{id}', requests: 10 },
      { appId: app!.appId, day: '2026-02-28', endpoint: '/v1/videos', requests: 1 },
    ]));
    const { partners, clock } = await partnersOf(path);
    await partners.prepare(app!.appId);
    await partners.prepare(other!.appId);
    partners.count(app!.appId, '/v1/videos/{id}');
    partners.count(app!.appId, '/v1/videos/{id}');
    partners.count(other!.appId, '/v1/videos/{id}');
    clock.now += 2000; // past midnight UTC
    partners.count(app!.appId, '/v1/videos/{id}');
    expect(byEndpoint(partners.usage(app!.appId))).toEqual([
      '2026-02-28 /v1/videos 1',
      '2026-03-01 /v1/videos/{id} 12',
      '2026-03-02 /v1/videos/{id} 1',
    ]);
    expect(byEndpoint(partners.usage(other!.appId))).toEqual(['2026-03-01 /v1/videos/{id} 1']);
    expect(partners.usage('app_unknown')).toEqual([]);
  });

  it('writes the pending counts to the catalogue on flush, without counting them twice or missing them meanwhile', async () => {
    const path = join(dirs.make(), 'catalogue.db');
    const [app] = catalogueWith(path, 'A');
    const { partners } = await partnersOf(path);
    await partners.prepare(app!.appId);
    for (let i = 0; i < 3; i++) partners.count(app!.appId, '/v1/videos/{id}');
    expect(stored(path, app!.appId)).toBe(0);
    const writing = partners.flush();
    expect(byEndpoint(partners.usage(app!.appId))).toEqual(['2026-03-01 /v1/videos/{id} 3']);
    await writing;
    expect(withCatalogue(path, (db) => readUsage(db, app!.appId))).toEqual([{ appId: app!.appId, day: '2026-03-01', endpoint: '/v1/videos/{id}', requests: 3 }]);
    expect(byEndpoint(partners.usage(app!.appId))).toEqual(['2026-03-01 /v1/videos/{id} 3']);
    await partners.flush();
    expect(stored(path, app!.appId)).toBe(3);
    // a fresh read of the stored counts includes the write once
    await new Promise((r) => setTimeout(r, 50));
    await partners.prepare(app!.appId);
    expect(byEndpoint(partners.usage(app!.appId))).toEqual(['2026-03-01 /v1/videos/{id} 3']);
  });

  it('flushes on close, so a new instance on the same catalogue reads the counts back', async () => {
    const path = join(dirs.make(), 'catalogue.db');
    const [app] = catalogueWith(path, 'A');
    const first = (await partnersOf(path)).partners;
    first.count(app!.appId, '/v1/categories');
    first.count(app!.appId, '/v1/videos');
    first.count(app!.appId, '/v1/videos');
    await first.close();
    const second = (await partnersOf(path)).partners;
    await second.prepare(app!.appId);
    expect(byEndpoint(second.usage(app!.appId))).toEqual(['2026-03-01 /v1/categories 1', '2026-03-01 /v1/videos 2']);
    second.count(app!.appId, '/v1/videos');
    expect(byEndpoint(second.usage(app!.appId))).toEqual(['2026-03-01 /v1/categories 1', '2026-03-01 /v1/videos 3']);
  });

  it('flushes on its own every flushMs', async () => {
    const path = join(dirs.make(), 'catalogue.db');
    const [app] = catalogueWith(path, 'A');
    const { partners } = await partnersOf(path, { flushMs: 50, poll: true });
    partners.count(app!.appId, '/v1/live');
    const until = Date.now() + 3000;
    while (stored(path, app!.appId) === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(stored(path, app!.appId)).toBe(1);
  });

  it('keeps the counts, logs once and reports the failure while the catalogue is gone, then stores them', async () => {
    const dir = dirs.make();
    const path = join(dir, 'catalogue.db');
    const [app] = catalogueWith(path, 'A');
    const { partners, logged } = await partnersOf(path);
    renameSync(path, join(dir, 'aside.db'));
    partners.count(app!.appId, '/v1/videos');
    await partners.flush();
    await partners.flush();
    expect(partners.failure).toMatchObject({ kind: 'missing', message: expect.stringMatching(/cannot store API usage in the catalogue/) });
    expect(logged.filter((m) => m.includes('cannot store API usage'))).toHaveLength(1);
    expect(byEndpoint(partners.usage(app!.appId))).toEqual(['2026-03-01 /v1/videos 1']);

    renameSync(join(dir, 'aside.db'), path);
    await partners.flush();
    expect(partners.failure).toBeUndefined();
    expect(stored(path, app!.appId)).toBe(1);
  });

  it('keeps the counts while another connection holds an exclusive lock, reports it only once it lasts, and stores them after', async () => {
    const path = join(dirs.make(), 'catalogue.db');
    const [app] = catalogueWith(path, 'A');
    const quiet = await partnersOf(path);
    const reporting = await partnersOf(path, { lockReportMs: 0 });
    const locker = new Database(path);
    locker.exec('BEGIN EXCLUSIVE');
    locker.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('lock', 'held')").run();
    try {
      for (const { partners } of [quiet, reporting]) {
        partners.count(app!.appId, '/v1/videos');
        const started = performance.now();
        await partners.flush();
        expect(performance.now() - started).toBeLessThan(2000);
      }
      expect(quiet.partners.failure).toBeUndefined();
      expect(reporting.partners.failure).toMatchObject({ kind: 'locked' });
      expect(byEndpoint(quiet.partners.usage(app!.appId))).toEqual(['2026-03-01 /v1/videos 1']);
    } finally {
      locker.exec('COMMIT');
      locker.close();
    }
    expect(stored(path, app!.appId)).toBe(0);
    await quiet.partners.flush();
    await reporting.partners.flush();
    expect(stored(path, app!.appId)).toBe(2);
    expect(reporting.partners.failure).toBeUndefined();
  });
});
