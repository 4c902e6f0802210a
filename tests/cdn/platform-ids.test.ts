// Ids starting with `.` or `-` in the snapshot's static files and through a real nginx: no file
// is a dot file (static hosts hide them), every page of such an id is served by nginx from its
// file, with the origin's bytes and headers, and path forms nginx cannot vouch for go to the origin.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutOf, MANIFEST_FILE, pageFile } from '../../src/snapshot/layout.ts';
import type { Manifest } from '../../src/snapshot/manifest.ts';
import { STATIC_DIR } from '../../src/snapshot/static-files.ts';
import { createClient, frontDifferences, header, mapConcurrent, type Client } from '../http/http-client.ts';
import { startFixture, type Fixture } from '../http/server-fixture.ts';
import { startNginx, type NginxFront } from './nginx-front.ts';

let fx: Fixture;
let front: NginxFront;
let viaNginx: Client;
let direct: Client;
let manifest: Manifest;
let current: string;

beforeAll(async () => {
  fx = await startFixture({ ndjson: 'tests/fixtures/platform-ids.ndjson', staticFiles: true, env: { TRUST_PROXY: 'true' } });
  front = await startNginx(fx.distDir, [fx.base]);
  viaNginx = createClient(front.base);
  direct = createClient(fx.base);
  current = layoutOf(fx.distDir).current;
  manifest = JSON.parse(readFileSync(join(current, MANIFEST_FILE), 'utf8')) as Manifest;
});
afterAll(async () => {
  await front?.close();
  await fx?.close();
});

/** Every file and folder name under `dir`, recursively. */
function namesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? [entry.name, ...namesUnder(join(dir, entry.name))] : [entry.name]);
}

/** Pages whose path holds a segment starting with `.` or `-`. */
const platformKeys = () => Object.keys(manifest.pages).filter((key) => /\/[.-]/.test(key.split('?')[0]!));

describe('static files of pages named by ids starting with . or -', () => {
  it('holds no dot file or dot folder, and names each such page with a ~ before the dot', () => {
    const names = namesUnder(join(current, STATIC_DIR));
    expect(names.filter((name) => name.startsWith('.'))).toEqual([]);
    expect(pageFile('/v1/videos/.dotted')).toBe('pages/v1/videos/~.dotted.json');
    expect(names).toContain('~.dotted.json');
    expect(names).toContain('~..x.json');
    expect(names).toContain('-OK9i1_YYYc.json');
    expect(readFileSync(join(current, STATIC_DIR, '_headers'), 'utf8')).toContain('/pages/v1/videos/~.dotted.json\n  ETag:');
  });
});

describe('nginx in front', () => {
  it('serves every page of such ids from its files, in every encoding, exactly as the origin does', async () => {
    const keys = platformKeys();
    expect(keys.filter((k) => k.includes('/.')).length).toBeGreaterThan(20);
    expect(keys.filter((k) => k.includes('/-')).length).toBeGreaterThan(20);
    const failures = (await mapConcurrent(keys, 8, async (key) => {
      const out: string[] = [];
      for (const headers of [{}, { 'accept-encoding': 'gzip' }, { 'accept-encoding': 'br' }]) {
        const [a, b] = await Promise.all([viaNginx.send(key, { headers }), direct.send(key, { headers })]);
        out.push(...frontDifferences(a, b, `${key} ${JSON.stringify(headers)}`));
        if (a.status !== 200) out.push(`${key}: ${a.status}`);
        // the origin adds rate-limit headers to what it answers; nginx's own file has none
        if (header(a, 'ratelimit') !== undefined) out.push(`${key}: answered by the origin, not from its file`);
      }
      return out;
    })).flat();
    expect(failures.slice(0, 20)).toEqual([]);
  });

  it('serves a category named with a dot from its list files', async () => {
    const key = Object.keys(manifest.pages).find((k) => k.startsWith('/v1/videos?category=.cat&'))!;
    expect(key).toBeDefined();
    const res = await viaNginx.send('/v1/videos?category=.cat');
    expect(res.status).toBe(200);
    expect(header(res, 'ratelimit')).toBeUndefined();
  });

  it('leaves dot segments and encoded dots to the origin, which answers them as it reads them', async () => {
    for (const target of ['/v1/videos/.', '/v1/videos/..', '/v1/videos/%2Edotted', '/v1/videos/.dotted/..', '/v1/videos/.secret']) {
      const [a, b] = await Promise.all([viaNginx.send(target), direct.send(target)]);
      expect(frontDifferences(a, b, target)).toEqual([]);
    }
    expect((await viaNginx.send('/v1/videos/%2Edotted')).status).toBe(200);
    expect((await viaNginx.send('/v1/videos/.secret')).status).toBe(404);
  });
});
