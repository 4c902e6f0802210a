// The CDN tier (issue 7) with a real nginx: every request is sent to nginx and to the origin alone,
// and the two answers must agree: status, body bytes, and the headers a client or cache relies on
// (type, ETag, caching, CORS, Link, robots, encoding, Vary). Prerendered pages in every encoding,
// their canonical forms written every other way (order, defaults, unknown parameters), queries only
// the origin can judge, HEAD, 304, errors, other methods and the on-demand endpoints. Both answers
// also pass the API description's checks (the test client runs them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { layoutOf, MANIFEST_FILE } from '../../src/snapshot/layout.ts';
import type { Manifest } from '../../src/snapshot/manifest.ts';
import { createClient, header, mapConcurrent, type Client, type RawResponse, type SendOptions } from '../http/http-client.ts';
import { startFixture, type Fixture } from '../http/server-fixture.ts';
import { startNginx, type NginxFront } from './nginx-front.ts';
import { exchange, statusesOf } from '../http/raw-exchange.ts';

let fx: Fixture;
let front: NginxFront;
let viaNginx: Client;
let direct: Client;
let manifest: Manifest;

beforeAll(async () => {
  fx = await startFixture({ seed: { videos: 150 }, staticFiles: true, env: { TRUST_PROXY: 'true' } });
  front = await startNginx(fx.distDir, [fx.base]);
  viaNginx = createClient(front.base);
  direct = createClient(fx.base);
  manifest = JSON.parse(readFileSync(join(layoutOf(fx.distDir).current, MANIFEST_FILE), 'utf8')) as Manifest;
});
afterAll(async () => {
  await front?.close();
  await fx?.close();
});

const COMPARED = ['content-type', 'etag', 'cache-control', 'access-control-allow-origin', 'access-control-expose-headers', 'link', 'x-robots-tag', 'content-encoding', 'vary', 'allow', 'retry-after', 'content-range', 'accept-ranges', 'last-modified'];

/** The same request to nginx and to the origin; every difference, as text. */
async function differences(target: string, options: SendOptions = {}): Promise<string[]> {
  const [a, b] = await Promise.all([viaNginx.send(target, options), direct.send(target, options)]);
  return compare(a, b, `${options.method ?? 'GET'} ${target} ${JSON.stringify(options.headers ?? {})}`);
}

function compare(nginx: RawResponse, origin: RawResponse, what: string): string[] {
  const out: string[] = [];
  if (nginx.status !== origin.status) out.push(`${what}: status ${nginx.status} via nginx, ${origin.status} direct`);
  if (!nginx.body.equals(origin.body)) out.push(`${what}: bodies differ (${nginx.body.length} vs ${origin.body.length} bytes)`);
  for (const name of COMPARED) {
    const [x, y] = [header(nginx, name), header(origin, name)];
    if (x !== y) out.push(`${what}: ${name} ${JSON.stringify(x)} via nginx, ${JSON.stringify(y)} direct`);
  }
  return out;
}

const ENCODINGS = [{}, { 'accept-encoding': 'gzip' }, { 'accept-encoding': 'br' }, { 'accept-encoding': 'gzip, deflate, br' }];

describe('nginx in front of the origin', () => {
  it('serves every prerendered page, in every encoding, exactly as the origin does', async () => {
    const keys = Object.keys(manifest.pages);
    expect(keys.length).toBeGreaterThan(300);
    const failures = (await mapConcurrent(keys, 8, async (key) => (await Promise.all(ENCODINGS.map((headers) => differences(key, { headers })))).flat())).flat();
    expect(failures.slice(0, 20)).toEqual([]);
  });

  it('serves them from its files, not from the origin', async () => {
    const key = Object.keys(manifest.pages).find((k) => k.startsWith('/v1/videos?'))!;
    const res = await viaNginx.send(key);
    expect(res.status).toBe(200);
    // the origin adds rate-limit headers to what it answers; nginx answers from disk without a lane
    expect(header(res, 'ratelimit')).toBeUndefined();
    expect(header(await direct.send(key), 'ratelimit')).toBeDefined();
  });

  it('finds the page of a query written in any order, with defaults left out and unknown parameters added', async () => {
    const list = Object.keys(manifest.pages).find((k) => /^\/v1\/videos\?category=[^&]+&limit=20&sort=views$/.test(k))!;
    const category = /category=([^&]+)/.exec(list)![1]!;
    const forms = [
      `/v1/videos?sort=views&category=${category}`, `/v1/videos?limit=20&category=${category}&sort=views`,
      `/v1/videos?utm_source=x&category=${category}&sort=views&ref=1`, `/v1/videos?category=${category}&sort=views&offset=0`,
      '/v1/videos', '/v1/videos?sort=latest', '/v1/videos?limit=20', '/v1/videos?foo=bar&limit=20&sort=latest',
    ];
    for (const form of forms) {
      const res = await viaNginx.send(form);
      expect(res.status, form).toBe(200);
      expect(header(res, 'ratelimit'), `${form} is answered from nginx's files`).toBeUndefined();
      expect(await differences(form), form).toEqual([]);
    }
    const paged = Object.keys(manifest.pages).filter((k) => k.includes('?cursor='));
    const cursorPage = paged.find((k) => !k.startsWith('/v1/videos?')) ?? paged[0]!;
    const [path, query] = cursorPage.split('?') as [string, string];
    const reordered = `${path}?${query.split('&').reverse().join('&')}&x=1`;
    expect(header(await viaNginx.send(reordered), 'ratelimit'), reordered).toBeUndefined();
    expect(await differences(reordered)).toEqual([]);
  });

  it('leaves to the origin the queries only it can judge, with the same answers', async () => {
    const cursorPage = Object.keys(manifest.pages).find((k) => k.startsWith('/v1/videos?cursor='))!;
    const cursor = /cursor=([^&]+)/.exec(cursorPage)![1]!;
    const targets = [
      '/v1/videos?limit=', '/v1/videos?limit', '/v1/videos?limit=5&limit=5', '/v1/videos?sort=views&sort=likes', '/v1/videos?LIMIT=5',
      '/v1/videos?%6Cimit=5', '/v1/videos?limit=020', '/v1/videos?limit=51', '/v1/videos?limit=abc', '/v1/videos?sort=oldest',
      '/v1/videos?sort=vi%65ws', `/v1/videos?cursor=${cursor}&offset=0`, `/v1/videos?offset=0&cursor=${cursor}`, '/v1/videos?offset=20',
      '/v1/videos?cursor=!!!', '/v1/videos?creator=nobody', '/v1/videos?q=talk', '/v1/videos?duration=tiny', '/v1/videos/batch?ids=a,b',
      '/v1/videos/no-such-video', '/v1/videos/no-such-video/playback', '//v1/videos', '/v1/videos/', '/v1/nothing', '/v1/videos?category=a%20b',
      '/v1/search?q=talk', '/v1/channels?limit=2', '/v1/discovery', '/v1/live?state=all', '/v1/health', '/oembed?id=nope', '/sdk.js',
      '/openapi.json', '/problems/not-found', '/docs',
    ];
    const failures = (await mapConcurrent(targets, 4, (t) => differences(t))).flat();
    expect(failures).toEqual([]);
  });

  it('keeps HEAD, 304 and the other methods as the origin has them', async () => {
    const keys = Object.keys(manifest.pages).filter((_, i) => i % 40 === 0);
    const failures: string[] = [];
    for (const key of keys) {
      failures.push(...await differences(key, { method: 'HEAD' }));
      for (const headers of [{}, { 'accept-encoding': 'gzip' }, { 'accept-encoding': 'br' }]) {
        const etag = header(await direct.send(key, { headers }), 'etag')!;
        failures.push(...await differences(key, { headers: { ...headers, 'if-none-match': etag } }));
        failures.push(...await differences(key, { headers: { ...headers, 'if-none-match': '"0-0"' } }));
      }
      const notModified = await viaNginx.send(key, { headers: { 'if-none-match': header(await direct.send(key), 'etag')! } });
      expect(notModified.status, key).toBe(304);
    }
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) failures.push(...await differences(keys[0]!, { method }));
    expect(failures).toEqual([]);
  });

  it('reads paths as sent, leaves conditions and ranges it would judge otherwise to the origin, and encodes as it does', async () => {
    const video = Object.keys(manifest.pages).find((k) => /^\/v1\/videos\/[^/?]+$/.test(k))!;
    const id = video.split('/').pop()!;
    const list = Object.keys(manifest.pages).find((k) => k.startsWith('/v1/videos?') && manifest.pages[k]!.gzip !== undefined)!;
    const failures: string[] = [];
    for (const target of [`/v1/videos/${id}%2Fplayback`, `/v1/v%69deos/${id}`, '/v1/categorie%73', `/v1/videos/x%2F..%2F..%2Fcategories`, `/v1/videos/${id}/./playback`, `/v1/videos/../categories`]) {
      failures.push(...await differences(target));
    }
    const identityTag = header(await direct.send(list), 'etag')!;
    const gzipTag = header(await direct.send(list, { headers: { 'accept-encoding': 'gzip' } }), 'etag')!;
    const conditions: Record<string, string>[] = [
      { range: 'bytes=0-9' }, { 'if-match': '"nope"' }, { 'if-unmodified-since': 'Thu, 01 Jan 1970 00:00:00 GMT' },
      { 'if-none-match': identityTag, 'if-modified-since': 'Thu, 01 Jan 1970 00:00:00 GMT' },
      { 'if-none-match': identityTag, 'accept-encoding': 'gzip' }, { 'if-none-match': gzipTag, 'accept-encoding': 'br' },
      { 'if-none-match': `"x", W/${gzipTag}`, 'accept-encoding': 'gzip' }, { 'if-none-match': '"x", *' }, { 'if-range': identityTag, range: 'bytes=0-9' },
      { 'accept-encoding': 'x-gzip' }, { 'accept-encoding': 'gzip', via: '1.1 cdn.example' }, { 'accept-encoding': 'br;q=0.5, gzip' }, { 'accept-encoding': '*' },
    ];
    for (const headers of conditions) failures.push(...await differences(list, { headers }));
    expect(failures).toEqual([]);
  });

  it('refuses a request body over its limit (1 MB) with the body-too-large problem however it is framed, and never reads a body as a request', async () => {
    const video = Object.keys(manifest.pages).find((k) => /^\/v1\/videos\/[^/?]+$/.test(k))!;
    // 3 MB whose tail is a request of its own: answering it would mean a body was read as a request
    const hidden = Buffer.from('GET /v1/hidden-in-a-body HTTP/1.1\r\nHost: x\r\n\r\n');
    const body = Buffer.concat([Buffer.alloc(3 * 1024 * 1024 - hidden.length, 0x61), hidden]);
    const next = 'GET /v1/categories HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n';
    const framed = {
      'Content-Length': (head: string) => [`${head}Content-Length: ${body.length}\r\n\r\n`, body, next],
      chunked: (head: string) => [`${head}Transfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n`, body, '\r\n0\r\n\r\n', next],
    };
    const cases = (['POST', 'DELETE', 'GET'] as const).flatMap((method) => [video, '/v1/search?q=a'].flatMap((target) =>
      (Object.keys(framed) as (keyof typeof framed)[]).map((framing) => ({ method, target, framing }))));
    const exchanges = await mapConcurrent(cases.flatMap((c) => [{ ...c, via: 'nginx' as const }, { ...c, via: 'origin' as const }]), 6, async (c) => {
      const port = Number(new URL(c.via === 'nginx' ? front.base : fx.base).port);
      const text = await exchange(port, framed[c.framing](`${c.method} ${c.target} HTTP/1.1\r\nHost: x\r\n`), 1000);
      return { ...c, text, statuses: statusesOf(text) };
    });
    for (const { method, target, framing, via, text, statuses } of exchanges) {
      const what = `${method} ${target} (${framing}) via ${via}: ${statuses.join(',')}`;
      expect(text, what).not.toMatch(/text\/html/i);
      expect(statuses.length, what).toBeGreaterThan(0);
      // at most the request and the one after it, which gets its own answer: never one for the body's tail
      expect(statuses.length, what).toBeLessThanOrEqual(2);
      if (statuses.length === 2) expect(statuses[1], what).toBe(200);
      if (via === 'nginx' && statuses[0] === 413) {
        expect(text, what).toMatch(/\/problems\/body-too-large"/);
        expect(text, what).toMatch(/\r\nContent-Type: application\/problem\+json; charset=utf-8\r\n/i);
        expect(text, what).toMatch(/\r\nAccess-Control-Allow-Origin: \*\r\n/i);
      }
    }
    // nginx reads no body it passes on over 1 MB, however it is framed: the problem, then the connection ends
    const passedOn = exchanges.filter((e) => e.via === 'nginx' && !(e.method === 'GET' && e.target === video));
    expect(passedOn.map((e) => `${e.method} ${e.target} (${e.framing}): ${e.statuses.join(',')}`))
      .toEqual(passedOn.map((e) => `${e.method} ${e.target} (${e.framing}): 413`));
    // the origin reads and drops a body: each request is answered as without one, the next one too
    for (const e of exchanges.filter((x) => x.via === 'origin')) expect(e.statuses, `${e.method} ${e.target} (${e.framing})`).toEqual([e.method === 'GET' ? 200 : 405, 200]);
  });

  it('answers a request line or head over 16 KB with the origin\'s headers-too-large problem, never with its own HTML 414 or 400', async () => {
    const long = 'a'.repeat(20_000);
    for (const [target, headers] of [[`/v1/search?q=${long}`, {}], ['/v1/categories', { 'x-long': long }]] as const) {
      const [front, origin] = [await viaNginx.send(target, { headers }), await direct.send(target, { headers })];
      for (const res of [front, origin]) {
        expect(res.status).toBe(431);
        expect(header(res, 'content-type')).toBe('application/problem+json; charset=utf-8');
        expect(header(res, 'access-control-allow-origin')).toBe('*');
      }
      const [a, b] = [front, origin].map((res) => JSON.parse(res.body.toString('utf8')) as { type: string; title: string; status: number });
      expect([a!.type, a!.title, a!.status]).toEqual([b!.type, b!.title, b!.status]);
    }
  });

  it('passes the client address it saw to the origin, which a client cannot forge', async () => {
    // nginx appends the address it saw to X-Forwarded-For and the origin (TRUST_PROXY) takes that
    // last entry: a client naming another address is still counted as itself
    const remaining = (res: RawResponse) => Number(/r=(\d+)/.exec(header(res, 'ratelimit') ?? '')?.[1]);
    const first = await viaNginx.send('/v1/search?q=one');
    const forged = await viaNginx.send('/v1/search?q=two', { headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect(Number.isFinite(remaining(first))).toBe(true);
    expect(remaining(forged)).toBe(remaining(first) - 1);
  });
});

describe('the nginx front itself (tests/cdn/nginx-front.ts)', () => {
  it('closes by waiting for nginx to exit, then removes its prefix: no folder is left in the temporary directory', async () => {
    const second = await startNginx(fx.distDir, [fx.base]);
    const master = Number(readFileSync(join(second.prefix, 'nginx.pid'), 'utf8').trim());
    const alive = () => existsSync(`/proc/${master}`) && !/\) Z /.test(readFileSync(`/proc/${master}/stat`, 'utf8'));
    expect(alive()).toBe(true);
    // a request in flight keeps it busy a moment, as a test's last request may
    await createClient(second.base).send('/v1/health');
    await second.close();
    expect(alive(), 'nginx master still running after close').toBe(false);
    expect(existsSync(second.prefix)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(existsSync(second.prefix), 'the prefix came back after close').toBe(false);
  });
});
