// nginx in front of origins that no longer answer (all of them stopped, as during a bad deploy):
// what nginx has as page files it still serves; everything it would ask the origin for, a dynamic
// query, a page it leaves to the origin (a conditional, a weighed Accept-Encoding), a list page not
// prerendered, gets the service-unavailable problem with Retry-After (src/cdn/nginx-config.ts,
// `/.vp-unavailable`), never nginx's own HTML error page (docs/cdn.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutOf, MANIFEST_FILE } from '../../src/snapshot/layout.ts';
import type { Manifest } from '../../src/snapshot/manifest.ts';
import { createClient, header, type Client } from '../http/http-client.ts';
import { startFixture, type Fixture } from '../http/server-fixture.ts';
import { startNginx, type NginxFront } from './nginx-front.ts';
import { freePort } from '../../scripts/bench/redis-server.ts';

let fx: Fixture;
let front: NginxFront;
let viaNginx: Client;
let page: string;

beforeAll(async () => {
  // the fixture's server only publishes the API description the answers are checked against and
  // holds the snapshot's files; nginx's origins are two ports nothing listens on
  fx = await startFixture({ seed: { videos: 40 }, staticFiles: true });
  front = await startNginx(fx.distDir, [`http://127.0.0.1:${await freePort()}`, `http://127.0.0.1:${await freePort()}`]);
  viaNginx = createClient(front.base, undefined, fx.base);
  const manifest = JSON.parse(readFileSync(join(layoutOf(fx.distDir).current, MANIFEST_FILE), 'utf8')) as Manifest;
  page = Object.keys(manifest.pages).find((key) => /^\/v1\/videos\/[^/?]+$/.test(key))!;
});
afterAll(async () => {
  await front?.close();
  await fx?.close();
});

describe('nginx when no origin answers', () => {
  it('still serves the pages it has as files', async () => {
    const res = await viaNginx.send(page);
    expect(res.status).toBe(200);
    expect(header(res, 'content-type')).toMatch(/^application\/json/);
  });

  it.each([
    ['a dynamic query', '/v1/search?q=python', {}],
    ['a list page not prerendered', '/v1/videos?limit=3&offset=7', {}],
    ['a page asked with a condition nginx leaves to the origin', '', { 'if-modified-since': 'Wed, 01 Jan 2025 00:00:00 GMT' }],
    ['a page asked with a weighed Accept-Encoding', '', { 'accept-encoding': 'br;q=0.5, gzip' }],
  ])('answers %s with the service-unavailable problem and Retry-After, not an HTML error page', async (_what, target, headers) => {
    const res = await viaNginx.send(target || page, { headers });
    expect(res.status).toBe(503);
    expect(header(res, 'content-type')).toBe('application/problem+json; charset=utf-8');
    expect(header(res, 'retry-after')).toBe('5');
    expect(header(res, 'access-control-allow-origin')).toBe('*');
    const problem = JSON.parse(res.body.toString('utf8')) as { type: string; status: number; detail: string };
    expect(problem.type).toMatch(/\/problems\/service-unavailable$/);
    expect(problem.status).toBe(503);
    expect(problem.detail).toBe('No origin server answered: retry shortly.');
  });
});
