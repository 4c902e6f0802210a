// After the catalogue changes and the snapshot is rebuilt, what is no longer public is no longer
// served anywhere (docs/api-contract.md §2, §8). The only file that writes to a catalogue: its own fixture.
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCatalogue } from '../../src/catalogue/open-catalogue.ts';
import { readTruth, sortedIds, type Truth } from './catalogue-truth.ts';
import type { Batch, Category, Thread, Video } from './contract-shapes.ts';
import { createClient, decoded, header, type Client } from './http-client.ts';
import { LeakScanner, scanTree } from './leak-scan.ts';
import { followChain, idsOf } from './paging.ts';
import { startFixture, type Fixture } from './server-fixture.ts';

const enc = encodeURIComponent;
let fx: Fixture;
let api: Client;
let before: Truth;
/** made private by the test */
let hidden: string;
/** made unlisted by the test */
let unlisted: string;
/** a thread held by the test, on video `threadVideo` */
let heldThread: string;
let threadVideo: string;
const earlier: { listEtag?: string | undefined; total?: number; categories?: Category[]; comments?: number | undefined } = {};

beforeAll(async () => {
  fx = await startFixture({ seed: { videos: 120, seed: 7 } });
  api = createClient(fx.base);
  before = readTruth(fx.catalogue);
  const latest = sortedIds(before.publicVideos, 'latest');
  const withCategory = latest.filter((id) => before.videos.get(id)?.category !== null && !before.threads.has(id));
  hidden = withCategory[0] ?? '';
  unlisted = withCategory[1] ?? '';
  const threaded = [...before.threads.entries()].find(([id, threads]) =>
    before.videos.get(id)?.privacy === 'public' && threads.some((t) => (before.replies.get(t.id)?.length ?? 0) > 0));
  threadVideo = threaded?.[0] ?? '';
  heldThread = threaded?.[1].find((t) => (before.replies.get(t.id)?.length ?? 0) > 0)?.id ?? '';

  const list = await api.send('/v1/videos');
  earlier.listEtag = header(list, 'etag');
  earlier.total = (JSON.parse(decoded(list).toString('utf8')) as { paging: { total: number } }).paging.total;
  earlier.categories = (await api.json<{ data: Category[] }>('/v1/categories')).body.data;
  earlier.comments = (await api.json<{ data: Video }>(`/v1/videos/${enc(threadVideo)}`)).body.data.comments;

  const db = openCatalogue(fx.catalogue);
  try {
    db.prepare("UPDATE videos SET privacy = 'private' WHERE id = ?").run(hidden);
    db.prepare("UPDATE videos SET privacy = 'unlisted' WHERE id = ?").run(unlisted);
    db.prepare("UPDATE comments SET state = 'held' WHERE id = ?").run(heldThread);
  } finally {
    db.close();
  }
  await fx.rebuild();
  await fx.running.snapshots.refresh();
});
afterAll(async () => { await fx?.close(); });

describe('after a rebuild', () => {
  it('picked a public video, a second one and a thread with replies to change', () => {
    expect([hidden, unlisted, heldThread, threadVideo].every((x) => x !== '')).toBe(true);
  });

  it('answers 404 for a video made private, on every video route', async () => {
    for (const suffix of ['', '/playback', '/related', '/comments']) {
      expect((await api.send(`/v1/videos/${enc(hidden)}${suffix}`)).status, suffix).toBe(404);
    }
    const { body } = await api.json<Batch>(`/v1/videos/batch?ids=${enc(hidden)}`);
    expect(body).toEqual({ data: [], missing: [hidden] });
  });

  it('drops the video made private and the one made unlisted from lists, totals and category counts', async () => {
    const pages = await followChain<Video>(api, '/v1/videos?limit=50');
    const ids = idsOf(pages);
    expect(ids).not.toContain(hidden);
    expect(ids).not.toContain(unlisted);
    expect(pages[0]?.body.paging.total).toBe((earlier.total ?? 0) - 2);
    const categories = (await api.json<{ data: Category[] }>('/v1/categories')).body.data;
    const drop = new Map<string, number>();
    for (const id of [hidden, unlisted]) {
      const c = before.videos.get(id)?.category ?? '';
      drop.set(c, (drop.get(c) ?? 0) + 1);
    }
    for (const c of categories) {
      const was = earlier.categories?.find((x) => x.id === c.id)?.videoCount ?? -1;
      expect(c.videoCount, c.id).toBe(was - (drop.get(c.id) ?? 0));
    }
  });

  it('changes the ETag of the default list', async () => {
    expect(header(await api.send('/v1/videos'), 'etag')).not.toBe(earlier.listEtag);
  });

  it('serves the video made unlisted by id with noindex, and in no related list', async () => {
    const res = await api.send(`/v1/videos/${enc(unlisted)}`);
    expect(res.status).toBe(200);
    expect(header(res, 'x-robots-tag')).toMatch(/noindex/);
    const related = await followChain<Video>(api, `/v1/videos/${enc(sortedIds(readTruth(fx.catalogue).publicVideos, 'latest')[0] ?? '')}/related?limit=50`);
    expect(idsOf(related)).not.toContain(unlisted);
  });

  it('stops serving a thread that was held, with its replies, and lowers the video\'s comments count', async () => {
    const threads = (await followChain<Thread>(api, `/v1/videos/${enc(threadVideo)}/comments?limit=50`)).flatMap((p) => p.body.data);
    const served = new Set(threads.flatMap((t) => [t.id, ...t.replies.map((r) => r.id)]));
    expect(served.has(heldThread)).toBe(false);
    for (const reply of before.replies.get(heldThread) ?? []) expect(served.has(reply.id)).toBe(false);
    const now = (await api.json<{ data: Video }>(`/v1/videos/${enc(threadVideo)}`)).body.data.comments;
    expect(now).toBe((earlier.comments ?? 0) - 1 - (before.replies.get(heldThread)?.length ?? 0));
  });

  it('leaves the video made private and the held thread out of the current snapshot files', () => {
    const scanner = new LeakScanner();
    expect(scanTree(realpathSync(join(fx.distDir, 'snapshots', 'current')), scanner)).toBeGreaterThan(0);
    const heldReplies = (before.replies.get(heldThread) ?? []).map((r) => r.id);
    expect(scanner.find([hidden, heldThread, ...heldReplies])).toEqual([]);
  });
});
