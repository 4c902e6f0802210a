// HTTP behaviour (docs/api-contract.md §1, §5, §6): CORS and preflight, 405 with Allow, HEAD, strong ETags and
// 304, br/gzip negotiation, Cache-Control on snapshot pages, content types.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { sortedIds, type Truth } from './catalogue-truth.ts';
import { problemShapeProblems } from './contract-shapes.ts';
import { header, type Client, type RawResponse } from './http-client.ts';
import { useServedCatalogue } from './harness.ts';
import type { Fixture } from './server-fixture.ts';

const enc = encodeURIComponent;
let fx: Fixture;
let api: Client;
let truth: Truth;

useServedCatalogue({ seed: { videos: 400 } }, (h) => ({ fx, api, truth } = h));

const firstId = () => enc(sortedIds(truth.publicVideos, 'latest')[0] ?? '');
const quietId = () => enc(truth.publicVideos.find((v) => !truth.threads.has(v.id))?.id ?? '');

/** Prerendered answers: the default list, a video, its playback and first comments page, categories. */
const staticTargets = () => ['/v1/videos', `/v1/videos/${firstId()}`, `/v1/videos/${firstId()}/playback`, `/v1/videos/${firstId()}/comments`, '/v1/categories'];
/** Answers computed per request: a non-default limit, related, batch, health. */
const dynamicTargets = () => ['/v1/videos?sort=views&limit=13', `/v1/videos/${firstId()}/related`, `/v1/videos/batch?ids=${firstId()}`, '/v1/health'];
const errorTargets = ['/v1/videos?limit=0', '/v1/no-such-route', '/v1/videos/no-such-video'];

const STRONG_ETAG = /^"[\x21\x23-\x7e\x80-\xff]*"$/;
const IGNORED = new Set(['ratelimit', 'date', 'connection', 'keep-alive', 'transfer-encoding']);
const headersOf = (res: RawResponse) =>
  Object.fromEntries(Object.entries(res.headers).filter(([k]) => !IGNORED.has(k)).sort(([a], [b]) => (a < b ? -1 : 1)));
const listOf = (value: string | undefined) => (value ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);

describe('CORS', () => {
  it('sends Access-Control-Allow-Origin: * on successful, static and dynamic responses', async () => {
    for (const target of [...staticTargets(), ...dynamicTargets()]) {
      const res = await api.send(target, { headers: { origin: 'https://app.example.org' } });
      expect(res.status, target).toBe(200);
      expect(header(res, 'access-control-allow-origin'), target).toBe('*');
    }
  });

  it('sends Access-Control-Allow-Origin: * on 400, 404, 405 and 304 responses', async () => {
    for (const target of errorTargets) {
      const res = await api.send(target, { headers: { origin: 'https://app.example.org' } });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(header(res, 'access-control-allow-origin'), target).toBe('*');
    }
    const post = await api.send('/v1/videos', { method: 'POST', headers: { origin: 'https://app.example.org' } });
    expect(header(post, 'access-control-allow-origin')).toBe('*');
    const etag = header(await api.send('/v1/videos'), 'etag') ?? '';
    const notModified = await api.send('/v1/videos', { headers: { 'if-none-match': etag, origin: 'https://app.example.org' } });
    expect(notModified.status).toBe(304);
    expect(header(notModified, 'access-control-allow-origin')).toBe('*');
  });

  it('exposes ETag, Link and Retry-After to browser scripts', async () => {
    for (const target of ['/v1/videos', '/v1/videos?sort=views&limit=13']) {
      const exposed = listOf(header(await api.send(target, { headers: { origin: 'https://app.example.org' } }), 'access-control-expose-headers'));
      for (const name of ['etag', 'link', 'retry-after']) expect(exposed, `${target} exposes ${name}`).toContain(name);
    }
  });

  it('answers a preflight OPTIONS with 204 allowing GET, HEAD, OPTIONS and the Authorization header', async () => {
    for (const target of ['/v1/videos', `/v1/videos/${firstId()}/comments`, '/v1/videos?sort=views&limit=13']) {
      const res = await api.send(target, {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example.org', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
      });
      expect(res.status, target).toBe(204);
      expect(res.body.length).toBe(0);
      expect(header(res, 'access-control-allow-origin')).toBe('*');
      const methods = listOf(header(res, 'access-control-allow-methods'));
      for (const m of ['get', 'head', 'options']) expect(methods, target).toContain(m);
      expect(listOf(header(res, 'access-control-allow-headers')), target).toContain('authorization');
    }
  });
});

describe('methods', () => {
  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
    it(`answers ${method} with 405, Allow: GET, HEAD, OPTIONS and a problem body`, async () => {
      for (const target of ['/v1/videos', `/v1/videos/${firstId()}`, '/v1/categories', `/v1/videos/${firstId()}/comments`]) {
        const res = await api.send(target, { method, headers: { 'content-type': 'application/json' } });
        expect(res.status, `${method} ${target}`).toBe(405);
        expect(listOf(header(res, 'allow')).sort(), `${method} ${target}`).toEqual(['get', 'head', 'options']);
        expect(header(res, 'content-type')).toMatch(/^application\/problem\+json(;|$)/);
        expect(problemShapeProblems(JSON.parse(res.body.toString('utf8')), fx.base, 405)).toEqual([]);
      }
    });
  }

  it('answers HEAD with the status and headers of GET and no body, for static, dynamic and error URLs', async () => {
    for (const target of [...staticTargets(), ...dynamicTargets(), ...errorTargets]) {
      for (const encoding of [undefined, 'br', 'gzip']) {
        const headers: Record<string, string> = encoding ? { 'accept-encoding': encoding } : {};
        const get = await api.send(target, { headers });
        const head = await api.send(target, { method: 'HEAD', headers });
        expect(head.status, `HEAD ${target}`).toBe(get.status);
        expect(head.body.length, `HEAD ${target}`).toBe(0);
        expect(headersOf(head), `HEAD ${target} (${encoding ?? 'identity'})`).toEqual(headersOf(get));
      }
    }
  });
});

describe('validators', () => {
  it('sends a strong ETag on every 200', async () => {
    for (const target of [...staticTargets(), ...dynamicTargets()]) {
      const res = await api.send(target);
      expect(res.status, target).toBe(200);
      expect(header(res, 'etag'), target).toMatch(STRONG_ETAG);
    }
  });

  it('answers If-None-Match with the current ETag by 304 with no body, for static and dynamic URLs', async () => {
    for (const target of [...staticTargets(), ...dynamicTargets().filter((t) => t !== '/v1/health')]) {
      const etag = header(await api.send(target), 'etag') ?? '';
      const res = await api.send(target, { headers: { 'if-none-match': etag } });
      expect(res.status, target).toBe(304);
      expect(res.body.length, target).toBe(0);
      expect(header(res, 'etag'), target).toBe(etag);
      const listed = await api.send(target, { headers: { 'if-none-match': `"not-this-one", ${etag}` } });
      expect(listed.status, `${target} with a list of tags`).toBe(304);
    }
  });

  it('answers If-None-Match with another ETag by 200 and the body', async () => {
    for (const target of ['/v1/videos', '/v1/videos?sort=views&limit=13']) {
      const res = await api.send(target, { headers: { 'if-none-match': '"something-else"' } });
      expect(res.status).toBe(200);
      expect(res.body.length).toBeGreaterThan(0);
    }
  });

  it('compares If-None-Match weakly: W/ of the current ETag and * both answer 304 (RFC 9110 §13.1.2)', async () => {
    for (const target of ['/v1/videos', '/v1/videos?sort=views&limit=13']) {
      const etag = header(await api.send(target), 'etag') ?? '';
      expect((await api.send(target, { headers: { 'if-none-match': `W/${etag}` } })).status, `${target} W/`).toBe(304);
      expect((await api.send(target, { headers: { 'if-none-match': '*' } })).status, `${target} *`).toBe(304);
    }
  });

  it('answers a conditional HEAD with 304 like GET', async () => {
    for (const target of ['/v1/videos', '/v1/videos?sort=views&limit=13']) {
      const etag = header(await api.send(target), 'etag') ?? '';
      const res = await api.send(target, { method: 'HEAD', headers: { 'if-none-match': etag } });
      expect(res.status, target).toBe(304);
      expect(res.body.length).toBe(0);
    }
  });

  it('gives different content different ETags and the same content the same ETag', async () => {
    const a = header(await api.send('/v1/videos?limit=5'), 'etag');
    const b = header(await api.send('/v1/videos?limit=6'), 'etag');
    const c = header(await api.send('/v1/videos?limit=5'), 'etag');
    expect(a).not.toBe(b);
    expect(a).toBe(c);
  });
});

describe('content encoding', () => {
  const decode = { br: brotliDecompressSync, gzip: gunzipSync } as const;

  for (const encoding of ['br', 'gzip'] as const) {
    it(`answers Accept-Encoding: ${encoding} with Content-Encoding: ${encoding} and a body that decodes to the identity bytes, static and dynamic`, async () => {
      for (const target of ['/v1/videos', '/v1/videos?sort=views&limit=13', '/v1/videos?limit=20&sort=latest&x=1', `/v1/videos/${firstId()}/related`]) {
        const identity = await api.send(target);
        expect(identity.body.length, `${target} is big enough to compress`).toBeGreaterThanOrEqual(1024);
        expect(header(identity, 'content-encoding')).toBeUndefined();
        const res = await api.send(target, { headers: { 'accept-encoding': encoding } });
        expect(res.status).toBe(200);
        expect(header(res, 'content-encoding'), target).toBe(encoding);
        expect(decode[encoding](res.body).equals(identity.body), target).toBe(true);
        expect(res.body.length).toBeLessThan(identity.body.length);
        expect(listOf(header(res, 'vary')), target).toContain('accept-encoding');
        expect(listOf(header(identity, 'vary')), target).toContain('accept-encoding');
      }
    });
  }

  it('gives each encoding its own strong ETag, and If-None-Match with it answers 304', async () => {
    for (const target of ['/v1/videos', '/v1/videos?sort=views&limit=13']) {
      const identity = header(await api.send(target), 'etag');
      const br = await api.send(target, { headers: { 'accept-encoding': 'br' } });
      const gzip = await api.send(target, { headers: { 'accept-encoding': 'gzip' } });
      const tags = [identity, header(br, 'etag'), header(gzip, 'etag')];
      for (const tag of tags) expect(tag).toMatch(STRONG_ETAG);
      expect(new Set(tags).size, target).toBe(3);
      const again = await api.send(target, { headers: { 'accept-encoding': 'br', 'if-none-match': header(br, 'etag') ?? '' } });
      expect(again.status).toBe(304);
    }
  });

  it('honours q-values: gzip when br is less preferred or refused, br for *', async () => {
    for (const target of ['/v1/videos', '/v1/videos?sort=views&limit=13']) {
      for (const [value, expected] of [['gzip;q=1.0, br;q=0.5', 'gzip'], ['gzip, br;q=0', 'gzip'], ['br;q=0.9, gzip;q=0.8', 'br']] as const) {
        const res = await api.send(target, { headers: { 'accept-encoding': value } });
        expect(header(res, 'content-encoding'), `${target} with ${value}`).toBe(expected);
      }
      const any = await api.send(target, { headers: { 'accept-encoding': '*' } });
      expect(['br', 'gzip'], `${target} with *`).toContain(header(any, 'content-encoding'));
    }
  });

  it('sends bodies under 1024 bytes uncompressed, static and dynamic', async () => {
    for (const target of [`/v1/videos/${quietId()}/comments`, '/v1/videos?category=no-such-category', '/v1/health']) {
      const res = await api.send(target, { headers: { 'accept-encoding': 'br, gzip' } });
      expect(res.status).toBe(200);
      expect(res.body.length, target).toBeLessThan(1024);
      expect(header(res, 'content-encoding'), target).toBeUndefined();
      expect(() => JSON.parse(res.body.toString('utf8'))).not.toThrow();
    }
  });

  it('sends identity when the client accepts neither br nor gzip', async () => {
    for (const value of ['identity', 'deflate', 'br;q=0, gzip;q=0']) {
      const res = await api.send('/v1/videos', { headers: { 'accept-encoding': value } });
      expect(header(res, 'content-encoding'), value).toBeUndefined();
      expect(() => JSON.parse(res.body.toString('utf8'))).not.toThrow();
    }
  });
});

describe('representation headers', () => {
  it('sends Content-Type: application/json; charset=utf-8 on every JSON 200', async () => {
    for (const target of [...staticTargets(), ...dynamicTargets()]) {
      expect(header(await api.send(target), 'content-type'), target).toBe('application/json; charset=utf-8');
    }
  });

  it('sends Cache-Control public with an s-maxage and stale-while-revalidate on snapshot pages', async () => {
    for (const target of staticTargets()) {
      const value = header(await api.send(target), 'cache-control') ?? '';
      const directives = listOf(value);
      expect(directives, target).toContain('public');
      expect(value, target).toMatch(/(^|,)\s*s-maxage=[1-9]\d*/);
      expect(value, target).toMatch(/(^|,)\s*stale-while-revalidate=[1-9]\d*/);
      expect(directives.some((d) => d === 'private' || d === 'no-store'), target).toBe(false);
    }
  });
});
