// HTML errors for browsers (docs/decisions.md, "HTML errors for browsers"): a page route answers a
// browser (Accept ranking text/html first) with an HTML error page carrying the problem's facts, a
// way back and a search box; problem+json stays for Accept: application/json, `*/*`, no Accept, and
// every /v1 path. /favicon.ico and /robots.txt are real files.
import { describe, expect, it } from 'vitest';
import { problemShapeProblems, type Problem } from './contract-shapes.ts';
import { decoded, header, type Client } from './http-client.ts';
import { useServedCatalogue } from './harness.ts';
import type { Fixture } from './server-fixture.ts';
import type { Truth } from './catalogue-truth.ts';

let fx: Fixture;
let api: Client;
let truth: Truth;
useServedCatalogue({ seed: { videos: 120 } }, (h) => ({ fx, api, truth } = h));

/** What Chromium sends for a navigation. */
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const enc = encodeURIComponent;
const text = (body: Buffer) => body.toString('utf8');

const PAGE_MISSES = ['/watch/typo', '/channels/nobody', '/playlists/x', '/channels/nobody/live', '/docs/', '/no/such/page', '/problems/no-such-type'];

describe('a browser asking for a page that does not exist', () => {
  for (const target of PAGE_MISSES) {
    it(`gets an HTML 404 page for ${target} with the problem's facts, a way home and a search box`, async () => {
      const res = await api.send(target, { headers: { accept: BROWSER } });
      expect(res.status).toBe(404);
      expect(header(res, 'content-type')).toBe('text/html; charset=utf-8');
      expect(header(res, 'vary')).toMatch(/\bAccept\b/);
      expect(header(res, 'cache-control')).toBe('public, max-age=60');
      const html = text(decoded(res));
      expect(html).toMatch(/^<!DOCTYPE html>/i);
      expect(html).toContain('<h1');
      expect(html).toMatch(/<h1[^>]*>Not found<\/h1>/);
      expect(html).toContain(`Nothing is at ${target.split('?')[0]}.`);
      expect(html).toContain('href="/problems/not-found"');
      expect(html).toContain('href="/"');
      expect(html).toMatch(/<form[^>]*role="search"[^>]*action="\/search"/);
      expect(html).toContain('<meta name="robots" content="noindex"');
    });
  }

  it('gets a 400 page naming the parameter for a channel page out of range', async () => {
    const username = [...truth.channels.keys()][0]!;
    const res = await api.send(`/channels/${enc(username)}?page=0`, { headers: { accept: BROWSER } });
    expect(res.status).toBe(400);
    expect(header(res, 'content-type')).toBe('text/html; charset=utf-8');
    const html = text(decoded(res));
    expect(html).toMatch(/<h1[^>]*>Invalid parameter<\/h1>/);
    expect(html).toContain('page: must be an integer from 1 to');
    expect(html).toContain('href="/problems/invalid-parameter"');
  });

  it('escapes the request target it repeats', async () => {
    const res = await api.send('/watch/%3Cscript%3Ealert(1)%3C%2Fscript%3E', { headers: { accept: BROWSER } });
    expect(res.status).toBe(404);
    const html = text(decoded(res));
    expect(html).not.toContain('<script>alert(1)');
  });

  it('gets 200 and the page itself where the resource exists', async () => {
    const video = truth.publicVideos[0]!;
    const res = await api.send(`/watch/${enc(video.id)}`, { headers: { accept: BROWSER } });
    expect(res.status).toBe(200);
    expect(header(res, 'content-type')).toBe('text/html; charset=utf-8');
  });
});

describe('everyone else keeps problem+json', () => {
  const cases: [string, Record<string, string>][] = [
    ['no Accept', {}],
    ['Accept: */*', { accept: '*/*' }],
    ['Accept: application/json', { accept: 'application/json' }],
    ['Accept: application/problem+json', { accept: 'application/problem+json' }],
    ['JSON ranked above HTML', { accept: 'text/html;q=0.5, application/json' }],
    ['an image request', { accept: 'image/avif,image/webp,image/*,*/*;q=0.8' }],
    ['a tie between HTML and JSON', { accept: 'text/html, application/json' }],
    ['a malformed Accept', { accept: 'text/html;q=abc;;,,//' }],
  ];
  for (const [what, headers] of cases) {
    it(`a page route with ${what}`, async () => {
      for (const target of ['/watch/typo', '/no/such/page']) {
        const res = await api.send(target, { headers });
        expect(res.status, target).toBe(404);
        expect(header(res, 'content-type'), target).toMatch(/^application\/problem\+json/);
        expect(header(res, 'vary'), target).toMatch(/\bAccept\b/);
        const problem = JSON.parse(text(decoded(res))) as Problem;
        expect(problemShapeProblems(problem, fx.base, 404), target).toEqual([]);
      }
    });
  }

  it('every /v1 path and /oembed, even for a browser', async () => {
    for (const target of ['/v1/nothing', '/v1/videos/no-such-video', '/v1/videos?limit=0', '/oembed?url=nope']) {
      const res = await api.send(target, { headers: { accept: BROWSER } });
      expect(res.status, target).toBeGreaterThanOrEqual(400);
      expect(header(res, 'content-type'), target).toMatch(/^application\/problem\+json/);
    }
  });
});

describe('/favicon.ico and /robots.txt', () => {
  it('/favicon.ico is an icon file holding PNG images', async () => {
    const res = await api.send('/favicon.ico');
    expect(res.status).toBe(200);
    expect(header(res, 'content-type')).toBe('image/x-icon');
    const body = decoded(res);
    expect([body.readUInt16LE(0), body.readUInt16LE(2)]).toEqual([0, 1]);
    const count = body.readUInt16LE(4);
    expect(count).toBeGreaterThanOrEqual(1);
    for (let i = 0; i < count; i++) {
      const size = body.readUInt32LE(6 + 16 * i + 8);
      const offset = body.readUInt32LE(6 + 16 * i + 12);
      expect(offset + size).toBeLessThanOrEqual(body.length);
      expect(body.subarray(offset, offset + 8).toString('latin1')).toBe('\x89PNG\r\n\x1a\n');
    }
    expect(header(res, 'etag')).toMatch(/^"/);
  });

  it('/robots.txt allows crawling and names the sitemap index', async () => {
    const res = await api.send('/robots.txt');
    expect(res.status).toBe(200);
    expect(header(res, 'content-type')).toBe('text/plain; charset=utf-8');
    const body = text(decoded(res));
    expect(body).toMatch(/^User-agent: \*$/m);
    expect(body).toContain(`\nSitemap: ${fx.base}/sitemap.xml\n`);
  });
});
