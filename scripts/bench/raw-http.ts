// Raw HTTP/1.1 over a socket, for hostile-client tests and benchmarks (tests/http/hostile-*.test.ts,
// scripts/bench-hostile.ts): send any bytes, read back every response with its headers and body,
// and know whether the server closed the connection. Also a seeded generator of malformed request
// heads, the fuzz corpus of docs/reliability.md "HTTP front".
import { connect } from 'node:net';

export interface RawAnswer {
  readonly status: number;
  readonly reason: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

export interface Exchange {
  readonly answers: readonly RawAnswer[];
  /** the server closed the connection (FIN or reset) before the quiet time ran out */
  readonly closed: boolean;
  /** bytes after the last complete answer, if any */
  readonly trailing: number;
  /** ms from the first byte sent to the close, when closed */
  readonly closedAfterMs: number | undefined;
}

/** Splits what a server sent into answers; `headOnly[i]` when the i-th answer has no body (HEAD). */
export function parseAnswers(data: Buffer, headOnly: (index: number) => boolean = () => false): { answers: RawAnswer[]; trailing: number } {
  const answers: RawAnswer[] = [];
  let at = 0;
  while (at < data.length) {
    const end = data.indexOf('\r\n\r\n', at, 'latin1');
    if (end === -1) break;
    const lines = data.toString('latin1', at, end).split('\r\n');
    const match = /^HTTP\/1\.[01] (\d{3}) ?(.*)$/.exec(lines[0] ?? '');
    if (!match) break;
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const status = Number(match[1]);
    const bodyless = status === 204 || status === 304 || status < 200 || headOnly(answers.length);
    const length = bodyless ? 0 : Number(headers['content-length'] ?? 0);
    if (headers['transfer-encoding'] !== undefined && !bodyless) {
      // chunked: read the chunks
      let p = end + 4;
      const parts: Buffer[] = [];
      for (;;) {
        const lineEnd = data.indexOf('\r\n', p, 'latin1');
        if (lineEnd === -1) return { answers, trailing: data.length - at };
        const size = parseInt(data.toString('latin1', p, lineEnd), 16);
        if (!Number.isFinite(size) || lineEnd + 2 + size + 2 > data.length) return { answers, trailing: data.length - at };
        parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
        p = lineEnd + 2 + size + 2;
        if (size === 0) break;
      }
      answers.push({ status, reason: match[2] ?? '', headers, body: Buffer.concat(parts) });
      at = p;
      continue;
    }
    if (end + 4 + length > data.length) break;
    answers.push({ status, reason: match[2] ?? '', headers, body: data.subarray(end + 4, end + 4 + length) });
    at = end + 4 + length;
  }
  return { answers, trailing: data.length - at };
}

export interface ExchangeOptions {
  /** the pieces to send, in order, `gapMs` apart */
  readonly pieces: readonly (string | Buffer)[];
  readonly gapMs?: number;
  /** how long to wait after the last byte received (or sent) before giving up on more */
  readonly quietMs?: number;
  /** the most to wait in all */
  readonly limitMs?: number;
  readonly localAddress?: string;
  readonly headOnly?: (index: number) => boolean;
}

/** Sends raw bytes on a new connection and collects every answer until the server closes or goes quiet. */
export function exchange(port: number, options: ExchangeOptions): Promise<Exchange> {
  const { pieces, gapMs = 0, quietMs = 300, limitMs = 30_000 } = options;
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', ...(options.localAddress && { localAddress: options.localAddress }) });
    const chunks: Buffer[] = [];
    let started = 0;
    let settled = false;
    let quiet: NodeJS.Timeout | undefined;
    let sending = true;
    const finish = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(quiet);
      clearTimeout(limit);
      socket.destroy();
      const { answers, trailing } = parseAnswers(Buffer.concat(chunks), options.headOnly);
      resolve({ answers, closed, trailing, closedAfterMs: closed ? performance.now() - started : undefined });
    };
    const rearm = () => {
      clearTimeout(quiet);
      if (!sending) quiet = setTimeout(() => finish(false), quietMs);
    };
    const limit = setTimeout(() => finish(false), limitMs);
    socket.on('data', (d: Buffer) => { chunks.push(d); rearm(); });
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.on('connect', async () => {
      started = performance.now();
      for (const piece of pieces) {
        if (settled || socket.destroyed) return;
        socket.write(piece);
        if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
      }
      sending = false;
      rearm();
    });
  });
}

/** A deterministic pseudo-random source (mulberry32). */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const METHODS = ['GET', 'GET', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH', 'TRACE', 'CONNECT', 'PRI', 'get', 'Get', 'head', 'FOO', 'G ET', 'GET\0', 'M-SEARCH', 'PROPFIND', '', 'GETT', 'ÄGET', 'GET\t'];
const TARGETS = ['/', '/v1/videos', '/v1/categories', '/v1/videos?limit=20&sort=latest', '/v1/health', '/openapi.json', '/sdk.mjs', '/watch/nope', '/problems/not-found',
  '*', 'abc', 'http://example.com/v1/videos', 'https://x/v1/categories', '//v1/videos', '/v1/\u00e9', '/v1/a\0b', '/a b', '/%', '/%00', '/\x7f', '/a\rb', '/a\nb', '/#x', '/?' + 'q'.repeat(3000), '', 'example.com:443', '/..%2f..%2fetc/passwd', '/v1/videos?limit=\u00ff'];
const VERSIONS = ['HTTP/1.1', 'HTTP/1.1', 'HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/0.9', 'HTTP/3.1', 'http/1.1', 'HTTP/1.10', 'HTTP/1', 'HTTP/1.1 ', 'HTTP/ 1.1', 'HTTPS/1.1', 'HTTP/9.9', ''];
const HEADERS = [
  'Host: x', 'Host: x', 'Host: x', 'Host : x', 'Host: x\r\nHost: y', '', 'Accept-Encoding: br, gzip', 'If-None-Match: "x"', 'If-None-Match: *', 'Connection: close', 'Connection: keep-alive',
  'Connection: upgrade\r\nUpgrade: websocket', 'Upgrade: h2c', 'Content-Length: 0', 'Content-Length: 5\r\n\r\nhello', 'Content-Length : 42', 'Content-Length: -1', 'Content-Length: abc', 'Content-Length: 1\r\nContent-Length: 2',
  'Content-Length: 99999999999999999999', 'Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 'Transfer-Encoding: gzip', 'Transfer-Encoding: chunked\r\nContent-Length: 3', 'Transfer-Encoding : chunked', 'Transfer-Encoding: xchunked',
  'Expect: 100-continue', 'Expect: nonsense', 'X: a\0b', 'X: a\rb', 'X: a\x01b', 'X: a\x7fb', 'X: caf\u00e9', 'X Y: a', 'X\t: a', ': empty', 'no colon', ' folded', '\tfolded',
  'Authorization: Bearer nope', 'Origin: http://evil.example', 'X-Forwarded-For: 1.2.3.4', 'Range: bytes=999999999-', 'Range: bytes=0-0', 'If-Range: "x"', `X-Big: ${'a'.repeat(9000)}`, `X-Huge: ${'a'.repeat(17_000)}`,
];
const ENDINGS = ['\r\n', '\r\n', '\r\n', '\r\n', '\n', '\r', '\r\r\n', '\n\r'];

/** One malformed (or, now and then, well-formed) request: a request line, headers, line ends all drawn at random. */
export function malformedRequest(random: () => number): { bytes: Buffer; method: string } {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const method = pick(METHODS);
  const eol = random() < 0.85 ? '\r\n' : pick(ENDINGS);
  const line = random() < 0.05 ? `${method} ${pick(TARGETS)}` : `${method}${random() < 0.05 ? '  ' : ' '}${pick(TARGETS)} ${pick(VERSIONS)}`;
  const headers: string[] = [];
  for (let n = Math.floor(random() * 4); n > 0; n--) headers.push(pick(HEADERS));
  if (random() < 0.9 && !headers.some((h) => h.startsWith('Host'))) headers.unshift('Host: x');
  let text = [line, ...headers].join(eol) + eol + eol;
  if (random() < 0.05) text = `\r\n${text}`;
  return { bytes: Buffer.from(text, 'latin1'), method };
}
