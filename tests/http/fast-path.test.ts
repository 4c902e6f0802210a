// The raw front of the server (src/server/fast-path.ts) over real sockets: pipelined requests,
// heads split across packets, hand-over to node:http mid-connection, Connection: close.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchange as rawExchange, statusesOf } from './raw-exchange.ts';
import { startFixture, type Fixture } from './server-fixture.ts';

let fx: Fixture;
beforeAll(async () => { fx = await startFixture({ seed: { videos: 120 } }); });
afterAll(async () => { await fx?.close(); });

const exchange = (pieces: string[], quietMs?: number) => rawExchange(fx.running.port, pieces, quietMs);
const statuses = statusesOf;
const canonical = '/v1/videos?limit=20&sort=latest';

describe('fast path', () => {
  it('answers pipelined prerendered pages in order on one connection', async () => {
    const req = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`;
    const text = await exchange([req(canonical) + req('/v1/categories') + req(canonical)]);
    expect(statuses(text)).toEqual([200, 200, 200]);
    expect(text.indexOf('"paging"')).toBeLessThan(text.indexOf('"videoCount"'));
  });

  it('answers a request whose head arrives in several packets', async () => {
    const text = await exchange(['GET /v1/categ', 'ories HTTP/1.1\r\nHo', 'st: x\r\n', '\r\n']);
    expect(statuses(text)).toEqual([200]);
    expect(text).toMatch(/access-control-allow-origin: \*/i);
    expect(text).toMatch(/^date: /im);
  });

  it('answers a dynamic request after a static one on one connection, keeping order', async () => {
    const text = await exchange([
      `GET ${canonical} HTTP/1.1\r\nHost: x\r\n\r\nGET /v1/videos?limit=3 HTTP/1.1\r\nHost: x\r\n\r\nGET /v1/categories HTTP/1.1\r\nHost: x\r\n\r\n`,
    ]);
    expect(statuses(text)).toEqual([200, 200, 200]);
    const limits = [...text.matchAll(/"limit":(\d+)/g)].map((m) => Number(m[1]));
    expect(limits).toEqual([20, 3]);
  });

  it('answers a page pipelined before a request node:http answers first, each once, in order', async () => {
    // the page's answer is held to the turn's end (turn-writes.ts); the hand-off writes it first
    const text = await exchange([`GET /v1/categories HTTP/1.1\r\nHost: x\r\n\r\nPOST /v1/categories HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}GET /v1/categories HTTP/1.1\r\nHost: x\r\n\r\n`]);
    expect(statuses(text)).toEqual([200, 405, 200]);
    expect(text.indexOf('"videoCount"')).toBeLessThan(text.indexOf('HTTP/1.1 405'));
  });

  it('answers requests that arrive together on many connections, each on its own connection', async () => {
    const paths = Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? '/v1/categories' : `/v1/videos?limit=${1 + (i % 7)}&sort=latest`));
    const texts = await Promise.all(paths.map((path) => exchange([`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`])));
    texts.forEach((text, i) => {
      expect(statuses(text)).toEqual([200]);
      if (paths[i] === '/v1/categories') expect(text).toContain('"videoCount"');
      else expect([...text.matchAll(/"limit":(\d+)/g)].map((m) => Number(m[1]))).toEqual([1 + (i % 7)]);
    });
  });

  it('hands a POST with a body to node:http, which answers 405', async () => {
    const text = await exchange(['POST /v1/categories HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}']);
    expect(statuses(text)).toEqual([405]);
    expect(text).toMatch(/allow: GET, HEAD, OPTIONS/i);
  });

  it('closes the connection after answering Connection: close', async () => {
    const text = await exchange([`GET /v1/categories HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nGET /v1/categories HTTP/1.1\r\nHost: x\r\n\r\n`], 3000);
    expect(statuses(text)).toEqual([200]);
  });

  it('answers HEAD with the headers of GET and no body, and 304 for a matching If-None-Match', async () => {
    const get = await exchange([`GET /v1/categories HTTP/1.1\r\nHost: x\r\n\r\n`]);
    const etag = /etag: (".*")/i.exec(get)?.[1];
    expect(etag).toBeDefined();
    const head = await exchange([`HEAD /v1/categories HTTP/1.1\r\nHost: x\r\n\r\n`]);
    expect(head.split('\r\n\r\n')[1]).toBe('');
    expect(/content-length: (\d+)/i.exec(head)?.[1]).toBe(/content-length: (\d+)/i.exec(get)?.[1]);
    const conditional = await exchange([`GET /v1/categories HTTP/1.1\r\nHost: x\r\nIf-None-Match: ${etag}\r\n\r\n`]);
    expect(statuses(conditional)).toEqual([304]);
    expect(conditional.split('\r\n\r\n')[1]).toBe('');
  });

  it('serves an absolute-form request target by its path and query', async () => {
    const text = await exchange([`GET http://example.test/v1/videos?sort=latest&limit=20 HTTP/1.1\r\nHost: example.test\r\n\r\n`]);
    expect(statuses(text)).toEqual([200]);
    expect(text).toContain('"paging"');
  });

  it('answers Connection: close through node:http, saying so, and closes', async () => {
    const text = await exchange([`GET ${canonical} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`], 3000);
    expect(statuses(text)).toEqual([200]);
    expect(text).toMatch(/^connection: close/im);
  });
});

/** An answer's header lines as a map (names lower-cased) and its body. */
function parseAnswer(text: string): { status: number; headers: Map<string, string>; body: Buffer } {
  const split = text.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
  const headers = new Map(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()] as const));
  return { status: Number(statusLine.split(' ')[1]), headers, body: Buffer.from(text.slice(split + 4), 'latin1') };
}

/** What the two layers may say differently of one answer: the moment, and how node:http names its keep-alive. */
const PER_CONNECTION = new Set(['date', 'connection', 'keep-alive', 'ratelimit']);
const sameAnswer = (a: ReturnType<typeof parseAnswer>) => ({
  status: a.status,
  headers: Object.fromEntries([...a.headers].filter(([name]) => !PER_CONNECTION.has(name)).sort(([x], [y]) => (x < y ? -1 : 1))),
  body: a.body.toString('latin1'),
});

describe('queries every caller shares, answered by the fast path (answer-cache.ts)', () => {
  const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: x\r\n${extra}\r\n`;
  /** A request node:http answers (the fast path leaves any Content-Length to it): the reference answer. */
  const viaNodeHttp = (path: string, extra = '') => get(path, `Content-Length: 0\r\n${extra}`);

  it('sends a list page, first and again, with the bytes and headers node:http sends and its own rate-limit headers', async () => {
    const target = '/v1/videos?limit=3&offset=2&sort=views';
    const first = parseAnswer(await exchange([get(target)]));
    const again = parseAnswer(await exchange([get(target)]));
    const reference = parseAnswer(await exchange([viaNodeHttp(target)]));
    expect(first.status).toBe(200);
    expect(reference.headers.get('connection')).toBe('keep-alive'); // node:http answered
    for (const answer of [first, again]) {
      expect(answer.headers.has('connection')).toBe(false); // the fast path answered
      expect(sameAnswer(answer)).toEqual(sameAnswer(reference));
      expect(answer.headers.get('ratelimit')).toMatch(/;r=\d+;/);
    }
    expect(again.headers.get('ratelimit')).not.toBe(first.headers.get('ratelimit'));
  });

  it('sends the compressed variant and the 304 as node:http does', async () => {
    const target = '/v1/videos?limit=20&offset=3&sort=likes';
    const br = 'Accept-Encoding: gzip, br\r\n';
    const first = parseAnswer(await exchange([get(target, br)]));
    const again = parseAnswer(await exchange([get(target, br)]));
    const reference = parseAnswer(await exchange([viaNodeHttp(target, br)]));
    expect(first.headers.get('content-encoding')).toBe('br');
    expect(again.headers.has('connection')).toBe(false);
    expect(sameAnswer(first)).toEqual(sameAnswer(reference));
    expect(sameAnswer(again)).toEqual(sameAnswer(reference));
    const etag = first.headers.get('etag')!;
    const conditional = parseAnswer(await exchange([get(target, `${br}If-None-Match: ${etag}\r\n`)]));
    const conditionalReference = parseAnswer(await exchange([viaNodeHttp(target, `${br}If-None-Match: ${etag}\r\n`)]));
    expect(conditional.status).toBe(304);
    expect(conditional.body.length).toBe(0);
    expect(conditional.headers.has('content-type')).toBe(false);
    expect(sameAnswer(conditional)).toEqual(sameAnswer(conditionalReference));
    const identity = parseAnswer(await exchange([get(target)]));
    expect(identity.headers.has('content-encoding')).toBe(false);
    expect(identity.headers.get('etag')).not.toBe(etag);
  });

  it('answers a bad query with the problem node:http answers, never keeping it', async () => {
    const target = '/v1/videos?limit=999&offset=1';
    const reference = parseAnswer(await exchange([viaNodeHttp(target)]));
    expect(reference.status).toBe(400);
    for (let i = 0; i < 2; i++) {
      const answer = parseAnswer(await exchange([get(target)]));
      expect(answer.headers.has('connection')).toBe(false);
      expect(sameAnswer(answer)).toEqual(sameAnswer(reference));
    }
  });

  it('answers HEAD of a list page with the headers of GET and no body', async () => {
    const target = '/v1/videos?limit=4&offset=5&sort=views';
    const got = parseAnswer(await exchange([get(target)]));
    const head = parseAnswer(await exchange([`HEAD ${target} HTTP/1.1\r\nHost: x\r\n\r\n`]));
    expect(head.body.length).toBe(0);
    expect(sameAnswer({ ...head, body: got.body })).toEqual(sameAnswer(got));
  });

  it('answers queries of live state (channels, search, status) itself, as node:http does, and keeps the connection', async () => {
    for (const target of ['/v1/channels?sort=views&limit=2&offset=1', '/v1/search?q=talk&limit=2', '/v1/health']) {
      const answer = parseAnswer(await exchange([get(target)]));
      const reference = parseAnswer(await exchange([viaNodeHttp(target)]));
      expect(reference.headers.get('connection'), target).toBe('keep-alive'); // node:http answered
      expect(answer.headers.has('connection'), target).toBe(false); // the fast path answered
      expect(sameAnswer(answer), target).toEqual(sameAnswer(reference));
    }
    // Pipelined after one of them on the same connection, a prerendered page is still the fast
    // path's: before, the first such query handed the connection to node:http for good.
    const text = await exchange([get('/v1/channels?sort=subscribers&limit=3') + get(canonical) + get('/v1/categories')]);
    expect(statuses(text)).toEqual([200, 200, 200]);
    expect(text).not.toMatch(/^connection: keep-alive/im);
  });

  it('leaves a request of an answer that depends on the caller to node:http', async () => {
    const answer = parseAnswer(await exchange([get('/v1/partner')]));
    expect(answer.status).toBe(401);
    expect(answer.headers.get('connection')).toBe('keep-alive');
  });

  it('answers a list page in a reordered spelling of a prerendered one with that page', async () => {
    const page = parseAnswer(await exchange([get(canonical)]));
    const reordered = parseAnswer(await exchange([get('/v1/videos?sort=latest&limit=20')]));
    expect(reordered.headers.has('connection')).toBe(false);
    expect(sameAnswer(reordered)).toEqual(sameAnswer(page));
  });
});
