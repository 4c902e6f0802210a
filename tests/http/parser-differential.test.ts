// The fast path must never read a request head differently from node:http (a request-smuggling
// hole behind any proxy): one corpus of malformed and unusual heads goes to the real server, on a
// prerendered URL the fast path would answer, and to a plain node:http server with the same
// routing at its simplest; both must give the same statuses, in the same number, and the same
// connection handling (closed or kept). docs/reliability.md, "HTTP front".
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchange, type Exchange } from '../../scripts/bench/raw-http.ts';
import { startFixture, type Fixture } from './server-fixture.ts';

const T = '/v1/categories';

let fx: Fixture;
let plain: Server;
let plainPort: number;

beforeAll(async () => {
  fx = await startFixture({ seed: { videos: 40 } });
  // node:http as it comes (default options), routing as the real server does at its simplest:
  // the page at T, 404 elsewhere, 204 for OPTIONS, 405 for methods other than GET and HEAD.
  plain = createServer((req, res) => {
    req.resume();
    const raw = req.url ?? '';
    let path = '';
    try {
      const u = raw.startsWith('/') ? new URL(`http://origin.invalid${raw}`) : new URL(raw);
      if (/^https?:$/.test(u.protocol)) path = u.pathname + u.search;
    } catch { /* not a target: 404 */ }
    res.statusCode = req.method === 'OPTIONS' ? 204 : req.method !== 'GET' && req.method !== 'HEAD' ? 405 : path === T ? 200 : 404;
    res.end(res.statusCode === 204 ? undefined : 'x');
  });
  await new Promise<void>((r) => plain.listen(0, '127.0.0.1', r));
  plainPort = (plain.address() as { port: number }).port;
});
afterAll(async () => {
  plain?.close();
  await fx?.close();
});

const smuggled = `GET ${T} HTTP/1.1\r\nHost: x\r\nX: y\r\n\r\n`;

/** Heads, each followed on the same connection by a well-formed request for T. */
const CORPUS: Readonly<Record<string, string>> = {
  'well-formed': `GET ${T} HTTP/1.1\r\nHost: x\r\n\r\n`,
  'HEAD': `HEAD ${T} HTTP/1.1\r\nHost: x\r\n\r\n`,
  'space before the colon of Content-Length, with a request as its body': `GET ${T} HTTP/1.1\r\nHost: x\r\nContent-Length : ${smuggled.length}\r\n\r\n${smuggled}`,
  'space before the colon of Transfer-Encoding': `GET ${T} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\n`,
  'space before the colon of Host': `GET ${T} HTTP/1.1\r\nHost : x\r\n\r\n`,
  'NUL in a header value': `GET ${T} HTTP/1.1\r\nHost: x\r\nX: a\0b\r\n\r\n`,
  'CR in a header value': `GET ${T} HTTP/1.1\r\nHost: x\r\nX: a\rb\r\n\r\n`,
  'control byte in a header value': `GET ${T} HTTP/1.1\r\nHost: x\r\nX: a\x01b\r\n\r\n`,
  'DEL in a header value': `GET ${T} HTTP/1.1\r\nHost: x\r\nX: a\x7fb\r\n\r\n`,
  'obs-text in a header value': `GET ${T} HTTP/1.1\r\nHost: x\r\nX: caf\u00e9\r\n\r\n`,
  'tab in a header value': `GET ${T} HTTP/1.1\r\nHost: x\r\nX: a\tb\r\n\r\n`,
  'space inside a header name': `GET ${T} HTTP/1.1\r\nHost: x\r\nX Y: a\r\n\r\n`,
  'tab before the colon': `GET ${T} HTTP/1.1\r\nHost: x\r\nX\t: a\r\n\r\n`,
  'empty header name': `GET ${T} HTTP/1.1\r\nHost: x\r\n: a\r\n\r\n`,
  'header line without a colon': `GET ${T} HTTP/1.1\r\nHost: x\r\nnocolon\r\n\r\n`,
  'folded header line': `GET ${T} HTTP/1.1\r\nHost: x\r\nX: a\r\n b\r\n\r\n`,
  'missing Host on HTTP/1.1': `GET ${T} HTTP/1.1\r\n\r\n`,
  'two Host headers': `GET ${T} HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n`,
  'bare LF line ends': `GET ${T} HTTP/1.1\nHost: x\n\n`,
  'bare LF ending the head': `GET ${T} HTTP/1.1\r\nHost: x\r\n\n`,
  'bare LF in the request line': `GET ${T} HTTP/1.1\nHost: x\r\n\r\n`,
  'blank line before the request': `\r\nGET ${T} HTTP/1.1\r\nHost: x\r\n\r\n`,
  'Content-Length on GET, with a body': `GET ${T} HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello`,
  'Content-Length: 0 on GET': `GET ${T} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n`,
  'Content-Length not a number': `GET ${T} HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n`,
  'Content-Length with a sign': `GET ${T} HTTP/1.1\r\nHost: x\r\nContent-Length: +3\r\n\r\nabc`,
  'two Content-Length headers': `GET ${T} HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n`,
  'Transfer-Encoding: chunked on GET': `GET ${T} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
  'Transfer-Encoding other than chunked': `GET ${T} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n`,
  'Transfer-Encoding and Content-Length': `GET ${T} HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
  'Expect: 100-continue': `GET ${T} HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n\r\n`,
  'unknown expectation': `GET ${T} HTTP/1.1\r\nHost: x\r\nExpect: nonsense\r\n\r\n`,
  'Upgrade': `GET ${T} HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n`,
  'Connection: close': `GET ${T} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
  'Connection: keep-alive, close': `GET ${T} HTTP/1.1\r\nHost: x\r\nConnection: keep-alive, close\r\n\r\n`,
  'lower-case method': `get ${T} HTTP/1.1\r\nHost: x\r\n\r\n`,
  'unknown method': `FOO ${T} HTTP/1.1\r\nHost: x\r\n\r\n`,
  'two spaces after the method': `GET  ${T} HTTP/1.1\r\nHost: x\r\n\r\n`,
  'tab after the method': `GET\t${T} HTTP/1.1\r\nHost: x\r\n\r\n`,
  'space after the version': `GET ${T} HTTP/1.1 \r\nHost: x\r\n\r\n`,
  'lower-case version': `GET ${T} http/1.1\r\nHost: x\r\n\r\n`,
  'HTTP/1.0': `GET ${T} HTTP/1.0\r\n\r\n`,
  'HTTP/2.0 request line': `GET ${T} HTTP/2.0\r\nHost: x\r\n\r\n`,
  'HTTP/3.1': `GET ${T} HTTP/3.1\r\nHost: x\r\n\r\n`,
  'HTTP/2 preface': 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
  'target without a leading slash': `GET v1/categories HTTP/1.1\r\nHost: x\r\n\r\n`,
  'NUL in the target': `GET ${T}\0 HTTP/1.1\r\nHost: x\r\n\r\n`,
  'raw non-ASCII in the target': `GET ${T}\u00e9 HTTP/1.1\r\nHost: x\r\n\r\n`,
  'absolute-form target': `GET http://x${T} HTTP/1.1\r\nHost: x\r\n\r\n`,
  'asterisk target on GET': `GET * HTTP/1.1\r\nHost: x\r\n\r\n`,
  'fragment in the target': `GET ${T}#x HTTP/1.1\r\nHost: x\r\n\r\n`,
  'head of 9 KB (over the fast path\'s size, under node:http\'s)': `GET ${T} HTTP/1.1\r\nHost: x\r\nX: ${'a'.repeat(9000)}\r\n\r\n`,
  'head over 16 KB': `GET ${T} HTTP/1.1\r\nHost: x\r\nX: ${'a'.repeat(17_000)}\r\n\r\n`,
};

/** What the comparison is about: the statuses in order and whether the connection was closed. */
const outcome = (e: Exchange) => ({ statuses: e.answers.map((a) => a.status), closed: e.closed });

describe('the fast path and node:http read heads alike', () => {
  it.each(Object.entries(CORPUS))('%s', async (_name, head) => {
    const pieces = [Buffer.from(head, 'latin1'), Buffer.from(`GET ${T} HTTP/1.1\r\nHost: x\r\n\r\n`, 'latin1')];
    const headOnly = (i: number) => i === 0 && head.startsWith('HEAD');
    const [ours, theirs] = await Promise.all([
      exchange(fx.running.port, { pieces, gapMs: 30, headOnly }),
      exchange(plainPort, { pieces, gapMs: 30, headOnly }),
    ]);
    expect(outcome(ours)).toEqual(outcome(theirs));
    // every refusal of ours is a problem with CORS
    for (const answer of ours.answers.filter((a) => a.status >= 400)) {
      expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(answer.headers['access-control-allow-origin']).toBe('*');
    }
  });
});
