// Replicas (docs/cdn.md, "Replicas"): a snapshot reaches an origin on another machine by a copy into
// its DIST_DIR under the snapshot's id, then a swap of `current`. A second server with its own
// DIST_DIR serves the copied snapshot with the same bytes and validators as the first; a copy cut
// short is refused (the verification of docs/reliability.md, Snapshots), the server keeps serving
// the snapshot it had and says so in /v1/status; copying it whole again and swapping recovers.
import { cpSync, mkdirSync, readdirSync, realpathSync, statSync, truncateSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startServer, type RunningServer } from '../../src/server/start-server.ts';
import { layoutOf } from '../../src/snapshot/layout.ts';
import { swapCurrent } from '../../src/snapshot/swap.ts';
import { freePort } from '../../scripts/bench/redis-server.ts';
import { runSql } from '../unit/support/snapshots.ts';
import { startFixture, type Fixture } from '../http/server-fixture.ts';

let primary: Fixture;
let replica: RunningServer;
let replicaBase: string;
let replicaRoot: string;

const currentId = (root: string) => basename(realpathSync(join(root, 'current')));

/** Copies snapshot `id` from the primary into the replica's DIST_DIR; `cut` truncates its largest file to half. */
function copySnapshot(id: string, cut = false): void {
  const from = join(layoutOf(primary.distDir).root, id);
  const to = join(replicaRoot, id);
  cpSync(from, to, { recursive: true });
  if (cut) {
    const largest = readdirSync(to).map((name) => join(to, name)).sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
    truncateSync(largest, Math.floor(statSync(largest).size / 2));
  }
}

async function page(base: string, path: string): Promise<{ status: number; etag: string | null; body: string }> {
  const response = await fetch(base + path);
  return { status: response.status, etag: response.headers.get('etag'), body: await response.text() };
}

beforeAll(async () => {
  primary = await startFixture({ seed: { videos: 60 } });
  const dist = join(primary.dir, 'replica-dist');
  replicaRoot = layoutOf(dist).root;
  mkdirSync(replicaRoot, { recursive: true });
  const port = await freePort();
  replicaBase = `http://127.0.0.1:${port}`;
  // the replica serves the primary's base URL: the copied pages name it
  replica = await startServer(loadConfig({ ...process.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_BASE_URL: primary.base, CATALOGUE_DB: primary.catalogue, DIST_DIR: dist, RATE_LIMIT_PUBLIC: '100000' }), { log: () => {} });
});
afterAll(async () => {
  await replica?.close();
  await primary?.close();
});

describe('a snapshot copied to another origin', () => {
  it('is served by the replica with the same bytes and validators once copied whole and swapped', async () => {
    expect((await page(replicaBase, '/v1/categories')).status).toBe(503);
    const id = currentId(layoutOf(primary.distDir).root);
    copySnapshot(id);
    swapCurrent(replicaRoot, id);
    await replica.snapshots.refresh();
    expect(replica.snapshots.current?.id).toBe(id);
    for (const path of ['/v1/categories', '/v1/videos?limit=20&sort=latest']) {
      const [a, b] = [await page(primary.base, path), await page(replicaBase, path)];
      expect(b.status).toBe(200);
      expect(b.etag).toBe(a.etag);
      expect(b.body).toBe(a.body);
    }
  });

  it('refuses a copy cut short, keeps serving the snapshot it had and says so; a whole copy recovers', async () => {
    const before = replica.snapshots.current!.id;
    runSql(primary.catalogue, "UPDATE videos SET title = title || ' (new)' WHERE id = (SELECT id FROM videos WHERE privacy = 'public' ORDER BY id LIMIT 1)");
    const next = (await primary.rebuild()).id;
    expect(next).not.toBe(before);
    copySnapshot(next, true);
    swapCurrent(replicaRoot, next);
    await replica.snapshots.refresh();
    expect(replica.snapshots.current?.id).toBe(before);
    expect((await page(replicaBase, '/v1/categories')).status).toBe(200);
    const status = await (await fetch(`${replicaBase}/v1/status`)).json() as { data: { components: { id: string; status: string; detail: string }[] } };
    const snapshot = status.data.components.find((c) => c.id === 'snapshot')!;
    expect(snapshot.status).toBe('degraded');
    expect(snapshot.detail).toContain(`Snapshot ${next} (current) is not served`);

    copySnapshot(next);
    await replica.snapshots.refresh();
    expect(replica.snapshots.current?.id).toBe(next);
    const [a, b] = [await page(primary.base, '/v1/videos?limit=20&sort=latest'), await page(replicaBase, '/v1/videos?limit=20&sort=latest')];
    expect(b.body).toBe(a.body);
  });
});
