import { describe, expect, it } from 'vitest';
import { FAST_HEAD_LIMIT, parseSimpleRequest } from '../../../src/server/simple-request.ts';

const head = (...lines: string[]) => lines.join('\r\n');

describe('parseSimpleRequest', () => {
  it('reads a GET with the headers the fast path answers by', () => {
    expect(parseSimpleRequest(head('GET /v1/videos?limit=20&sort=latest HTTP/1.1', 'Host: x', 'Accept-Encoding: gzip, br', 'If-None-Match: "abc"'))).toEqual({
      head: false, target: '/v1/videos?limit=20&sort=latest', acceptEncoding: 'gzip, br', ifNoneMatch: '"abc"', close: false,
      origin: undefined, referer: undefined, forwardedFor: undefined, authorization: false,
    });
  });

  it('reads what the rate-limit lanes need: Origin, Referer, X-Forwarded-For, and whether a key is sent', () => {
    expect(parseSimpleRequest(head('GET /v1/videos HTTP/1.1', 'Host: x', 'Origin: https://site.example', 'Referer: https://site.example/watch/x',
      'X-Forwarded-For: 1.2.3.4, 10.0.0.1', 'Authorization: Bearer abc'))).toMatchObject({
      origin: 'https://site.example', referer: 'https://site.example/watch/x', forwardedFor: '1.2.3.4, 10.0.0.1', authorization: true,
    });
  });

  it('leaves a request with a lane header given twice to node:http', () => {
    for (const name of ['Origin', 'Referer', 'X-Forwarded-For']) {
      expect(parseSimpleRequest(head('GET /v1/videos HTTP/1.1', 'Host: x', `${name}: a`, `${name}: b`)), name).toBeUndefined();
    }
  });

  it('reads HEAD and Connection: close, whatever the header case', () => {
    const r = parseSimpleRequest(head('HEAD /v1/categories HTTP/1.1', 'host: x', 'CONNECTION: Close'));
    expect(r?.head).toBe(true);
    expect(r?.close).toBe(true);
    expect(parseSimpleRequest(head('GET /v1/categories HTTP/1.1', 'Host: x', 'Connection: keep-alive'))?.close).toBe(false);
  });

  it('leaves other methods, HTTP/1.0 and odd request lines to node:http', () => {
    for (const line of ['POST /v1/videos HTTP/1.1', 'GET /v1/videos HTTP/1.0', 'GET http://x/v1/videos HTTP/1.1', 'GET /a b HTTP/1.1', 'get /v1/videos HTTP/1.1',
      'GET /v1/videos', 'GET  /v1/videos HTTP/1.1', 'GET /v1/videos  HTTP/1.1', 'GET /v1/videos HTTP/1.1 ', 'GET /a\u00e9 HTTP/1.1', 'GET /a\0b HTTP/1.1', 'GET /a\tb HTTP/1.1']) {
      expect(parseSimpleRequest(head(line, 'Host: x')), JSON.stringify(line)).toBeUndefined();
    }
  });

  it('leaves any Content-Length or Transfer-Encoding, an expectation, an upgrade or another Connection option to node:http', () => {
    for (const header of ['Content-Length: 5', 'Content-Length: 0', 'Transfer-Encoding: chunked', 'Expect: 100-continue', 'Upgrade: websocket', 'Connection: upgrade', 'Connection: keep-alive, close']) {
      expect(parseSimpleRequest(head('GET /v1/videos HTTP/1.1', 'Host: x', header)), header).toBeUndefined();
    }
  });

  it('leaves a head without exactly one Host to node:http', () => {
    expect(parseSimpleRequest(head('GET /v1/videos HTTP/1.1'))).toBeUndefined();
    expect(parseSimpleRequest(head('GET /v1/videos HTTP/1.1', 'Host: a', 'Host: b'))).toBeUndefined();
    expect(parseSimpleRequest(head('GET /v1/videos HTTP/1.1', 'Host: a'))?.target).toBe('/v1/videos');
  });

  it('leaves header lines node:http may read otherwise to it: separators or spaces in names, control bytes and obs-text in values', () => {
    for (const line of ['Content-Length : 42', 'X Y: a', 'X\t: a', '"X": a', 'X: a\0b', 'X: a\rb', 'X: a\x7fb', 'X: a\x01b', 'X: caf\u00e9', 'Host : x']) {
      expect(parseSimpleRequest(head('GET / HTTP/1.1', 'Host: x', line)), JSON.stringify(line)).toBeUndefined();
    }
    expect(parseSimpleRequest(head('GET / HTTP/1.1', 'Host: x', 'X-Tab: a\tb'))?.target).toBe('/');
  });

  it('leaves repeated negotiation headers, folded lines and malformed header lines to node:http', () => {
    expect(parseSimpleRequest(head('GET / HTTP/1.1', 'Host: x', 'Accept-Encoding: br', 'accept-encoding: gzip'))).toBeUndefined();
    expect(parseSimpleRequest(head('GET / HTTP/1.1', 'Host: x', 'If-None-Match: "a"', 'If-None-Match: "b"'))).toBeUndefined();
    expect(parseSimpleRequest(head('GET / HTTP/1.1', 'Host: x', 'X-Long: a', ' folded'))).toBeUndefined();
    expect(parseSimpleRequest(head('GET / HTTP/1.1', 'Host: x', 'no colon here'))).toBeUndefined();
    expect(parseSimpleRequest(head('GET / HTTP/1.1', 'Host: x', ': empty name'))).toBeUndefined();
  });

  it(`leaves heads over ${FAST_HEAD_LIMIT} bytes to node:http`, () => {
    const filler = (n: number) => `X: ${'a'.repeat(n)}`;
    const base = head('GET / HTTP/1.1', 'Host: x', '');
    expect(parseSimpleRequest(base + filler(FAST_HEAD_LIMIT - base.length - 3))?.target).toBe('/');
    expect(parseSimpleRequest(base + filler(FAST_HEAD_LIMIT - base.length - 2))).toBeUndefined();
  });
});
