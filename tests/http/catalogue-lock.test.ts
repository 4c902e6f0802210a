// The catalogue database never stalls the server (docs/reliability.md, "Catalogue database and
// status"): while another process holds an exclusive lock on the catalogue, partner traffic and
// static pages are answered at once (usage counted in memory), and the counts are written once the
// lock is released — delayed, not lost. Once, usage was written on the event loop with a 5 s busy
// timeout: every answer waited for the lock. The bound here is loose for CI; the figure for a 20 s
// lock is `npm run bench:lock`.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, readUsage } from '../../src/catalogue/api-keys.ts';
import { openCatalogue } from '../../src/catalogue/open-catalogue.ts';
import { createClient, type Client } from './http-client.ts';
import { startFixture, type Fixture } from './server-fixture.ts';

const LOCK_MS = 4000;
/** no request may take longer than this while the lock is held (the old code took the whole lock) */
const BOUND_MS = 1000;

let fx: Fixture;
let api: Client;
let app: { appId: string; key: string };

beforeAll(async () => {
  fx = await startFixture({ seed: { videos: 150 } });
  api = createClient(fx.base);
  const db = openCatalogue(fx.catalogue);
  try {
    app = createApp(db, 'Lock test', '2026-01-01T00:00:00Z');
  } finally {
    db.close();
  }
});
afterAll(async () => { await fx?.close(); });

/** Another process that takes an exclusive lock on the catalogue (as an import does: no other writer gets in) and holds it for `ms`. */
function holdExclusiveLock(path: string, ms: number): Promise<{ child: ChildProcess; released: Promise<void> }> {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1]);
    db.pragma('busy_timeout = 5000');
    db.exec('BEGIN EXCLUSIVE');
    db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('lock-test', ?)").run(String(Date.now()));
    process.stdout.write('locked\\n');
    setTimeout(() => { db.exec('COMMIT'); db.close(); process.stdout.write('released\\n'); }, Number(process.argv[2]));
  `;
  const child = spawn(process.execPath, ['-e', script, path, String(ms)], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const released = new Promise<void>((done, fail) => {
    child.on('exit', (code) => (code === 0 && out.includes('released') ? done() : fail(new Error(`the locking process exited with ${code}: ${out}`))));
  });
  return new Promise((done, fail) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('locked')) done({ child, released });
    });
    child.on('exit', (code) => fail(new Error(`the locking process exited with ${code} before locking: ${out}`)));
  });
}

const storedRequests = (path: string, appId: string): number => {
  const db = openCatalogue(path, { readonly: true });
  try {
    return readUsage(db, appId).reduce((sum, r) => sum + r.requests, 0);
  } finally {
    db.close();
  }
};

describe('an exclusive lock on the catalogue held by another process', () => {
  it('delays no answer, and the usage counted during it is written once it is released', async () => {
    const keyed = { authorization: `Bearer ${app.key}` };
    // the key is known and the app's stored usage read before the lock
    expect((await api.send('/v1/partner', { headers: keyed })).status).toBe(200);
    let counted = 1;

    const { released } = await holdExclusiveLock(fx.catalogue, LOCK_MS);
    const lockedAt = Date.now();
    const slowest = { ms: 0, target: '' };
    const statuses = new Set<number>();
    let requests = 0;
    // partner traffic beside static pages, for most of the lock (bounded: at most 2,000 requests)
    while (Date.now() - lockedAt < LOCK_MS - 500 && requests < 2000) {
      for (const [target, headers] of [
        ['/v1/categories', keyed], ['/v1/videos?limit=3&sort=views', keyed], ['/v1/partner', keyed], ['/v1/categories', {}], [`/v1/videos?limit=2&n=${requests}`, {}],
      ] as const) {
        const started = performance.now();
        const res = await api.send(target, { headers });
        const ms = performance.now() - started;
        if (ms > slowest.ms) Object.assign(slowest, { ms, target });
        statuses.add(res.status);
        requests++;
        if (headers === keyed) counted++;
      }
    }
    expect(requests).toBeGreaterThan(20);
    expect([...statuses]).toEqual([200]);
    expect(slowest.ms, `slowest: ${slowest.target}`).toBeLessThan(BOUND_MS);
    // nothing could be written during the lock
    await released;
    expect(Date.now() - lockedAt).toBeGreaterThanOrEqual(LOCK_MS - 50);

    // after the release the counts are written within a few flushes, every one of them
    const deadline = Date.now() + 10_000;
    let stored = storedRequests(fx.catalogue, app.appId);
    while (stored < counted && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      stored = storedRequests(fx.catalogue, app.appId);
    }
    expect(stored).toBe(counted);
  });
});
