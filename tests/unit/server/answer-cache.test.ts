// The answer cache: rendered answers by canonical URL, bodies in one ring of memory.
import { describe, expect, it } from 'vitest';
import type { Rendered } from '../../../src/api/respond.ts';
import { createAnswerCache, LIVE_ANSWER_MS } from '../../../src/server/answer-cache.ts';

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

  it('drops the oldest answers as the ring wraps, and every answer it still returns has its own bytes', () => {
    const cache = createAnswerCache({ ringBytes: 1000 });
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
    const cache = createAnswerCache({ ringBytes: 100 });
    cache.set('k', 'snapshot', answer('first'));
    cache.set('k', 'snapshot', answer('second'));
    expect(cache.get('k', 'snapshot')?.body.toString()).toBe('second');
  });
});
