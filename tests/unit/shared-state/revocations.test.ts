// Revocations through a real Redis (src/shared-state/revocations.ts): a published hash is seen by a
// watcher within its poll; what was seen stays in force while Redis is down and after it restarts
// empty; publishing again is harmless.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { startRedis, type RedisProcess } from '../../../scripts/bench/redis-server.ts';
import { connectRedis, whenReady } from '../../../src/shared-state/redis-connection.ts';
import { publishRevocations, watchRevocations } from '../../../src/shared-state/revocations.ts';
import { shareOf, sharedStoreComponent } from '../../../src/shared-state/shared-rate-limiter.ts';

let redis: RedisProcess;
let writer: Redis;
let reader: Redis;

beforeAll(async () => {
  redis = await startRedis();
  writer = connectRedis(redis.url, { log: () => {} });
  reader = connectRedis(redis.url, { log: () => {} });
  await Promise.all([whenReady(writer, 10_000), whenReady(reader, 10_000)]);
});
afterAll(async () => {
  writer?.disconnect();
  reader?.disconnect();
  await redis?.close();
});

describe('shared revocations', () => {
  it('are seen by every watcher, and stay in force while Redis is down and after it restarts empty', async () => {
    const watcher = watchRevocations(reader, { pollMs: 100 });
    try {
      await watcher.refresh();
      expect(watcher.has('a'.repeat(64))).toBe(false);
      await publishRevocations(writer, ['a'.repeat(64), 'b'.repeat(64)]);
      await publishRevocations(writer, ['a'.repeat(64)]);
      await watcher.refresh();
      expect(watcher.has('a'.repeat(64))).toBe(true);
      expect(watcher.has('b'.repeat(64))).toBe(true);
      expect(watcher.has('c'.repeat(64))).toBe(false);

      await redis.stop();
      await watcher.refresh();
      expect(watcher.has('a'.repeat(64))).toBe(true);
      await redis.start();
      await whenReady(reader, 10_000);
      await watcher.refresh();
      expect(watcher.has('a'.repeat(64))).toBe(true);
    } finally {
      watcher.close();
    }
  });
});

describe('the local share and the status component', () => {
  it('divides each budget among the origins, at least one request each', () => {
    expect(shareOf(600, 3)).toBe(200);
    expect(shareOf(10, 3)).toBe(3);
    expect(shareOf(2, 5)).toBe(1);
    expect(shareOf(600, 0)).toBe(600);
  });

  it('says whether limits are shared, by how many origins, and since when they are local', () => {
    expect(sharedStoreComponent({ shared: true, origins: 3, localSince: undefined, reason: undefined }, 0)).toMatchObject({ status: 'operational', detail: expect.stringContaining('shared by 3 origins') });
    const local = sharedStoreComponent({ shared: false, origins: 3, localSince: 1000, reason: 'connect ECONNREFUSED' }, 31_000);
    expect(local.status).toBe('degraded');
    expect(local.detail).toContain('for 30 s');
    expect(local.detail).toContain('1/3 of the budget');
    expect(local.detail).not.toContain('ECONNREFUSED');
  });
});
