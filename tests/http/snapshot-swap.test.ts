// A snapshot swap under load (docs/reliability.md, "Snapshots"): while `current` moves from one
// snapshot to another and back, a request every 20 ms (a prerendered page, then a dynamic query)
// is answered 200 every time, and none waits longer than the bound. Loading a snapshot on the
// event loop in one piece, as before, held every request for the whole load: about as long as
// `loadSnapshot` of the same snapshot, measured here first. The bound is a share of that time, so
// that it holds on a shared, loaded machine and still fails on a load in one piece.
import { realpathSync } from 'node:fs';
import { request } from 'node:http';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSnapshot, loadSnapshot } from '../../src/server/snapshot-store.ts';
import { swapCurrent } from '../../src/snapshot/swap.ts';
import { runSql } from '../unit/support/snapshots.ts';
import { startFixture, type Fixture } from './server-fixture.ts';

/**
 * The worst wait allowed, as a share of a load in one piece. The model is built in steps and the
 * pages are not parsed; the search index still loads in one step, and with the garbage collector's
 * pauses it makes the worst wait (0.29–0.38 of a load in one piece on a loaded machine).
 */
const SWAP_BOUND_SHARE = 0.5;

let fx: Fixture;
let first: string;
let second: string;

function get(path: string): Promise<number> {
  const { hostname, port } = new URL(fx.base);
  return new Promise((resolve) => {
    const req = request({ host: hostname, port, path, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}

beforeAll(async () => {
  fx = await startFixture({ seed: { videos: 4000, seed: 5 } });
  const root = join(fx.distDir, 'snapshots');
  first = basename(realpathSync(join(root, 'current')));
  runSql(fx.catalogue, "UPDATE videos SET views = views + 1 WHERE id = (SELECT id FROM videos WHERE privacy = 'public' ORDER BY id LIMIT 1)");
  second = (await fx.rebuild()).id;
  await fx.running.snapshots.refresh();
}, 600_000);
afterAll(async () => { await fx?.close(); });

/** A GET with its status, Retry-After, content type and body. */
function fetchOnce(path: string): Promise<{ status: number; retryAfter: string | undefined; type: string | undefined; body: string }> {
  const { hostname, port } = new URL(fx.base);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { body += c; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], type: res.headers['content-type'], body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a snapshot swap under load', () => {
  it(`answers every request, none slower than ${SWAP_BOUND_SHARE} of a load in one piece`, async () => {
    const root = join(fx.distDir, 'snapshots');
    expect(fx.running.snapshots.current?.id).toBe(second);
    const started = performance.now();
    const once = loadSnapshot(join(root, first), first, { cacheBytes: fx.config.snapshotCacheBytes });
    const inOnePiece = performance.now() - started;
    closeSnapshot(once);

    const samples: { ms: number; status: number }[] = [];
    let stop = false;
    const ticker = (async () => {
      for (let n = 0; !stop && n < 5000; n++) {
        const at = performance.now();
        void get(n % 2 === 0 ? '/v1/categories' : `/v1/videos?limit=${7 + (n % 11)}&sort=likes`).then((status) => samples.push({ ms: performance.now() - at, status }));
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    for (const to of [first, second]) {
      swapCurrent(root, to);
      const until = performance.now() + 120_000;
      while (fx.running.snapshots.current?.id !== to && performance.now() < until) await new Promise((r) => setTimeout(r, 20));
      expect(fx.running.snapshots.current?.id).toBe(to);
    }
    await new Promise((r) => setTimeout(r, 200));
    stop = true;
    await ticker;
    await new Promise((r) => setTimeout(r, 200));
    const worst = Math.max(...samples.map((s) => s.ms));
    expect(samples.length).toBeGreaterThan(10);
    expect(samples.filter((s) => s.status !== 200)).toEqual([]);
    expect(worst, `worst ${worst.toFixed(0)} ms over ${samples.length} requests; a load in one piece took ${inOnePiece.toFixed(0)} ms`).toBeLessThan(SWAP_BOUND_SHARE * inOnePiece);
  }, 300_000);
});

describe('a start-up', () => {
  it('serves prerendered pages before the model is loaded, answers dynamic queries 503 with Retry-After until it is, then 200', async () => {
    const expected = await fetchOnce('/v1/categories');
    expect(expected.status).toBe(200);
    const running = await fx.restart({ whole: false });
    // listening, with the snapshot's pages served and its model still loading
    const page = await fetchOnce('/v1/categories');
    const completeAtPage = running.snapshots.current?.complete;
    const dynamic = await fetchOnce('/v1/videos?limit=7&sort=likes');
    const completeAtDynamic = running.snapshots.current?.complete;
    expect(completeAtPage).toBe(false);
    expect(page.status).toBe(200);
    expect(page.body).toBe(expected.body);
    if (!completeAtDynamic) {
      expect(dynamic.status).toBe(503);
      expect(dynamic.retryAfter).toBe('2');
      expect(dynamic.type).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(dynamic.body)).toMatchObject({ status: 503, detail: expect.stringContaining('still loading') });
    }
    await running.snapshots.loaded;
    expect(running.snapshots.current?.complete).toBe(true);
    const later = await fetchOnce('/v1/videos?limit=7&sort=likes');
    expect(later.status).toBe(200);
    expect(JSON.parse(later.body).data).toHaveLength(7);
  }, 300_000);
});
