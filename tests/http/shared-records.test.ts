// Live state, alerts, developer keys and partner usage shared through a real Redis by two origins
// on SEPARATE catalogue files (docs/reliability.md, Shared state): only Redis can carry the change
// from the catalogue the operator commands run on (a's) to the other origin (b). A channel gone
// live (npm run import) shows on b within 5 s; a new key (npm run keys -- create) and its revocation
// within 2 s; an alert within 2 s (4 s in /v1/status, whose answers are kept 2 s); usage counted
// on both is counted once, the same on both, and survives a restart of an origin; with Redis
// stopped b keeps answering from the last read and says so.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCatalogue } from '../../src/catalogue/open-catalogue.ts';
import { startRedis, type RedisProcess } from '../../scripts/bench/redis-server.ts';
import { until } from '../unit/support/until.ts';
import { startFixture, type Fixture } from './server-fixture.ts';

let redis: RedisProcess;
let a: Fixture;
let b: Fixture;
let channel: string;

beforeAll(async () => {
  redis = await startRedis({ persist: true });
  const env = { SHARED_STATE_STORE: redis.url };
  [a, b] = await Promise.all([startFixture({ seed: { videos: 40 }, env }), startFixture({ seed: { videos: 40 }, env })]);
  const db = openCatalogue(a.catalogue);
  try {
    // a channel that is not live in either catalogue
    channel = (db.prepare("SELECT username FROM channels WHERE username NOT IN (SELECT channel FROM live_streams WHERE state = 'live') ORDER BY username LIMIT 1").get() as { username: string }).username;
  } finally {
    db.close();
  }
}, 120_000);
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await redis?.close();
});

const run = (script: string, args: string[]) => promisify(execFile)(process.execPath, [script, ...args],
  { env: { ...process.env, CATALOGUE_DB: a.catalogue, SHARED_STATE_STORE: redis.url } });

const json = async (fx: Fixture, path: string, headers: Record<string, string> = {}) => {
  const response = await fetch(fx.base + path, { headers });
  return { status: response.status, body: await response.json() as { data: Record<string, unknown> } };
};
const liveOn = async (fx: Fixture) => ((await json(fx, '/v1/live')).body.data as unknown as { channel: { username: string }; title: string }[]).find((l) => l.channel.username === channel);
const alertsOn = async (fx: Fixture) => (await json(fx, '/v1/status')).body.data.alerts as { id: string }[];
const sharedComponent = async (fx: Fixture) => ((await json(fx, '/v1/status')).body.data.components as { id: string; status: string; detail: string }[]).find((c) => c.id === 'shared-state');

function importLines(...records: object[]): string {
  const file = join(a.dir, `records-${Date.now()}.ndjson`);
  writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return file;
}

describe('two origins on separate catalogues, one Redis', () => {
  it('a channel gone live on the operator\'s catalogue shows on the other origin within 5 s', async () => {
    expect(await liveOn(b)).toBeUndefined();
    const { stdout } = await run('scripts/import.ts', [importLines({ kind: 'live', channel, state: 'live', title: 'Shared go-live', startedAt: '2026-01-01T00:00:00Z', viewers: 5 })]);
    const liveAt = Date.now();
    expect(stdout).toMatch(/told Redis: \d+ live records? and \d+ alerts?, seen by every origin within 2 s/);
    expect(await until(async () => (await liveOn(b))?.title === 'Shared go-live', 5000)).toBe(true);
    expect(Date.now() - liveAt).toBeLessThanOrEqual(5000);
    expect(await liveOn(a)).toMatchObject({ title: 'Shared go-live' });
    // b's own catalogue does not have it: only Redis told b
    const db = openCatalogue(b.catalogue);
    try {
      expect(db.prepare('SELECT title FROM live_streams WHERE channel = ?').get(channel)).not.toEqual({ title: 'Shared go-live' });
    } finally {
      db.close();
    }
  }, 30_000);

  it('an operator alert reaches the other origin within 2 s and its /v1/status within 4 s (answers are kept 2 s)', async () => {
    await run('scripts/import.ts', [importLines({ kind: 'alert', id: 'shared-alert', severity: 'major', title: 'Shared alert', message: 'Told through Redis', startsAt: '2020-01-01T00:00:00Z' })]);
    const at = Date.now();
    // the origin reads Redis every second; its /v1/status answers are kept 2 s more (answer-cache.ts)
    expect(await until(async () => (await alertsOn(b)).some((x) => x.id === 'shared-alert'), 4000)).toBe(true);
    expect(Date.now() - at).toBeLessThanOrEqual(4000);
    expect((await sharedComponent(b))?.status).toBe('operational');
  }, 30_000);

  it('a new key works on the other origin within 2 s, its revocation is refused there within 2 s, and its usage is counted once across both, through a restart', async () => {
    const { stdout } = await run('scripts/keys.ts', ['create', 'Shared partner']);
    const createdAt = Date.now();
    expect(stdout).toMatch(/told Redis: every origin accepts the key within 2 s/);
    const key = /^(vpk_\S+)$/m.exec(stdout)![1]!;
    const appId = /created app (app_\w+)/.exec(stdout)![1]!;
    const auth = { authorization: `Bearer ${key}` };
    expect(await until(async () => (await json(b, '/v1/partner', auth)).status === 200, 2000)).toBe(true);
    expect(Date.now() - createdAt).toBeLessThanOrEqual(2000);

    // usage: 5 on a, 3 on b; both show 8 (/v1/videos), counted once
    for (let i = 0; i < 5; i++) expect((await fetch(`${a.base}/v1/videos?limit=${i + 1}`, { headers: auth })).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await fetch(`${b.base}/v1/videos?limit=${i + 1}`, { headers: auth })).status).toBe(200);
    const videosOn = async (fx: Fixture) => ((await json(fx, '/v1/partner', auth)).body.data.requests as { endpoints: { endpoint: string; requests: number }[] })
      .endpoints.find((e) => e.endpoint === '/v1/videos')?.requests ?? 0;
    expect(await until(async () => (await videosOn(a)) === 8 && (await videosOn(b)) === 8, 8000)).toBe(true);

    // two more on a, then a restarts at once: its close stores them; nothing is lost or doubled
    for (let i = 0; i < 2; i++) await (await fetch(`${a.base}/v1/videos?limit=${i + 10}`, { headers: auth })).arrayBuffer();
    await a.restart();
    expect(await until(async () => (await videosOn(a)) === 10 && (await videosOn(b)) === 10, 8000)).toBe(true);
    // neither catalogue file holds the counts: Redis does
    for (const fx of [a, b]) {
      const db = openCatalogue(fx.catalogue);
      try {
        expect(db.prepare('SELECT COUNT(*) AS n FROM api_usage WHERE app_id = ?').get(appId)).toEqual({ n: 0 });
      } finally {
        db.close();
      }
    }
    // npm run keys -- list shows the usage counted in Redis (the /v1/partner calls count too)
    const listed = await run('scripts/keys.ts', ['list']);
    const requests = Number(new RegExp(`${appId}  "Shared partner"  created \\S+  (\\d+) requests`).exec(listed.stdout)?.[1]);
    expect(requests).toBeGreaterThanOrEqual(10);

    await run('scripts/keys.ts', ['revoke', appId]);
    const revokedAt = Date.now();
    expect(await until(async () => (await json(b, '/v1/partner', auth)).status === 401 && (await json(a, '/v1/partner', auth)).status === 401, 2000)).toBe(true);
    expect(Date.now() - revokedAt).toBeLessThanOrEqual(2000);
  }, 60_000);

  it('with Redis stopped, the other origin keeps the last live state and alerts, answers every request and says so; it recovers by itself', async () => {
    await redis.stop();
    try {
      const statuses: number[] = [];
      const end = Date.now() + 5000;
      let degraded: { status: string; detail: string } | undefined;
      while (Date.now() < end) {
        statuses.push((await fetch(`${b.base}/v1/live`)).status);
        const component = await sharedComponent(b);
        if (component?.status === 'degraded') degraded = component;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(statuses.every((s) => s === 200)).toBe(true);
      expect(degraded?.detail).toMatch(/Live state, alerts and developer keys are the ones last read from Redis \d+ s ago/);
      expect((await liveOn(b))?.title).toBe('Shared go-live');
      expect((await alertsOn(b)).some((x) => x.id === 'shared-alert')).toBe(true);
    } finally {
      await redis.start();
    }
    expect(await until(async () => (await sharedComponent(b))?.status === 'operational', 10_000)).toBe(true);
    // Redis kept its records (appendonly): still live on both
    expect((await liveOn(a))?.title).toBe('Shared go-live');
    expect((await liveOn(b))?.title).toBe('Shared go-live');
  }, 40_000);
});
