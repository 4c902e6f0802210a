import { describe, expect, it } from 'vitest';
import { parseSimpleRequest } from '../../../src/server/fast-path.ts';

const head = (...lines: string[]) => lines.join('\r\n');

describe('parseSimpleRequest', () => {
  it('reads a GET with the headers the fast path answers by', () => {
    expect(parseSimpleRequest(head('GET /v1/videos?limit=20&sort=latest HTTP/1.1', 'Host: x', 'Accept-Encoding: gzip, br', 'If-None-Match: "abc"'))).toEqual({
      head: false, target: '/v1/videos?limit=20&sort=latest', acceptEncoding: 'gzip, br', ifNoneMatch: '"abc"', close: false,
      origin: undefined, referer: undefined, forwardedFor: undefined, authorization: false,
    });
  });

  it('reads what the rate-limit lanes need: Origin, Referer, X-Forwarded-For, and whether a key is sent', () => {
    expect(parseSimpleRequest(head('GET /v1/videos HTTP/1.1', 'Origin: https://site.example', 'Referer: https://site.example/watch/x',
      'X-Forwarded-For: 1.2.3.4, 10.0.0.1', 'Authorization: Bearer abc'))).toMatchObject({
      origin: 'https://site.example', referer: 'https://site.example/watch/x', forwardedFor: '1.2.3.4, 10.0.0.1', authorization: true,
    });
  });

  it('leaves a request with a lane header given twice to node:http', () => {
    for (const name of ['Origin', 'Referer', 'X-Forwarded-For']) {
      expect(parseSimpleRequest(head('GET /v1/videos HTTP/1.1', `${name}: a`, `${name}: b`)), name).toBeUndefined();
    }
  });

  it('reads HEAD and Connection: close, whatever the header case', () => {
    const r = parseSimpleRequest(head('HEAD /v1/categories HTTP/1.1', 'CONNECTION: keep-alive, Close'));
    expect(r?.head).toBe(true);
    expect(r?.close).toBe(true);
  });

  it('leaves other methods, HTTP/1.0 and odd request lines to node:http', () => {
    for (const line of ['POST /v1/videos HTTP/1.1', 'GET /v1/videos HTTP/1.0', 'GET http://x/v1/videos HTTP/1.1', 'GET /a b HTTP/1.1', 'get /v1/videos HTTP/1.1', 'GET /v1/videos']) {
      expect(parseSimpleRequest(head(line, 'Host: x')), line).toBeUndefined();
    }
  });

  it('leaves requests with a body, an expectation or an upgrade to node:http', () => {
    for (const header of ['Content-Length: 5', 'Transfer-Encoding: chunked', 'Expect: 100-continue', 'Upgrade: websocket']) {
      expect(parseSimpleRequest(head('GET /v1/videos HTTP/1.1', header)), header).toBeUndefined();
    }
    expect(parseSimpleRequest(head('GET /v1/videos HTTP/1.1', 'Content-Length: 0'))?.target).toBe('/v1/videos');
  });

  it('leaves repeated negotiation headers, folded lines and malformed header lines to node:http', () => {
    expect(parseSimpleRequest(head('GET / HTTP/1.1', 'Accept-Encoding: br', 'accept-encoding: gzip'))).toBeUndefined();
    expect(parseSimpleRequest(head('GET / HTTP/1.1', 'If-None-Match: "a"', 'If-None-Match: "b"'))).toBeUndefined();
    expect(parseSimpleRequest(head('GET / HTTP/1.1', 'X-Long: a', ' folded'))).toBeUndefined();
    expect(parseSimpleRequest(head('GET / HTTP/1.1', 'no colon here'))).toBeUndefined();
    expect(parseSimpleRequest(head('GET / HTTP/1.1', ': empty name'))).toBeUndefined();
  });
});
