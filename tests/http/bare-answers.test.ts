// Answers node:http used to give bare (no body, no CORS) or not at all: every answer of 400 or more
// is an RFC 9457 problem with CORS, whoever writes it (docs/reliability.md, "HTTP front").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchange, type RawAnswer } from '../../scripts/bench/raw-http.ts';
import { isRecord, problemShapeProblems } from './contract-shapes.ts';
import { startFixture, type Fixture } from './server-fixture.ts';

let fx: Fixture;
beforeAll(async () => { fx = await startFixture({ seed: { videos: 40 } }); });
afterAll(async () => { await fx?.close(); });

const send = (raw: string) => exchange(fx.running.port, { pieces: [Buffer.from(raw, 'latin1')] });

function expectProblem(answer: RawAnswer | undefined, status: number, slug: string): Record<string, unknown> {
  expect(answer?.status).toBe(status);
  expect(answer?.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(answer?.headers['access-control-allow-origin']).toBe('*');
  const body = JSON.parse(answer!.body.toString('utf8')) as unknown;
  expect(problemShapeProblems(body, fx.base, status)).toEqual([]);
  expect(isRecord(body) && body['type']).toBe(`${fx.base}/problems/${slug}`);
  return body as Record<string, unknown>;
}

describe('heads node:http cannot read', () => {
  const cases: [string, string, number, string][] = [
    ['a lower-case method', 'get /v1/categories HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'bad-request'],
    ['an unknown method', 'FROB /v1/categories HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'bad-request'],
    ['a NUL in the path', 'GET /v1/\0 HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'bad-request'],
    ['raw non-ASCII in the path', 'GET /v1/\u00e9 HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'bad-request'],
    ['a path without a leading slash', 'GET v1/categories HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'bad-request'],
    ['an unreadable Content-Length', 'GET /v1/categories HTTP/1.1\r\nHost: x\r\nContent-Length: 1x\r\n\r\n', 400, 'bad-request'],
    ['Content-Length and Transfer-Encoding', 'POST /v1/categories HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 400, 'bad-request'],
    ['a bad HTTP version', 'GET /v1/categories HTTP/3.1\r\nHost: x\r\n\r\n', 400, 'bad-request'],
    ['a space before a colon', 'GET /v1/categories HTTP/1.1\r\nHost: x\r\nContent-Length : 4\r\n\r\nabcd', 400, 'bad-request'],
    ['bare LF line ends', 'GET /v1/categories HTTP/1.1\nHost: x\n\n', 400, 'bad-request'],
    ['no Host on HTTP/1.1', 'GET /v1/categories HTTP/1.1\r\n\r\n', 400, 'bad-request'],
    ['a head over 16 KB', `GET /v1/categories HTTP/1.1\r\nHost: x\r\nX: ${'a'.repeat(17_000)}\r\n\r\n`, 431, 'headers-too-large'],
  ];
  for (const [what, raw, status, slug] of cases) {
    it(`answers ${what} with a ${status} ${slug} problem and closes`, async () => {
      const result = await send(raw);
      expect(result.answers).toHaveLength(1);
      const problem = expectProblem(result.answers[0], status, slug);
      expect(problem['detail']).toEqual(expect.any(String));
      expect(result.closed).toBe(true);
    });
  }

  it('says in the detail what is wrong with the head, not only that it is malformed', async () => {
    const detail = async (raw: string) => expectProblem((await send(raw)).answers[0], 400, 'bad-request')['detail'];
    expect(await detail('GET /v1/categories HTTP/1.1\nHost: x\n\n')).toMatch(/^The request line does not end with CRLF right after its version/);
    expect(await detail('GET\r\n\r\n')).toMatch(/^The request line has no request target after its method/);
    expect(await detail('FROB /v1/categories HTTP/1.1\r\nHost: x\r\n\r\n')).toMatch(/^The method is not one HTTP knows/);
    expect(await detail('GET /v1/categories HTTP/3.1\r\nHost: x\r\n\r\n')).toMatch(/^The protocol version is not HTTP\/1\.0 or HTTP\/1\.1/);
    expect(await detail('GET /v1/categories HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n')).toMatch(/folded header values \(obs-fold\) are not accepted/);
    expect(await detail('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n')).toMatch(/^HTTP\/2 without TLS/);
  });

  it('names what it could read of the target as the instance, and only visible ASCII of it', async () => {
    const result = await send('get /v1/videos?q=<x> HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(expectProblem(result.answers[0], 400, 'bad-request')['instance']).toBe('/v1/videos?q=<x>');
    const other = await send('GET /v1/\0\u00e9x HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(expectProblem(other.answers[0], 400, 'bad-request')['instance']).toBe('/v1/x');
  });

  it('leaves the body out of a refusal of what reads as HEAD', async () => {
    const result = await exchange(fx.running.port, { pieces: ['HEAD /v1/categories HTTP/3.1\r\nHost: x\r\n\r\n'], headOnly: () => true });
    expect(result.answers.map((a) => [a.status, a.headers['content-type']?.split(';')[0], a.body.length])).toEqual([[400, 'application/problem+json', 0]]);
    expect(result.trailing).toBe(0);
  });
});

describe('requests node:http answered bare or dropped', () => {
  it('answers CONNECT with a 405 problem naming the allowed methods, and closes', async () => {
    const result = await send('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(result.answers).toHaveLength(1);
    expectProblem(result.answers[0], 405, 'method-not-allowed');
    expect(result.answers[0]?.headers['allow']).toBe('GET, HEAD, OPTIONS');
    expect(result.closed).toBe(true);
  });

  it('answers an Expect other than 100-continue with a 417 problem', async () => {
    const result = await send('GET /v1/categories HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\n\r\n');
    expectProblem(result.answers[0], 417, 'expectation-failed');
  });

  for (const path of ['/openapi.json', '/sdk.mjs']) {
    it(`answers a range past the end of ${path} with a 416 problem and Content-Range`, async () => {
      const result = await send(`GET ${path} HTTP/1.1\r\nHost: x\r\nRange: bytes=99999999-\r\n\r\n`);
      expectProblem(result.answers[0], 416, 'range-not-satisfiable');
      expect(result.answers[0]?.headers['content-range']).toMatch(/^bytes \*\/\d+$/);
      expect(result.answers[0]?.headers['cache-control']).toBe('no-store');
    });
  }

  it('documents each new problem type at its type URI', async () => {
    for (const slug of ['bad-request', 'request-timeout', 'range-not-satisfiable', 'expectation-failed', 'too-many-connections', 'headers-too-large']) {
      const result = await send(`GET /problems/${slug} HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect(result.answers[0]?.status, slug).toBe(200);
    }
  });
});

describe('the hosted player', () => {
  it('answers an unknown video with the status line 404 Not Found', async () => {
    const result = await send('GET /embed/no-such-video HTTP/1.1\r\nHost: x\r\n\r\n');
    expect([result.answers[0]?.status, result.answers[0]?.reason]).toEqual([404, 'Not Found']);
  });
});
