// Purge-by-tag headers over a real server (docs/cdn.md, Purging): every prerendered answer carries
// Cache-Tag and Surrogate-Key naming what it holds, the same from the fast path and from node:http
// (Connection: close goes there), for the canonical URL and any other spelling of it, on a 304 too;
// answers that are not prerendered carry none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { promisify } from 'node:util';
import { openCatalogue } from '../../src/catalogue/open-catalogue.ts';
import { readTruth, sortedIds } from './catalogue-truth.ts';
import { startFixture, type Fixture } from './server-fixture.ts';

let fx: Fixture;
let videoId: string;

beforeAll(async () => {
  fx = await startFixture({ seed: { videos: 40 } });
  videoId = sortedIds(readTruth(fx.catalogue).publicVideos, 'latest')[0]!;
});
afterAll(async () => { await fx?.close(); });

function get(target: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  const { hostname, port } = new URL(fx.base);
  return new Promise((resolve, reject) => {
    request({ host: hostname, port, path: target, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    }).on('error', reject).end();
  });
}

describe('cache tags', () => {
  it('names the video a page holds, alike from the fast path and node:http, and on a 304', async () => {
    const fast = await get(`/v1/videos/${videoId}`, { connection: 'keep-alive' });
    const slow = await get(`/v1/videos/${videoId}`, { connection: 'close' });
    expect(fast.status).toBe(200);
    expect(fast.headers['cache-tag']).toBe(`api,video:${videoId}`);
    expect(fast.headers['surrogate-key']).toBe(`api video:${videoId}`);
    expect(slow.headers['cache-tag']).toBe(fast.headers['cache-tag']);
    expect(slow.headers['surrogate-key']).toBe(fast.headers['surrogate-key']);
    const again = await get(`/v1/videos/${videoId}`, { connection: 'keep-alive', 'if-none-match': String(fast.headers['etag']) });
    expect(again.status).toBe(304);
    expect(again.headers['cache-tag']).toBe(fast.headers['cache-tag']);
  });

  it('names a list by its query whatever the spelling of its URL', async () => {
    const canonical = await get('/v1/videos?limit=20&sort=latest', { connection: 'keep-alive' });
    const other = await get('/v1/videos', { connection: 'keep-alive' });
    expect(canonical.status).toBe(200);
    expect(canonical.headers['cache-tag']).toBe('api,list:/v1/videos,list:/v1/videos?sort=latest');
    expect(other.headers['cache-tag']).toBe(canonical.headers['cache-tag']);
  });

  it('npm run changes -- --tags prints the tags of what a build changed, which the new answers carry', async () => {
    const db = openCatalogue(fx.catalogue);
    try {
      db.prepare("UPDATE videos SET title = title || ' (retitled)' WHERE id = ?").run(videoId);
    } finally {
      db.close();
    }
    await fx.rebuild();
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['scripts/changes.ts', '--tags'], { env: { ...process.env, DIST_DIR: fx.distDir } });
    const tags = stdout.split('\n').filter(Boolean);
    expect(tags).toContain(`video:${videoId}`);
    expect(tags).toContain('list:/v1/videos?sort=latest');
    expect(tags).not.toContain('api');
    expect(tags).toEqual([...tags].sort());
    expect(stderr).toMatch(/^changes: \d+ tags name the \d+ URLs changed/);
    const page = await get(`/v1/videos/${videoId}`);
    expect(String(page.headers['cache-tag']).split(',').filter((t) => tags.includes(t))).toEqual([`video:${videoId}`]);
  });

  it('puts none on answers that are not prerendered', async () => {
    const search = await get('/v1/search?q=a');
    expect(search.status).toBe(200);
    expect(search.headers['cache-tag']).toBeUndefined();
    expect((await get('/v1/videos/no-such-video')).headers['cache-tag']).toBeUndefined();
  });
});
