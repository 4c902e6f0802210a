// Live state, alerts and keys through a real Redis (src/shared-state/shared-records.ts,
// publish-catalogue.ts): what an operator command publishes from one catalogue is read by a
// watcher on another connection; the last good read stays in force while Redis is down, after it
// restarts empty, and when what Redis holds does not parse; only the catalogue's public fields go.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp, revokeKeys } from '../../../src/catalogue/api-keys.ts';
import { openCatalogue } from '../../../src/catalogue/open-catalogue.ts';
import { seedCatalogue } from '../../../src/catalogue/seed-catalogue.ts';
import { readAlerts } from '../../../src/catalogue/read-alerts.ts';
import { readLiveStreams } from '../../../src/catalogue/read-live.ts';
import { startRedis, type RedisProcess } from '../../../scripts/bench/redis-server.ts';
import { publishCatalogue, withStore, notShared, StoreUnreachable } from '../../../src/shared-state/publish-catalogue.ts';
import { connectRedis, whenReady } from '../../../src/shared-state/redis-connection.ts';
import { watchRevocations } from '../../../src/shared-state/revocations.ts';
import { publishLive, watchSharedRecords } from '../../../src/shared-state/shared-records.ts';
import { sharedStateComponent, STALE_MS } from '../../../src/shared-state/start-shared-state.ts';
import { tempDirs } from '../support/fixtures.ts';

let redis: RedisProcess;
let writer: Redis;
let reader: Redis;
const dirs = tempDirs();

beforeAll(async () => {
  redis = await startRedis();
  writer = connectRedis(redis.url, { log: () => {} });
  reader = connectRedis(redis.url, { log: () => {} });
  await Promise.all([whenReady(writer, 10_000), whenReady(reader, 10_000)]);
});
afterEach(() => dirs.cleanup());
afterAll(async () => {
  writer?.disconnect();
  reader?.disconnect();
  await redis?.close();
});

function catalogue() {
  const path = join(dirs.make(), 'catalogue.db');
  seedCatalogue(path, { videos: 20, seed: 5 });
  return openCatalogue(path);
}

describe('shared live state, alerts and keys', () => {
  it('are read by another origin as the catalogue that published them has them, public fields only', async () => {
    const db = catalogue();
    const watcher = watchSharedRecords(reader, { pollMs: 60_000 });
    try {
      await watcher.refresh();
      expect(watcher.live()).toBeUndefined();
      expect(watcher.alerts()).toBeUndefined();
      const channel = (db.prepare('SELECT username FROM channels ORDER BY username LIMIT 1').get() as { username: string }).username;
      // an offline record with leftover live fields: only what its state shows may go out
      db.prepare("INSERT OR REPLACE INTO live_streams (channel, state, title, started_at, scheduled_for, viewers) VALUES (?, 'offline', 'Was on', '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z', 99)").run(channel);
      db.prepare("INSERT INTO alerts (id, severity, title, message, starts_at, ends_at, components) VALUES ('a1', 'minor', 'Slow', 'Thumbnails are slow', '2026-01-01T00:00:00Z', NULL, '[\"search\"]')").run();
      const app = createApp(db, 'Shared app', '2026-01-01T00:00:00Z');
      revokeKeys(db, createApp(db, 'Revoked app', '2026-01-01T00:00:00Z').appId, '2026-01-02T00:00:00Z');

      const sent = await publishCatalogue(writer, db, ['live', 'alerts', 'keys']);
      expect(sent).toEqual({ live: readLiveStreams(db).length, alerts: readAlerts(db).length, keys: 2, revoked: 1 });
      await watcher.refresh();
      expect(watcher.live()).toEqual(readLiveStreams(db));
      const offline = watcher.live()!.find((l) => l.channel === channel)!;
      expect(offline).toEqual({ channel, state: 'offline', title: 'Was on' });
      expect(watcher.alerts()).toEqual(readAlerts(db));
      expect(watcher.alerts()!.find((a) => a.id === 'a1')).toEqual({ id: 'a1', severity: 'minor', title: 'Slow', message: 'Thumbnails are slow', startsAt: '2026-01-01T00:00:00Z', components: ['search'] });
      const shared = watcher.keys(app.prefix);
      expect(shared).toEqual([{ hash: expect.stringMatching(/^[0-9a-f]{64}$/), prefix: app.prefix, appId: app.appId, appName: 'Shared app', revoked: false }]);
      // the key itself never goes to Redis, only its hash
      const stored = JSON.stringify(await writer.hgetall('vpa:keys'));
      expect(stored).not.toContain(app.key);
      // the revoked key goes to the revoked set every origin refuses
      const revocations = watchRevocations(reader, { pollMs: 60_000 });
      await revocations.refresh();
      const revokedHash = (db.prepare("SELECT key_hash FROM api_keys WHERE revoked_at IS NOT NULL").get() as { key_hash: string }).key_hash;
      expect(revocations.has(revokedHash)).toBe(true);
      revocations.close();
    } finally {
      watcher.close();
      db.close();
    }
  });

  it('keep the last good read while Redis is down, after it restarts empty, and when what it holds does not parse', async () => {
    const logged: string[] = [];
    const watcher = watchSharedRecords(reader, { pollMs: 60_000, log: (m) => logged.push(m) });
    try {
      await publishLive(writer, [{ channel: 'alice', state: 'live', title: 'On air', startedAt: '2026-01-01T00:00:00Z', viewers: 3 }]);
      await watcher.refresh();
      expect(watcher.live()?.map((l) => l.title)).toEqual(['On air']);

      await writer.multi().set('vpa:live', '{not json').set('vpa:state:version', 'broken').exec();
      await watcher.refresh();
      expect(watcher.live()?.map((l) => l.title)).toEqual(['On air']);
      expect(logged.join('\n')).toMatch(/live records in Redis .* are not valid; keeping the last good ones/);

      const before = watcher.readAt;
      await redis.stop();
      await watcher.refresh();
      expect(watcher.live()?.map((l) => l.title)).toEqual(['On air']);
      expect(watcher.readAt).toBe(before);
      await redis.start();
      await Promise.all([whenReady(reader, 10_000), whenReady(writer, 10_000)]);
      await watcher.refresh();
      expect(watcher.readAt).toBeGreaterThan(before);
      expect(watcher.live()?.map((l) => l.title)).toEqual(['On air']);
      // a record written by other means passes only with the fields the API shows, each for its state
      await writer.multi().set('vpa:live', JSON.stringify([{ channel: 'bob', state: 'offline', title: 'Off', viewers: 4, startedAt: '2026-01-01T00:00:00Z', privateNote: 'not for the public' }]))
        .set('vpa:alerts', JSON.stringify([{ id: 'x', severity: 'info', title: 'T', message: 'M', startsAt: '2026-01-01T00:00:00Z', components: [], internal: 'no' }]))
        .set('vpa:state:version', 'other').exec();
      await watcher.refresh();
      expect(watcher.live()).toEqual([{ channel: 'bob', state: 'offline', title: 'Off' }]);
      expect(watcher.alerts()).toEqual([{ id: 'x', severity: 'info', title: 'T', message: 'M', startsAt: '2026-01-01T00:00:00Z', components: [] }]);
      // published again: seen again
      await publishLive(writer, []);
      await watcher.refresh();
      expect(watcher.live()).toEqual([]);
    } finally {
      watcher.close();
    }
  });

  it('npm run share-state sends the catalogue\'s state again to a Redis that lost it; without a store it says what to set', async () => {
    const db = catalogue();
    const app = createApp(db, 'Resent', '2026-01-01T00:00:00Z');
    const path = db.name;
    db.close();
    await writer.flushall();
    const watcher = watchSharedRecords(reader, { pollMs: 60_000 });
    try {
      const run = promisify(execFile);
      const { stdout } = await run(process.execPath, ['scripts/share-state.ts', '--db', path], { env: { ...process.env, SHARED_STATE_STORE: redis.url } });
      expect(stdout).toMatch(/^share-state: sent to redis:\/\/127\.0\.0\.1:\d+\/?: \d+ live records?, \d+ alerts?, 1 developer key \(0 revoked\); every origin sees them within 2 s$/m);
      await watcher.refresh();
      const check = openCatalogue(path);
      try {
        expect(watcher.live()).toEqual(readLiveStreams(check));
        expect(watcher.alerts()).toEqual(readAlerts(check));
      } finally {
        check.close();
      }
      expect(watcher.keys(app.prefix)?.map((k) => k.appId)).toEqual([app.appId]);
      const failed = await run(process.execPath, ['scripts/share-state.ts', '--db', path], { env: { ...process.env, SHARED_STATE_STORE: '', RATE_LIMIT_STORE: '' } }).catch((e: { code: number; stderr: string }) => e);
      expect(failed).toMatchObject({ code: 2, stderr: expect.stringMatching(/share-state: no shared store: set SHARED_STATE_STORE=redis:/) });
    } finally {
      watcher.close();
    }
  }, 30_000);

  it('an operator command that cannot reach Redis fails saying what is changed and what to run again', async () => {
    const error = await withStore('redis://:hunter2@127.0.0.1:1', 'test', notShared('npm run share-state'), async () => 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnreachable);
    expect((error as Error).message).toMatch(/^the catalogue is changed, but Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1 could not be reached .*run npm run share-state once Redis answers$/);
    expect((error as Error).message).not.toContain('hunter2');
  }, 10_000);
});

describe('the shared-state component', () => {
  const shared = { shared: true, origins: 2, localSince: undefined, reason: undefined };
  it('is operational while limits and records come from Redis, and says what it shares', () => {
    const c = sharedStateComponent(shared, 10_000, 10_500);
    expect(c.status).toBe('operational');
    expect(c.detail).toMatch(/shared by 2 origins.*Live state, alerts, developer keys, revocations and partner usage are shared through Redis/);
  });

  it('is degraded once the records are older than their bound, saying how old they are', () => {
    const c = sharedStateComponent(shared, 10_000, 10_000 + STALE_MS + 2000);
    expect(c.status).toBe('degraded');
    expect(c.detail).toMatch(/the ones last read from Redis 5 s ago/);
    const never = sharedStateComponent({ ...shared, shared: false, localSince: 0 }, Number.NEGATIVE_INFINITY, 4000);
    expect(never.detail).toMatch(/never read from Redis yet/);
    expect(never.detail).toMatch(/locally at its share/);
  });
});
