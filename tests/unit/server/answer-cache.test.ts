// The answer cache: rendered answers by canonical URL, bodies in slabs of memory, variants made once,
// and the targets the fast path finds them at.
import { describe, expect, it } from 'vitest';
import type { Rendered } from '../../../src/api/respond.ts';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { chooseKeptVariant, createAnswerCache, LIVE_ANSWER_MS, MAX_ALIASES } from '../../../src/server/answer-cache.ts';
import { etagOf } from '../../../src/http/etag.ts';

const answer = (text: string, status = 200): Rendered => ({ status, body: Buffer.from(text), headers: { etag: `"${text.length}"` } });

describe('createAnswerCache', () => {
  it('returns a remembered answer with the same status, headers and bytes', () => {
    const cache = createAnswerCache();
    cache.set('/v1/search?q=a', 'live', answer('{"data":[1]}'));
    const hit = cache.get('/v1/search?q=a', 'live')!;
    expect(hit.status).toBe(200);
    expect(hit.headers).toEqual({ etag: '"12"' });
    expect(hit.body.toString()).toBe('{"data":[1]}');
    expect(cache.get('/v1/search?q=b', 'live')).toBeUndefined();
  });

  it('never keeps answers for one caller or of the moment, nor problems', () => {
    const cache = createAnswerCache();
    cache.set('/v1/partner', 'private', answer('x'));
    cache.set('/v1/health', 'none', answer('y'));
    cache.set('/v1/videos?q=', 'snapshot', answer('z', 400));
    expect([cache.get('/v1/partner', 'private'), cache.get('/v1/health', 'none'), cache.get('/v1/videos?q=', 'snapshot')]).toEqual([undefined, undefined, undefined]);
  });

  it('keeps answers of live state in a ring: a hit is a copy of exactly its bytes, and an answer written over has left', () => {
    const cache = createAnswerCache({ liveRingBytes: 64 });
    cache.set('a', 'live', answer('a'.repeat(16)));
    const hit = cache.get('a', 'live')!;
    expect(cache.holds(hit)).toBe(false);
    hit.body.fill(0x7a); // what a sender does with its copy never reaches the ring
    expect(cache.get('a', 'live')?.body.toString()).toBe('a'.repeat(16));
    // 16 answers of 16 bytes go round the 64-byte ring four times: each answer is either its own bytes or gone
    for (let i = 0; i < 16; i++) {
      cache.set(`k${i}`, 'live', answer(String.fromCharCode(98 + i).repeat(16)));
      for (let j = 0; j <= i; j++) {
        const got = cache.get(`k${j}`, 'live');
        if (got) expect(got.body.toString()).toBe(String.fromCharCode(98 + j).repeat(16));
      }
    }
    expect(cache.get('a', 'live')).toBeUndefined();
    expect(cache.get('k0', 'live')).toBeUndefined();
    expect(cache.get('k15', 'live')?.body.toString()).toBe('q'.repeat(16));
    // an answer larger than a quarter of the ring is not kept
    cache.set('big', 'live', answer('x'.repeat(17)));
    expect(cache.get('big', 'live')).toBeUndefined();
  });

  it('forgets answers carrying live state after 2 s, and keeps snapshot answers', () => {
    let t = 0;
    const cache = createAnswerCache({ now: () => t });
    cache.set('live', 'live', answer('l'));
    cache.set('snap', 'snapshot', answer('s'));
    t = LIVE_ANSWER_MS - 1;
    expect(cache.get('live', 'live')).toBeDefined();
    t = LIVE_ANSWER_MS;
    expect(cache.get('live', 'live')).toBeUndefined();
    expect(cache.get('snap', 'snapshot')?.body.toString()).toBe('s');
  });

  it('drops the oldest answers as the slabs are reused, and every answer it still returns has its own bytes', () => {
    const cache = createAnswerCache({ bytes: 1000, slabBytes: 100 });
    const bodies = new Map<string, string>();
    for (let i = 0; i < 200; i++) {
      const body = `${i}:`.padEnd(10 + (i * 7) % 50, String.fromCharCode(97 + (i % 26)));
      bodies.set(`k${i}`, body);
      cache.set(`k${i}`, 'snapshot', answer(body));
      for (const [key, expected] of bodies) {
        const hit = cache.get(key, 'snapshot');
        if (hit) expect(hit.body.toString(), key).toBe(expected);
      }
    }
    expect(cache.get('k0', 'snapshot')).toBeUndefined();
    expect(cache.get('k199', 'snapshot')?.body.toString()).toBe(bodies.get('k199'));
  });

  it('replaces the answer of a key set again', () => {
    const cache = createAnswerCache({ bytes: 200, slabBytes: 100 });
    cache.set('k', 'snapshot', answer('first'));
    cache.set('k', 'snapshot', answer('second'));
    expect(cache.get('k', 'snapshot')?.body.toString()).toBe('second');
  });

  it('never changes the bytes of an answer it has given out, even after dropping it', () => {
    const cache = createAnswerCache({ bytes: 300, slabBytes: 100 });
    const given = cache.set('first', 'snapshot', answer('a'.repeat(60))).body;
    for (let i = 0; i < 50; i++) cache.set(`k${i}`, 'snapshot', answer(String(i).padEnd(60, 'z')));
    expect(cache.get('first', 'snapshot')).toBeUndefined();
    expect(given.toString()).toBe('a'.repeat(60));
    expect(cache.size).toBeLessThanOrEqual(300);
  });

  it('gives back what it keeps, or the answer itself when it keeps nothing', () => {
    const cache = createAnswerCache();
    const kept = cache.set('k', 'snapshot', answer('body'));
    expect(cache.holds(kept)).toBe(true);
    const problem = answer('bad', 400);
    expect(cache.set('p', 'snapshot', problem)).toBe(problem);
    expect(cache.holds(problem)).toBe(false);
  });

  it('makes each compressed variant once, as an uncached answer would be compressed, with its own ETag', () => {
    const cache = createAnswerCache();
    const text = JSON.stringify({ data: Array.from({ length: 200 }, (_, i) => ({ id: i, title: `video ${i}` })) });
    const body = Buffer.from(text);
    const kept = cache.get('k', 'snapshot') ?? cache.set('k', 'snapshot', { status: 200, body, headers: { 'content-type': 'application/json', etag: etagOf(body) } });
    if (!cache.holds(kept)) throw new Error('not kept');
    const br = chooseKeptVariant(cache, kept, 'gzip;q=0.5, br');
    expect(br.encoding).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(text);
    expect(br.etag).not.toBe(etagOf(body));
    expect(chooseKeptVariant(cache, kept, 'br').body).toBe(br.body);
    const gzip = chooseKeptVariant(cache, kept, 'gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(text);
    expect(chooseKeptVariant(cache, kept, undefined)).toEqual({ encoding: undefined, body: kept.body, etag: etagOf(body) });
  });

  it('sends small answers as they are, whatever the client accepts', () => {
    const cache = createAnswerCache();
    const kept = cache.set('k', 'snapshot', { status: 200, body: Buffer.from('{}'), headers: { etag: '"1-2"' } });
    if (!cache.holds(kept)) throw new Error('not kept');
    expect(chooseKeptVariant(cache, kept, 'br').encoding).toBeUndefined();
    expect(cache.headers(kept, undefined, false).flat).not.toContain('vary');
  });

  it('finds snapshot answers at the targets they were asked at, a bounded number of them, until they leave', () => {
    const cache = createAnswerCache({ bytes: 200, slabBytes: 100 });
    const kept = cache.set('/v1/videos?limit=2', 'snapshot', answer('x'.repeat(40)));
    if (!cache.holds(kept)) throw new Error('not kept');
    const spellings = Array.from({ length: MAX_ALIASES + 2 }, (_, i) => `/v1/videos?limit=2${'&'.repeat(i)}`);
    for (const target of spellings) cache.alias(target, kept);
    expect(spellings.map((t) => cache.byTarget(t) === kept)).toEqual(spellings.map((_, i) => i < MAX_ALIASES));
    // an answer of live state is kept in the live ring, never held for the fast path
    const live = cache.set('/v1/live', 'live', answer('live'));
    expect(cache.holds(live)).toBe(false);
    expect(cache.get('/v1/live', 'live')?.body.toString()).toBe('live');
    expect(cache.byTarget('/v1/live')).toBeUndefined();
    for (let i = 0; i < 10; i++) cache.set(`k${i}`, 'snapshot', answer('y'.repeat(40)));
    expect(cache.byTarget(spellings[0]!)).toBeUndefined();
  });

  it('prepares the 304 header set without type, length or encoding, and the 200 set with them', () => {
    const cache = createAnswerCache();
    const body = Buffer.from('z'.repeat(2000));
    const kept = cache.set('k', 'snapshot', { status: 200, body, headers: { 'content-type': 'application/json', 'cache-control': 'public', etag: etagOf(body), link: '<x>; rel="next"' } });
    if (!cache.holds(kept)) throw new Error('not kept');
    const asMap = (flat: readonly string[]) => new Map(flat.flatMap((v, i) => (i % 2 === 0 ? [[v, flat[i + 1]!]] : [])));
    const ok = asMap(cache.headers(kept, 'gzip', false).flat);
    const notModified = asMap(cache.headers(kept, 'gzip', true).flat);
    expect(ok.get('content-encoding')).toBe('gzip');
    expect(ok.get('content-length')).toBe(String(cache.variant(kept, 'gzip').length));
    expect(ok.get('vary')).toBe('Accept-Encoding');
    expect(ok.get('access-control-allow-origin')).toBe('*');
    expect([...notModified.keys()].sort()).toEqual([...ok.keys()].filter((k) => !['content-type', 'content-length', 'content-encoding'].includes(k)).sort());
    expect(notModified.get('etag')).toBe(ok.get('etag'));
  });
});
