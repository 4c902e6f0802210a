// Random malformed parameters never make the service fail (docs/api-contract.md §4–5: 400, never 500): a
// seeded loop over every endpoint with garbage values. Change SEED to explore; a failure message
// names the request, so it can be replayed.
import { describe, expect, it } from 'vitest';
import { type Truth } from './catalogue-truth.ts';
import { isRecord, problemShapeProblems } from './contract-shapes.ts';
import { header, seededRandom, type Client } from './http-client.ts';
import { useServedCatalogue } from './harness.ts';
import type { Fixture } from './server-fixture.ts';

const SEED = 20260301;
const REQUESTS = 300;

let fx: Fixture;
let api: Client;
let truth: Truth;

useServedCatalogue({ seed: { videos: 400 } }, (h) => ({ fx, api, truth } = h));

/** Values sent percent-encoded. */
const TEXT = [
  '', ' ', '0', '1', '20', '50', '51', '-1', '-0', '+5', '00', '1.5', '1e3', '1e309', '0x1F', 'NaN', 'Infinity',
  '2147483647', '2147483648', '4294967296', '9007199254740993', '9'.repeat(400), '0.0000001',
  'latest', 'views', 'trending', 'short', 'medium', 'long', '3d', 'calm', 'captions', 'restricted',
  '🎥', 'ünïcödé', '日本語の動画', '\u202eevil', '\uFFFF', '\u0000', '\t\n\r', 'a b  c', 'A'.repeat(5000), 'ü'.repeat(700),
  "' OR 1=1 --", '"; DROP TABLE videos; --', '{"$gt":""}', '[]', 'null', 'undefined', 'true', '<script>alert(1)</script>',
  '../../etc/passwd', '..', '.', '/', '\\', ',', ',,,,', 'a,b,c', '%', '%%', '=', '&', '#frag', '?',
];
/** Raw fragments put into the URL as they are: broken or unusual percent-encoding. */
const RAW = ['%', '%%', '%zz', '%C3', '%C3%28', '%ED%A0%80', '%00', '%FF%FE', '%2C%2C', '%2F..%2F', '%252F', '%E2%80%AE', '+', '++', ';', '%u0041', '%%32%35'];
const PARAMS = ['limit', 'offset', 'cursor', 'sort', 'category', 'creator', 'duration', 'feature', 'q', 'ids', 'format', 'callback', 'LIMIT', 'limit[]', '', 'a%00b'];
const ENDPOINTS = ['/v1/videos', '/v1/videos/batch', '/v1/videos/{id}', '/v1/videos/{id}/playback', '/v1/videos/{id}/related', '/v1/videos/{id}/comments', '/v1/categories', '/v1/health'];

describe('random malformed requests', () => {
  it(`never answers 5xx, and always answers JSON or a problem, over ${REQUESTS} seeded random requests`, async () => {
    const random = seededRandom(SEED);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    const cursor = (await api.json<{ paging: { nextCursor: string } }>('/v1/videos?limit=3')).body.paging.nextCursor;
    const ids = [truth.publicVideos[0]?.id ?? 'x', truth.privateIds[0] ?? 'y', truth.unlistedIds[0] ?? 'z'];
    const value = (): string => {
      const r = random();
      if (r < 0.55) return encodeURIComponent(pick(TEXT));
      if (r < 0.8) return pick(RAW);
      if (r < 0.9) return cursor.slice(0, Math.floor(random() * cursor.length)) + pick(RAW) + cursor.slice(Math.floor(random() * cursor.length));
      return ids.map(encodeURIComponent).join(pick([',', '%2C', ',,', '%20', '+']));
    };
    const failures: string[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const id = random() < 0.4 ? encodeURIComponent(pick(ids)) : random() < 0.5 ? encodeURIComponent(pick(TEXT)) || 'x' : pick(RAW);
      const path = pick(ENDPOINTS).replace('{id}', id);
      const query: string[] = [];
      for (let n = Math.floor(random() * 5); n > 0; n--) query.push(`${pick(PARAMS)}=${value()}`);
      if (random() < 0.1) query.push(pick(RAW));
      const target = query.length > 0 ? `${path}?${query.join('&')}` : path;
      const method = random() < 0.1 ? 'HEAD' : 'GET';
      let res;
      try {
        res = await api.send(target, { method, headers: random() < 0.3 ? { 'accept-encoding': 'br, gzip' } : {} });
      } catch (error) {
        failures.push(`#${i} ${method} ${target}: ${(error as Error).message}`);
        continue;
      }
      const where = `#${i} ${method} ${target.slice(0, 200)} → ${res.status}`;
      if (res.status >= 500) { failures.push(where); continue; }
      if (method === 'HEAD' || res.status === 304) continue;
      const type = header(res, 'content-type') ?? '';
      if (!/^application\/(problem\+)?json(;|$)/.test(type)) { failures.push(`${where}: content-type ${type}`); continue; }
      if (header(res, 'content-encoding')) continue; // decoded bodies are checked elsewhere
      let body: unknown;
      try {
        body = JSON.parse(res.body.toString('utf8'));
      } catch {
        failures.push(`${where}: body is not JSON`);
        continue;
      }
      if (res.status >= 400) {
        failures.push(...problemShapeProblems(body, fx.base, res.status).map((p) => `${where}: ${p}`));
        if (!type.startsWith('application/problem+json')) failures.push(`${where}: an error as ${type}`);
      } else if (!isRecord(body) || !('data' in body)) failures.push(`${where}: 2xx body without data`);
    }
    expect(failures).toEqual([]);
    expect((await api.send('/v1/health')).status).toBe(200);
  });
});
