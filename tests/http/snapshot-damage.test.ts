// A page file damaged under a running server (a partial copy to a replica, a disk fault) is never
// served: every page answers with exactly its own bytes or a 503 problem, on the fast path and
// through node:http, for identity, br and gzip bodies, and no byte of another request (a Bearer
// key sent just before) can appear; /v1/status names the fault (docs/reliability.md, "Snapshots").
// The snapshot is read from disk by range (SNAPSHOT_CACHE_MB=0), where files can change under it.
import { readFileSync, realpathSync, truncateSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pageFileName, pageFileNames, pageShardsOf, type PageKind } from '../../src/snapshot/layout.ts';
import type { Manifest, Range } from '../../src/snapshot/manifest.ts';
import { readManifest } from '../unit/support/snapshots.ts';
import { startFixture, type Fixture } from './server-fixture.ts';

type Kind = PageKind;
const SECRET = `Bearer vpa_${'s3cr3t'.repeat(8)}`;

let fx: Fixture;
let snapshotDir: string;
let manifest: Manifest;
/** every page file's bytes, by name */
const originals = new Map<string, Buffer>();

interface Answer { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }

/** One request on its own connection, bytes as sent (no decompression, no description check). */
function get(target: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  const { hostname, port } = new URL(fx.base);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path: target, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  fx = await startFixture({ seed: { videos: 24, seed: 11 }, env: { SNAPSHOT_CACHE_MB: '0' } });
  snapshotDir = realpathSync(join(fx.distDir, 'snapshots', 'current'));
  manifest = readManifest(snapshotDir);
  for (const name of pageFileNames(pageShardsOf(manifest.files))) originals.set(name, readFileSync(join(snapshotDir, name)));
});
// The same inode the server holds open, rewritten whole: the next test starts from intact files.
afterEach(() => { for (const [name, bytes] of originals) writeFileSync(join(snapshotDir, name), bytes); });
afterAll(async () => { await fx?.close(); });

const ENCODING: Record<Kind, string | undefined> = { body: undefined, br: 'br', gzip: 'gzip' };
const rangeOf = (key: string, kind: Kind): Range | undefined => (kind === 'body' ? manifest.pages[key]!.body : manifest.pages[key]![kind]);
const bytesOf = (kind: Kind, [offset, length, , shard]: Range) => originals.get(pageFileName(kind, shard))!.subarray(offset, offset + length);
/** the shard whose `kind` file is the largest (it holds pages of every kind) */
const largestShard = (kind: Kind) => [...originals.keys()].filter((name) => name === pageFileName(kind, Number(name.slice(6, 9))))
  .map((name) => Number(name.slice(6, 9))).sort((a, b) => originals.get(pageFileName(kind, b))!.length - originals.get(pageFileName(kind, a))!.length)[0]!;

/**
 * Asks for every page that has a `kind` representation, on the fast path and through node:http
 * (Connection: close is handed to it), with a request carrying a secret before each; every
 * answer must be that page's exact bytes, or a 503 problem when `broken` says its range is.
 */
async function expectExactOrProblem(kind: Kind, broken: (range: Range) => boolean): Promise<{ served: number; refused: number }> {
  let served = 0;
  let refused = 0;
  for (const key of Object.keys(manifest.pages)) {
    const range = rangeOf(key, kind);
    if (!range) continue;
    for (const path of ['fast', 'node:http'] as const) {
      // another client's request head, with its key, just before: it must never come back
      await get(`/v1/videos?limit=3&secret=${SECRET.length}`, { authorization: SECRET, 'x-note': SECRET });
      const headers: Record<string, string> = { ...(ENCODING[kind] && { 'accept-encoding': ENCODING[kind] }), ...(path === 'node:http' && { connection: 'close' }) };
      const res = await get(key, headers);
      expect(res.body.includes('s3cr3t'), `${key} (${path})`).toBe(false);
      if (broken(range)) {
        expect(res.status, `${key} (${path})`).toBe(503);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.headers['retry-after']).toBe('30');
        expect(res.headers['etag']).toBeUndefined();
        expect(JSON.parse(res.body.toString('utf8'))).toMatchObject({ status: 503, title: 'Service unavailable', detail: expect.stringContaining('cannot be read intact') });
        refused++;
      } else {
        expect(res.status, `${key} (${path})`).toBe(200);
        expect(res.headers['content-encoding']).toBe(ENCODING[kind]);
        expect(res.body.equals(bytesOf(kind, range)), `${key} (${path}): exact bytes`).toBe(true);
        served++;
      }
    }
  }
  return { served, refused };
}

describe('a page file damaged under the running server', () => {
  it.each(['body', 'br', 'gzip'] as const)('a truncated %s shard: pages before the cut and in other shards are served exactly, the rest are 503 problems', async (kind) => {
    const shard = largestShard(kind);
    const file = join(snapshotDir, pageFileName(kind, shard));
    const cut = Math.floor(originals.get(pageFileName(kind, shard))!.length / 2);
    truncateSync(file, cut);
    const { served, refused } = await expectExactOrProblem(kind, ([offset, length, , s]) => s === shard && offset + length > cut);
    expect(served).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  });

  it('a byte changed inside a page (same length): that page is a 503 problem, its neighbours are served exactly', async () => {
    const victim = Object.keys(manifest.pages).find((key) => manifest.pages[key]!.body[1] > 100)!;
    const [offset, length, , shard] = manifest.pages[victim]!.body;
    const damaged = Buffer.from(originals.get(pageFileName('body', shard))!);
    damaged[offset + Math.floor(length / 2)]! ^= 0x01;
    writeFileSync(join(snapshotDir, pageFileName('body', shard)), damaged);
    const { refused } = await expectExactOrProblem('body', ([o, , , s]) => o === offset && s === shard);
    expect(refused).toBe(2);
  });

  it('a HEAD of a page reads nothing and still answers its headers; the damage is named in /v1/status', async () => {
    const key = Object.keys(manifest.pages)[0]!;
    truncateSync(join(snapshotDir, pageFileName('body', manifest.pages[key]!.body[3])), 0);
    const head = await get(key, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(manifest.pages[key]!.body[1]));
    expect((await get(key)).status).toBe(503);
    const status = JSON.parse((await get('/v1/status')).body.toString('utf8')) as { data: { components: { id: string; status: string; detail: string }[] } };
    const snapshot = status.data.components.find((c) => c.id === 'snapshot')!;
    expect(snapshot.status).toBe('degraded');
    expect(snapshot.detail).toMatch(/page reads? (was|were) refused \(answered 503\), the last because pages-\d{3}\.bin: /);
    expect(snapshot.detail).not.toContain(snapshotDir);
  });
});
