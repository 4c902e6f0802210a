// createPartners (src/server/partners.ts): keys checked against the catalogue (cached for a TTL, so
// revocations and new keys show within seconds), usage counted in memory per app, UTC day and
// endpoint, merged with the stored counts, and written to the catalogue on flush and on close.
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { addUsage, createApp, readUsage, revokeKeys, type CreatedKey, type UsageRow } from '../../../src/catalogue/api-keys.ts';
import { openCatalogue } from '../../../src/catalogue/open-catalogue.ts';
import { createPartners, type Partners } from '../../../src/server/partners.ts';
import { tempDirs } from '../support/fixtures.ts';

const dirs = tempDirs();
const running: Partners[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const p of running.splice(0)) p.close();
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

function partnersOf(path: string, options: { ttlMs?: number; flushMs?: number } = {}) {
  const clock = { now: LATE };
  const logged: string[] = [];
  const partners = createPartners(path, { ttlMs: 2000, flushMs: 60_000, ...options, now: () => clock.now, log: (m) => logged.push(m) });
  running.push(partners);
  return { partners, clock, logged };
}

const byEndpoint = (rows: readonly UsageRow[]) => rows.map((r) => `${r.day} ${r.endpoint} ${r.requests}`).sort();

describe('createPartners verify', () => {
  it('accepts a valid key and names its app', () => {
    const path = join(dirs.make(), 'catalogue.db');
    const [app] = catalogueWith(path, 'Weather wall');
    const { partners } = partnersOf(path);
    expect(partners.verify(app!.key)).toEqual({ appId: app!.appId, appName: 'Weather wall' });
    expect(partners.error).toBeUndefined();
  });

  it('rejects a malformed, an unknown and a near-miss key', () => {
    const path = join(dirs.make(), 'catalogue.db');
    const [app] = catalogueWith(path, 'A');
    const { partners } = partnersOf(path);
    const key = app!.key;
    const lastChanged = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    for (const token of ['', 'vpk_short', `${key}x`, key.slice(0, -1), key.toUpperCase() === key ? key.toLowerCase() : key.toUpperCase(),
      `vpk_${'Q'.repeat(32)}`, lastChanged, ` ${key}`]) {
      expect(partners.verify(token), token).toBeUndefined();
    }
    expect(partners.verify(key)).toBeDefined();
  });

  it('refuses a revoked key once the key cache has expired, and not before', () => {
    const path = join(dirs.make(), 'catalogue.db');
    const [app, other] = catalogueWith(path, 'A', 'B');
    const { partners, clock } = partnersOf(path, { ttlMs: 2000 });
    expect(partners.verify(app!.key)).toBeDefined();
    withCatalogue(path, (db) => revokeKeys(db, app!.prefix, '2026-03-01T00:00:01Z'));
    clock.now += 1999;
    expect(partners.verify(app!.key)).toBeDefined();
    clock.now += 1;
    expect(partners.verify(app!.key)).toBeUndefined();
    expect(partners.verify(other!.key)).toBeDefined();
  });

  it('accepts a key created after it started, once the key cache has expired', () => {
    const path = join(dirs.make(), 'catalogue.db');
    catalogueWith(path, 'A');
    const { partners, clock } = partnersOf(path, { ttlMs: 2000 });
    expect(partners.verify(`vpk_${'Q'.repeat(32)}`)).toBeUndefined();
    const [late] = catalogueWith(path, 'Late');
    expect(partners.verify(late!.key)).toBeUndefined();
    clock.now += 2000;
    expect(partners.verify(late!.key)).toEqual({ appId: late!.appId, appName: 'Late' });
  });

  it('rejects every key, and reports the error, while the catalogue cannot be read at first', () => {
    const path = join(dirs.make(), 'missing.db');
    const { partners } = partnersOf(path);
    expect(partners.verify(`vpk_${'Q'.repeat(32)}`)).toBeUndefined();
    expect(partners.error).toMatch(/cannot read developer keys from the catalogue/);
  });
});

describe('createPartners usage', () => {
  it('counts per UTC day and endpoint, and merges the counts not yet stored with the stored ones', () => {
    const path = join(dirs.make(), 'catalogue.db');
    const [app, other] = catalogueWith(path, 'A', 'B');
    withCatalogue(path, (db) => addUsage(db, [
      { appId: app!.appId, day: '2026-03-01', endpoint: '/v1/videos/{id}', requests: 10 },
      { appId: app!.appId, day: '2026-02-28', endpoint: '/v1/videos', requests: 1 },
    ]));
    const { partners, clock } = partnersOf(path);
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

  it('writes the pending counts to the catalogue on flush, without counting them twice', () => {
    const path = join(dirs.make(), 'catalogue.db');
    const [app] = catalogueWith(path, 'A');
    const { partners } = partnersOf(path);
    for (let i = 0; i < 3; i++) partners.count(app!.appId, '/v1/videos/{id}');
    expect(withCatalogue(path, (db) => readUsage(db, app!.appId))).toEqual([]);
    partners.flush();
    expect(withCatalogue(path, (db) => readUsage(db, app!.appId))).toEqual([{ appId: app!.appId, day: '2026-03-01', endpoint: '/v1/videos/{id}', requests: 3 }]);
    expect(byEndpoint(partners.usage(app!.appId))).toEqual(['2026-03-01 /v1/videos/{id} 3']);
    partners.flush();
    expect(withCatalogue(path, (db) => readUsage(db, app!.appId))[0]?.requests).toBe(3);
  });

  it('flushes on close, so a new instance on the same catalogue reads the counts back', () => {
    const path = join(dirs.make(), 'catalogue.db');
    const [app] = catalogueWith(path, 'A');
    const first = partnersOf(path).partners;
    first.count(app!.appId, '/v1/categories');
    first.count(app!.appId, '/v1/videos');
    first.count(app!.appId, '/v1/videos');
    first.close();
    const second = partnersOf(path).partners;
    expect(byEndpoint(second.usage(app!.appId))).toEqual(['2026-03-01 /v1/categories 1', '2026-03-01 /v1/videos 2']);
    second.count(app!.appId, '/v1/videos');
    expect(byEndpoint(second.usage(app!.appId))).toEqual(['2026-03-01 /v1/categories 1', '2026-03-01 /v1/videos 3']);
  });

  it('flushes on its own every flushMs', () => {
    vi.useFakeTimers();
    const path = join(dirs.make(), 'catalogue.db');
    const [app] = catalogueWith(path, 'A');
    const { partners } = partnersOf(path, { flushMs: 2000 });
    partners.count(app!.appId, '/v1/live');
    vi.advanceTimersByTime(1999);
    expect(withCatalogue(path, (db) => readUsage(db, app!.appId))).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(withCatalogue(path, (db) => readUsage(db, app!.appId)).map((r) => r.requests)).toEqual([1]);
  });

  it('keeps the counts, logs once and reports the error while the catalogue cannot be written, then stores them', () => {
    const dir = dirs.make();
    const path = join(dir, 'catalogue.db');
    const [app] = catalogueWith(path, 'A');
    const { partners, logged } = partnersOf(path);
    partners.verify(app!.key); // opens the connection
    renameSync(path, join(dir, 'aside.db'));
    partners.count(app!.appId, '/v1/videos');
    partners.flush();
    partners.flush();
    expect(partners.error).toMatch(/cannot store API usage in the catalogue/);
    expect(logged.filter((m) => m.includes('cannot store API usage'))).toHaveLength(1);
    expect(byEndpoint(partners.usage(app!.appId))).toEqual(['2026-03-01 /v1/videos 1']);

    renameSync(join(dir, 'aside.db'), path);
    partners.flush();
    expect(partners.error).toBeUndefined();
    expect(withCatalogue(path, (db) => readUsage(db, app!.appId)).map((r) => r.requests)).toEqual([1]);
  });
});
