// Slow and greedy clients against the real server (docs/reliability.md, "HTTP front"): every
// request head, and every request's body, has a deadline whoever reads it (the fast path or
// node:http after the hand-off); an address holds a bounded number of connections. Deadlines are
// short here (HEAD_TIMEOUT_MS, REQUEST_TIMEOUT_MS) so that the suite runs in seconds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchange, type RawAnswer } from '../../scripts/bench/raw-http.ts';
import { isRecord, problemShapeProblems } from './contract-shapes.ts';
import { startFixture, type Fixture } from './server-fixture.ts';

const HEAD_MS = 400;
const REQUEST_MS = 800;
const PER_CLIENT = 6;

let fx: Fixture;
beforeAll(async () => {
  fx = await startFixture({ seed: { videos: 60 }, env: { HEAD_TIMEOUT_MS: String(HEAD_MS), REQUEST_TIMEOUT_MS: String(REQUEST_MS), CONNECTIONS_PER_CLIENT: String(PER_CLIENT) } });
});
afterAll(async () => { await fx?.close(); });

const page = '/v1/categories';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The request, one byte every `gapMs`: never complete within the deadline. */
const byteByByte = (text: string) => [...text].map((c) => Buffer.from(c, 'latin1'));

function expectProblem(answer: RawAnswer | undefined, status: number, slug: string): void {
  expect(answer?.status).toBe(status);
  expect(answer?.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(answer?.headers['access-control-allow-origin']).toBe('*');
  expect(answer?.headers['connection']).toBe('close');
  const body = JSON.parse(answer!.body.toString('utf8')) as unknown;
  expect(problemShapeProblems(body, fx.base, status)).toEqual([]);
  expect(isRecord(body) && body['type']).toBe(`${fx.base}/problems/${slug}`);
}

describe('slow clients', () => {
  it('closes a connection whose head, read by the fast path, trickles in past the deadline, with a 408 problem', async () => {
    const result = await exchange(fx.running.port, { pieces: byteByByte(`GET ${page} HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(200)}\r\n\r\n`), gapMs: 20, limitMs: 4000 });
    expect(result.closed).toBe(true);
    expect(result.closedAfterMs).toBeLessThan(HEAD_MS + 1000);
    expect(result.answers).toHaveLength(1);
    expectProblem(result.answers[0], 408, 'request-timeout');
  });

  it('closes a connection that sends nothing at all once the first head is due', async () => {
    const result = await exchange(fx.running.port, { pieces: [], limitMs: 4000, quietMs: 4000 });
    expect(result.closed).toBe(true);
    expect(result.closedAfterMs).toBeLessThan(HEAD_MS + 1000);
    expectProblem(result.answers[0], 408, 'request-timeout');
  });

  it('gives a head its deadline from its first byte, not from the last byte received', async () => {
    // each byte resets an idle timer, never this deadline: 3 × the deadline in all
    const pieces = byteByByte(`GET ${page} HTTP/1.1\r\nHost: x\r\n\r\n`.padEnd(40, ' ')).slice(0, 30);
    const result = await exchange(fx.running.port, { pieces, gapMs: (3 * HEAD_MS) / 30, limitMs: 4000 });
    expect(result.closed).toBe(true);
    expect(result.closedAfterMs).toBeLessThan(HEAD_MS + 1000);
  });

  it('closes a slow head after an OPTIONS request, when node:http owns the connection', async () => {
    const options = `OPTIONS ${page} HTTP/1.1\r\nHost: x\r\n\r\n`;
    const result = await exchange(fx.running.port, { pieces: [options, ...byteByByte(`GET ${page} HTTP/1.1\r\nHost: x\r\nX: ${'b'.repeat(200)}\r\n\r\n`)], gapMs: 20, limitMs: 5000 });
    expect(result.closed).toBe(true);
    expect(result.closedAfterMs).toBeLessThan(HEAD_MS + 1500);
    expect(result.answers.map((a) => a.status)).toEqual([204, 408]);
    expectProblem(result.answers[1], 408, 'request-timeout');
  });

  it('closes a slow head handed to node:http mid-head (a head over the fast path\'s size), within the same deadline', async () => {
    const head = `GET ${page} HTTP/1.1\r\nHost: x\r\nX-Big: ${'c'.repeat(9000)}\r\nX-More: ${'d'.repeat(400)}\r\n\r\n`;
    const pieces = [head.slice(0, 9100), ...byteByByte(head.slice(9100))];
    const result = await exchange(fx.running.port, { pieces, gapMs: 20, limitMs: 5000 });
    expect(result.closed).toBe(true);
    expect(result.closedAfterMs).toBeLessThan(HEAD_MS + 1000);
    expectProblem(result.answers[0], 408, 'request-timeout');
  });

  it('closes a connection whose request body trickles in past the request deadline', async () => {
    const head = `POST ${page} HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n`;
    const pieces = [head, ...Array.from({ length: 200 }, () => Buffer.alloc(100, 97))];
    const result = await exchange(fx.running.port, { pieces, gapMs: 20, limitMs: 6000 });
    expect(result.closed).toBe(true);
    expect(result.closedAfterMs).toBeLessThan(REQUEST_MS + 1000);
    // the refusal went out at once; the connection is closed when the body misses its deadline
    expect(result.answers.map((a) => a.status)).toEqual([405]);
  });

  it('does not close a connection whose refused expectation was answered, once its deadline has passed', async () => {
    const pieces = [`GET ${page} HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\n\r\n`, Buffer.alloc(0), `GET ${page} HTTP/1.1\r\nHost: x\r\n\r\n`];
    const result = await exchange(fx.running.port, { pieces, gapMs: HEAD_MS + 300, quietMs: 300 });
    expect(result.answers.map((a) => a.status)).toEqual([417, 200]);
  });

  it('keeps answering a client that sends its requests whole, however long it stays', async () => {
    const request = `GET ${page} HTTP/1.1\r\nHost: x\r\n\r\n`;
    const result = await exchange(fx.running.port, { pieces: [request, request, request, request], gapMs: HEAD_MS / 2, quietMs: HEAD_MS / 2 });
    expect(result.answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(result.closed).toBe(false);
  });
});

describe('connections per address', () => {
  it(`answers a connection beyond ${PER_CLIENT} from one address with a 429 problem and closes it; another address is not affected`, async () => {
    // PER_CLIENT slow connections hold their slots until their deadline
    const held = Array.from({ length: PER_CLIENT }, () => exchange(fx.running.port, { pieces: ['GET /'], quietMs: 3000, limitMs: 3000 }));
    await sleep(100);
    const refused = await exchange(fx.running.port, { pieces: [`GET ${page} HTTP/1.1\r\nHost: x\r\n\r\n`], limitMs: 2000 });
    expect(refused.closed).toBe(true);
    expectProblem(refused.answers[0], 429, 'too-many-connections');
    expect(refused.answers[0]?.headers['retry-after']).toMatch(/^\d+$/);
    const other = await exchange(fx.running.port, { pieces: [`GET ${page} HTTP/1.1\r\nHost: x\r\n\r\n`], localAddress: '127.0.0.2' });
    expect(other.answers.map((a) => a.status)).toEqual([200]);
    await Promise.all(held);
    await sleep(100);
    // the held connections were closed by their deadline: the address may connect again
    const again = await exchange(fx.running.port, { pieces: [`GET ${page} HTTP/1.1\r\nHost: x\r\n\r\n`] });
    expect(again.answers.map((a) => a.status)).toEqual([200]);
  });
});
