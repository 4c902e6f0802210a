// The embed tier over HTTP: the SDK files (type, CORS, caching, compression, size budget), the
// sample media (ranges for seeking), and the hosted player page (options, unavailable videos,
// embeddable anywhere). The player's behaviour in a browser is tests/browser/embeds.spec.ts.
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Truth } from './catalogue-truth.ts';
import { problemShapeProblems, type Problem } from './contract-shapes.ts';
import { decoded, header, type Client } from './http-client.ts';
import { useServedCatalogue } from './harness.ts';
import type { Fixture } from './server-fixture.ts';

let fx: Fixture;
let api: Client;
let truth: Truth;
useServedCatalogue({ seed: { videos: 200 } }, (h) => ({ fx, api, truth } = h));

const enc = encodeURIComponent;
/** The classic script's budget (issue 5): under 12 KB gzipped. */
const SDK_GZIP_BUDGET = 12 * 1024;

interface PlaybackBody { data: { sources: { url: string; quality: string }[]; captions: { lang: string; url?: string }[] } }

describe('/sdk.js and /sdk.mjs', () => {
  it('serve JavaScript with CORS, a strong ETag and CDN caching, and answer If-None-Match with 304', async () => {
    for (const path of ['/sdk.js', '/sdk.mjs']) {
      const res = await api.send(path);
      expect(res.status, path).toBe(200);
      expect(header(res, 'content-type'), path).toBe('text/javascript; charset=utf-8');
      expect(header(res, 'access-control-allow-origin'), path).toBe('*');
      expect(header(res, 'cache-control'), path).toMatch(/public.*s-maxage=\d+/);
      const etag = header(res, 'etag')!;
      expect(etag, path).toMatch(/^"[^"]+"$/);
      const again = await api.send(path, { headers: { 'if-none-match': etag } });
      expect(again.status, path).toBe(304);
      expect(again.body.length).toBe(0);
      const head = await api.send(path, { method: 'HEAD' });
      expect([head.status, head.body.length, header(head, 'content-length')], path).toEqual([200, 0, String(res.body.length)]);
    }
  });

  it('defines the one global VideoPlatform in the classic script, and exports the same names from the module', async () => {
    const classic = (await api.send('/sdk.js')).body.toString('utf8');
    expect(classic).toMatch(/^"use strict";var VideoPlatform=/);
    const module = (await api.send('/sdk.mjs')).body.toString('utf8');
    const exported = /export\{([^}]*)\};?\s*$/.exec(module)?.[1]?.split(',').map((e) => e.split(' as ').pop()!.trim()).sort();
    expect(exported).toEqual(['ApiError', 'IFRAME_ALLOW', 'PLAYER_EVENTS', 'PlayerError', 'TimeoutError', 'attach', 'attachAll', 'createClient', 'embed', 'embedQuery', 'oembed', 'version']);
  });

  it('serves its TypeScript declarations at /sdk.d.ts, declaring every name the bundles export', async () => {
    const res = await api.send('/sdk.d.ts');
    expect(res.status).toBe(200);
    expect(header(res, 'content-type')).toBe('text/plain; charset=utf-8');
    const text = res.body.toString('utf8');
    expect(text).toContain('declare namespace VideoPlatform {');
    for (const name of ['ApiError', 'IFRAME_ALLOW', 'PLAYER_EVENTS', 'PlayerError', 'TimeoutError', 'attach', 'attachAll', 'createClient', 'embed', 'embedQuery', 'oembed', 'version']) {
      expect(text, name).toMatch(new RegExp(`export (const|function|class) ${name}\\b`));
    }
  });

  it(`compresses the classic script to under ${SDK_GZIP_BUDGET / 1024} KB`, async () => {
    const res = await api.send('/sdk.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(header(res, 'content-encoding')).toBe('gzip');
    expect(header(res, 'vary')).toBe('Accept-Encoding');
    expect(gunzipSync(res.body).toString('utf8')).toBe((await api.send('/sdk.js')).body.toString('utf8'));
    expect(res.body.length).toBeLessThan(SDK_GZIP_BUDGET);
  });
});

describe('sample media and captions', () => {
  const playableId = () => truth.publicVideos.find((v) => v.sources.length > 1 && v.captions.length > 0)!.id;

  it('are where the playback answer says, as WebM and WebVTT', async () => {
    const { body } = await api.json<PlaybackBody>(`/v1/videos/${enc(playableId())}/playback`);
    expect(body.data.sources.length).toBeGreaterThan(1);
    for (const source of body.data.sources) {
      expect(source.url.startsWith(`${fx.base}/media/`), source.url).toBe(true);
      const res = await api.send(new URL(source.url).pathname);
      expect([res.status, header(res, 'content-type')], source.url).toEqual([200, 'video/webm']);
      expect(res.body.subarray(0, 4).toString('hex'), 'EBML magic').toBe('1a45dfa3');
    }
    const track = body.data.captions.find((c) => c.url !== undefined)!;
    const vtt = await api.send(new URL(track.url!).pathname);
    expect([vtt.status, header(vtt, 'content-type')]).toEqual([200, 'text/vtt; charset=utf-8']);
    expect(decoded(vtt).toString('utf8')).toMatch(/^WEBVTT\n/);
  });

  it('answer byte ranges with 206 (as media elements seek), and unsatisfiable ones with 416', async () => {
    const { body } = await api.json<PlaybackBody>(`/v1/videos/${enc(playableId())}/playback`);
    const path = new URL(body.data.sources[0]!.url).pathname;
    const whole = await api.send(path);
    const size = whole.body.length;
    expect(header(whole, 'accept-ranges')).toBe('bytes');
    const cases: [string, number, number][] = [['bytes=0-99', 0, 99], ['bytes=1000-', 1000, size - 1], ['bytes=-500', size - 500, size - 1], [`bytes=10-${size + 50}`, 10, size - 1]];
    for (const [range, start, end] of cases) {
      const res = await api.send(path, { headers: { range } });
      expect(res.status, range).toBe(206);
      expect(header(res, 'content-range'), range).toBe(`bytes ${start}-${end}/${size}`);
      expect(res.body.equals(whole.body.subarray(start, end + 1)), range).toBe(true);
    }
    const beyond = await api.send(path, { headers: { range: `bytes=${size}-` } });
    expect([beyond.status, header(beyond, 'content-range')]).toEqual([416, `bytes */${size}`]);
    // a range of an older representation is not served: the whole current one is
    const stale = await api.send(path, { headers: { range: 'bytes=0-9', 'if-range': '"stale"' } });
    expect([stale.status, stale.body.length]).toEqual([200, size]);
    const current = await api.send(path, { headers: { range: 'bytes=0-9', 'if-range': header(whole, 'etag')! } });
    expect([current.status, current.body.length]).toEqual([206, 10]);
  });
});

/** What Chromium sends for a navigation (an iframe's too). */
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

describe('the hosted player page /embed/{id}', () => {
  const page = async (target: string) => {
    const res = await api.send(target);
    return { res, html: decoded(res).toString('utf8') };
  };
  const configOf = (html: string) => JSON.parse(/<script type="application\/json" id="player-config">(.*?)<\/script>/s.exec(html)![1]!) as {
    videoId: string; quality: string | undefined; options: Record<string, unknown>; unavailable?: { code: string };
  };

  it('is embeddable from any site, and plays the video\'s media with its captions', async () => {
    const video = truth.publicVideos.find((v) => v.sources.length > 1 && v.captions.length > 0)!;
    const { res, html } = await page(`/embed/${enc(video.id)}`);
    expect(res.status).toBe(200);
    expect(header(res, 'content-type')).toBe('text/html; charset=utf-8');
    expect(header(res, 'content-security-policy')).toBe('frame-ancestors *');
    expect(header(res, 'x-frame-options')).toBeUndefined();
    expect(header(res, 'etag')).toMatch(/^"/);
    expect(html).toMatch(/<video [^>]*>\s*<source src="[^"]*\/media\/sample-\d+\.webm" type="video\/webm">/);
    for (const track of video.captions) expect(html).toContain(`srclang="${track.lang}"`);
    const config = configOf(html);
    expect(config.videoId).toBe(video.id);
    expect(config.unavailable).toBeUndefined();
    expect(html).toMatch(/<script type="module" src="\/_astro\/[^"]+\.js"><\/script>/);
  });

  it('reads its options from the query, and refuses invalid ones with a 400 naming each', async () => {
    const video = truth.publicVideos.find((v) => v.sources.length > 1)!;
    const { res, html } = await page(`/embed/${enc(video.id)}?autoplay=1&start=3&loop=1&controls=0&muted=1&quality=240p&origin=${enc('https://blog.example')}`);
    expect(res.status).toBe(200);
    expect(configOf(html).options).toMatchObject({ autoplay: true, start: 3, loop: true, controls: false, muted: true, quality: '240p', origin: 'https://blog.example' });
    expect(configOf(html).quality).toBe('240p');
    expect(html).toMatch(/src="[^"]*sample-240\.webm#t=3"/);
    const bad = await api.send(`/embed/${enc(video.id)}?autoplay=yes&start=-1&quality=hd&origin=https%3A%2F%2Fblog.example%2Fpath`);
    expect(bad.status).toBe(400);
    const problem = JSON.parse(decoded(bad).toString('utf8')) as Problem;
    expect(problemShapeProblems(problem, fx.base, 400)).toEqual([]);
    expect((problem.errors ?? []).map((e) => e.parameter).sort()).toEqual(['autoplay', 'origin', 'quality', 'start']);
    // framed like the player it stands for, cached as every problem, varying with Accept
    expect(header(bad, 'content-security-policy')).toBe('frame-ancestors *');
    expect(header(bad, 'cache-control')).toBe('public, max-age=60');
    expect(header(bad, 'vary')).toMatch(/\bAccept\b/);
  });

  it('answers a browser an invalid option with a 400 HTML page in the player, naming it, frameable from any origin', async () => {
    const video = truth.publicVideos.find((v) => v.sources.length > 1)!;
    const one = await api.send(`/embed/${enc(video.id)}?rate=3`, { headers: { accept: BROWSER } });
    expect(one.status).toBe(400);
    expect(header(one, 'content-type')).toBe('text/html; charset=utf-8');
    expect(header(one, 'content-security-policy')).toBe('frame-ancestors *');
    expect(header(one, 'x-frame-options')).toBeUndefined();
    expect(header(one, 'cache-control')).toBe('public, max-age=60');
    expect(header(one, 'vary')).toMatch(/\bAccept\b/);
    const html = decoded(one).toString('utf8');
    expect(html).toMatch(/^<!DOCTYPE html>/i);
    expect(html).toContain('<meta name="robots" content="noindex"');
    expect(html).toMatch(/<div class="problem"[^>]* role="alert"/);
    expect(html).toMatch(/<strong[^>]*>Invalid parameter<\/strong>/);
    expect(html).toMatch(/rate: must be one of/);
    // the player's shell: no site chrome, no link that would open the site inside the frame, no player
    expect(html).toContain('<main aria-label="Video player"');
    expect(html).not.toMatch(/<a\s/);
    expect(html).not.toContain('<video');
    // several bad options: each named
    const many = await api.send(`/embed/${enc(video.id)}?rate=3&end=0&autoplay=yes`, { headers: { accept: BROWSER } });
    expect(many.status).toBe(400);
    const list = decoded(many).toString('utf8');
    for (const name of ['rate', 'end', 'autoplay']) expect(list, name).toMatch(new RegExp(`<code[^>]*>${name}</code>`));
    // the player's shell alone: none of the site's styles (its white page, its centred main)
    expect(list).not.toContain('--ink');
    // a client asking for JSON keeps the problem document, with the same status and headers policy
    const json = await api.send(`/embed/${enc(video.id)}?rate=3`, { headers: { accept: 'application/json' } });
    expect(json.status).toBe(400);
    expect(header(json, 'content-type')).toMatch(/^application\/problem\+json/);
    expect(header(json, 'content-security-policy')).toBe('frame-ancestors *');
    const problem = JSON.parse(decoded(json).toString('utf8')) as Problem;
    expect(problemShapeProblems(problem, fx.base, 400)).toEqual([]);
    expect(problem.detail).toMatch(/^rate: /);
  });

  it('shows an "unavailable" page with status 404 for unknown and private ids', async () => {
    for (const id of [truth.privateIds[0]!, 'no-such-video']) {
      const { res, html } = await page(`/embed/${enc(id)}`);
      expect(res.status, id).toBe(404);
      expect(header(res, 'content-type'), id).toBe('text/html; charset=utf-8');
      expect(header(res, 'content-security-policy'), id).toBe('frame-ancestors *');
      expect(html, id).toContain('Video unavailable');
      expect(configOf(html).unavailable?.code, id).toBe('unavailable');
      expect(html, id).not.toContain('<video');
    }
  });

  it('says so when there is nothing to play: no media, or not available in restricted mode', async () => {
    const silent = truth.publicVideos.find((v) => v.sources.length === 0)!;
    const { res, html } = await page(`/embed/${enc(silent.id)}`);
    expect(res.status).toBe(200);
    expect(configOf(html).unavailable?.code).toBe('no-media');
    expect(html).toContain('no playable media');
    const unrestricted = truth.publicVideos.find((v) => v.sources.length > 0 && !v.features.restricted)!;
    expect(configOf((await page(`/embed/${enc(unrestricted.id)}?restricted=1`)).html).unavailable?.code).toBe('restricted');
    const restricted = truth.publicVideos.find((v) => v.sources.length > 0 && v.features.restricted)!;
    const allowed = await page(`/embed/${enc(restricted.id)}?restricted=1`);
    expect(configOf(allowed.html).unavailable).toBeUndefined();
    expect(allowed.html).toContain('Restricted mode');
  });

  it('is light: its page and script together stay under 16 KB compressed, with nothing else to load but media', async () => {
    const video = truth.publicVideos.find((v) => v.sources.length > 1 && v.captions.length > 0)!;
    const res = await api.send(`/embed/${enc(video.id)}`, { headers: { 'accept-encoding': 'gzip' } });
    const html = decoded(res).toString('utf8');
    const scripts = [...html.matchAll(/<script[^>]* src="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBe(1);
    expect(html).not.toMatch(/<link[^>]+rel="stylesheet"/);
    const script = await api.send(scripts[0]!, { headers: { 'accept-encoding': 'gzip' } });
    expect(header(script, 'cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.body.length + script.body.length).toBeLessThan(16 * 1024);
  });

  it('serves unlisted videos with noindex', async () => {
    const unlisted = truth.unlistedIds[0]!;
    const { res, html } = await page(`/embed/${enc(unlisted)}`);
    expect(res.status).toBe(200);
    expect(header(res, 'x-robots-tag')).toBe('noindex');
    expect(html).toContain('<meta name="robots" content="noindex"');
  });
});

describe('the live player page /embed/live/{username}', () => {
  it('is embeddable anywhere: frame-ancestors * on the page', async () => {
    const live = truth.live[0]!;
    const res = await api.send(`/embed/live/${enc(live.channel)}`, { headers: { accept: BROWSER } });
    expect(res.status).toBe(200);
    expect(header(res, 'content-type')).toBe('text/html; charset=utf-8');
    expect(header(res, 'content-security-policy')).toBe('frame-ancestors *');
    expect(header(res, 'x-frame-options')).toBeUndefined();
    expect(header(res, 'etag')).toMatch(/^"/);
    const again = await api.send(`/embed/live/${enc(live.channel)}`, { headers: { accept: BROWSER, 'if-none-match': header(res, 'etag')! } });
    expect(again.status).toBe(304);
  });

  it('answers an unknown channel with a 404 that is frameable too: a page in the player for a browser, problem+json for others', async () => {
    const page = await api.send('/embed/live/nobody-here', { headers: { accept: BROWSER } });
    expect([page.status, header(page, 'content-type')]).toEqual([404, 'text/html; charset=utf-8']);
    expect(header(page, 'content-security-policy')).toBe('frame-ancestors *');
    expect(header(page, 'cache-control')).toBe('public, max-age=60');
    expect(header(page, 'vary')).toMatch(/\bAccept\b/);
    const html = decoded(page).toString('utf8');
    expect(html).toMatch(/<strong[^>]*>Not found<\/strong>/);
    expect(html).toContain('Nothing is at /embed/live/nobody-here.');
    expect(html).toContain('<main aria-label="Video player"');
    for (const accept of [undefined, 'application/json']) {
      const res = await api.send('/embed/live/nobody-here', accept ? { headers: { accept } } : {});
      expect(res.status, accept).toBe(404);
      expect(header(res, 'content-type'), accept).toMatch(/^application\/problem\+json/);
      expect(header(res, 'content-security-policy'), accept).toBe('frame-ancestors *');
      expect(problemShapeProblems(JSON.parse(decoded(res).toString('utf8')) as Problem, fx.base, 404), accept).toEqual([]);
    }
  });

  it('answers a path under /embed/ that no player has with a 404 frameable too, whatever the client asks for', async () => {
    for (const accept of [BROWSER, 'application/json', undefined]) {
      const res = await api.send('/embed/a/b/c', accept ? { headers: { accept } } : {});
      expect(res.status, accept).toBe(404);
      expect(header(res, 'content-security-policy'), accept).toBe('frame-ancestors *');
    }
    // a site path's last resort stays as it was: no framing policy
    const site = await api.send('/no/such/page', { headers: { accept: 'application/json' } });
    expect(site.status).toBe(404);
    expect(header(site, 'content-security-policy')).toBeUndefined();
  });
});
