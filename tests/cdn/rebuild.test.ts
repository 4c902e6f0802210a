// A rebuild under load, through nginx and the origin: the catalogue changes, the snapshot is
// rebuilt and swapped, nginx is reloaded onto it, while clients keep reading pages and following
// their `next` links. No request may fail and no link may lead nowhere. And the build's list of
// changed URLs is exactly the set of pages whose bytes differ between the two snapshots.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCatalogue } from '../../src/catalogue/open-catalogue.ts';
import { layoutOf, MANIFEST_FILE, pageFile } from '../../src/snapshot/layout.ts';
import type { Manifest } from '../../src/snapshot/manifest.ts';
import { readSiteFileStamps } from '../../src/snapshot/site-file-stamps.ts';
import { currentSnapshotId } from '../../src/snapshot/swap.ts';
import { STATIC_DIR } from '../../src/snapshot/static-files.ts';
import { seededRandom } from '../http/http-client.ts';
import { startFixture, type Fixture } from '../http/server-fixture.ts';
import { startNginx, type NginxFront } from './nginx-front.ts';

let fx: Fixture;
let front: NginxFront;

beforeAll(async () => {
  fx = await startFixture({ seed: { videos: 150 }, staticFiles: true, env: { TRUST_PROXY: 'true' } });
  front = await startNginx(fx.distDir, [fx.base]);
});
afterAll(async () => {
  await front?.close();
  await fx?.close();
});

const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')) as Manifest;

interface Outcome { failures: string[]; latencies: number[]; retried: number }

/**
 * Clients reading random pages through nginx, following `next` links, until `stop` says so. Like
 * browsers (RFC 9112 §9.3.1), a client retries a GET once when its kept-alive connection is closed
 * before any answer came: what the old nginx workers do to idle connections when they hand over.
 */
async function load(targets: readonly string[], clients: number, stop: () => boolean): Promise<Outcome> {
  const failures: string[] = [];
  const latencies: number[] = [];
  let retried = 0;
  const get = async (url: string, retry = true): Promise<Response | undefined> => {
    const started = performance.now();
    let res: Response;
    try {
      res = await fetch(url);
    } catch (error) {
      if (retry) {
        retried++;
        return get(url, false);
      }
      failures.push(`${(error as Error).message} for ${url}`);
      return undefined;
    }
    await res.arrayBuffer();
    latencies.push(performance.now() - started);
    if (res.status !== 200) failures.push(`${res.status} for ${url}`);
    return res;
  };
  await Promise.all(Array.from({ length: clients }, async (_, c) => {
    const random = seededRandom(c + 1);
    while (!stop()) {
      const res = await get(front.base + targets[Math.floor(random() * targets.length)]!);
      const next = res?.headers.get('link')?.match(/^<([^>]+)>; rel="next"$/)?.[1];
      if (next) await get(front.base + new URL(next).pathname + new URL(next).search);
    }
  }));
  return { failures, latencies, retried };
}

describe('a rebuild while clients read through nginx', () => {
  it('fails no request, breaks no link, and lists exactly the URLs whose bodies changed', async () => {
    const layout = layoutOf(fx.distDir);
    const before = join(layout.root, currentSnapshotId(layout.root)!);
    const keys = Object.keys(manifestOf(before).pages);
    const db = openCatalogue(fx.catalogue);
    const changed = db.prepare("SELECT id FROM videos WHERE privacy = 'public' ORDER BY id LIMIT 6").pluck().all() as string[];
    // clients read every kind of page, but not the one video that is about to become private
    const targets = [...keys.filter((key, i) => i % 3 === 0 && !key.includes(changed[5]!)), '/v1/search?q=talk', '/v1/discovery', '/v1/channels?limit=5'];

    let done = false;
    const running = load(targets, 6, () => done);
    await new Promise((resolve) => setTimeout(resolve, 500));
    // the catalogue changes: new titles for a few videos, one video made private
    db.prepare(`UPDATE videos SET title = title || ' (remastered)' WHERE id IN (${changed.slice(0, 5).map(() => '?').join(',')})`).run(...changed.slice(0, 5));
    db.prepare("UPDATE videos SET privacy = 'private' WHERE id = ?").run(changed[5]);
    db.close();
    const summary = await fx.rebuild();
    await front.reload();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    done = true;
    const { failures, latencies, retried } = await running;

    expect(failures).toEqual([]);
    expect(retried, 'connections closed by the reload, retried once each').toBeLessThan(latencies.length / 20);
    expect(latencies.length).toBeGreaterThan(100);

    // the list of changed URLs is exactly the pages whose bytes differ (or that appeared or went)
    const after = join(layout.root, summary.id);
    expect(after).not.toBe(before);
    const [old, now] = [manifestOf(before), manifestOf(after)];
    const bytes = (dir: string, key: string) => readFileSync(join(dir, STATIC_DIR, pageFile(key)));
    const differing = [...new Set([...Object.keys(old.pages), ...Object.keys(now.pages)])].filter((key) => {
      const inOld = key in old.pages;
      const inNew = key in now.pages;
      return inOld !== inNew || !bytes(before, key).equals(bytes(after, key));
    });
    // and the sitemaps and feeds whose bytes changed (src/snapshot/site-file-stamps.ts)
    const [oldSite, newSite] = [readSiteFileStamps(before)!, readSiteFileStamps(after)!];
    differing.push(...[...new Set([...oldSite.keys(), ...newSite.keys()])].filter((key) => oldSite.get(key) !== newSite.get(key)));
    differing.sort();
    const listed = readFileSync(summary.changesFile!, 'utf8').split('\n').filter(Boolean).map((url) => url.slice(fx.base.length)).sort();
    expect(listed).toEqual(differing);
    expect(listed).toContain(`/v1/videos/${changed[0]}`);
    expect(listed).toContain(`/v1/videos/${changed[5]}`);
    expect(listed).toContain('/sitemaps/videos-1.xml');
    expect(existsSync(join(after, STATIC_DIR, pageFile(`/v1/videos/${changed[5]}`)))).toBe(false);

    // and nginx now serves the new snapshot: the private video is gone, the new title is there
    expect((await fetch(`${front.base}/v1/videos/${changed[5]}`)).status).toBe(404);
    expect(((await (await fetch(`${front.base}/v1/videos/${changed[0]}`)).json()) as { data: { title: string } }).data.title).toMatch(/\(remastered\)$/);
  });
});
