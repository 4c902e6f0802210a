// Problems written straight to a socket, for the answers no request handler gives: a head that is
// not HTTP/1.1 (node:http's 'clientError'), a head or body that missed its deadline, CONNECT, one
// connection too many from an address. Each is an RFC 9457 problem with CORS, like every other
// answer of 400 or more, and closes the connection (docs/reliability.md, "HTTP front").
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ProblemError } from '../api/problems.ts';
import type { Rendered } from '../api/respond.ts';
import { CORS_HEADERS } from '../http/cors.ts';

/** How long a closed connection's unread input is still read and dropped, so the answer arrives. */
const LINGER_MS = 2000;

/** The raw bytes of a response: status line, Date, CORS, the rendered headers, `extra`, the body. */
export function responseBytes(rendered: Rendered, options: { head?: boolean; close?: boolean; extra?: Readonly<Record<string, string>> } = {}): Buffer {
  const headers: Record<string, string> = { ...CORS_HEADERS, ...rendered.headers, ...options.extra, 'content-length': String(rendered.body.length) };
  if (options.close) headers['connection'] = 'close';
  let text = `HTTP/1.1 ${rendered.status} ${STATUS_CODES[rendered.status] ?? 'Error'}\r\ndate: ${new Date().toUTCString()}\r\n`;
  for (const [name, value] of Object.entries(headers)) text += `${name}: ${value}\r\n`;
  if (!options.close) text += 'keep-alive: timeout=65\r\n';
  const head = Buffer.from(`${text}\r\n`, 'latin1');
  return options.head ? head : Buffer.concat([head, rendered.body]);
}

const closing = new WeakSet<Socket>();

/** Whether the connection is already being closed with an answer. */
export const isClosing = (socket: Socket): boolean => closing.has(socket);

/**
 * Writes a problem and closes the connection: half-closes at once, reads and drops what the
 * client still sends for a moment (so that unread input does not reset the connection before the
 * answer is read), then destroys it. Only the first call for a socket writes anything.
 */
export function answerAndClose(socket: Socket, rendered: Rendered, options: { extra?: Readonly<Record<string, string>>; head?: boolean } = {}): void {
  if (closing.has(socket)) return;
  closing.add(socket);
  if (!socket.writable || socket.destroyed) {
    socket.destroy();
    return;
  }
  socket.end(responseBytes(rendered, { ...options, close: true }));
  socket.on('error', () => socket.destroy());
  socket.resume();
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/** Whether raw request bytes (possibly not valid HTTP) ask for HEAD: the answer then has no body. */
export const asksForHead = (raw: Buffer | undefined): boolean =>
  raw !== undefined && /^[\r\n]*HEAD /.test(raw.toString('latin1', 0, Math.min(raw.length, 16)));

/** What can be shown of a raw request target: visible ASCII only, at most 2,000 characters; `/` if none. */
export function instanceOf(rawHead: Buffer | string | undefined): string {
  if (rawHead === undefined) return '/';
  const text = typeof rawHead === 'string' ? rawHead : rawHead.toString('latin1', 0, Math.min(rawHead.length, 4096));
  const line = text.slice(0, text.search(/\r|\n|$/));
  const target = line.split(' ')[1] ?? '';
  const visible = target.replace(/[^\x21-\x7e]/g, '').slice(0, 2000);
  return visible.startsWith('/') ? visible : '/';
}

/** The problem for an error node:http's parser reports (its 'clientError' event), by error code. */
export function clientErrorProblem(error: Error & { code?: string; reason?: string }): ProblemError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ProblemError('request-timeout', 'The request head or body did not arrive in full within the deadline.');
    case 'HPE_HEADER_OVERFLOW':
      return new ProblemError('headers-too-large', 'The request head is larger than 16 KB.');
    case 'HPE_INVALID_METHOD':
      // llhttp's reason tells a request line with nothing after its method from an unknown method
      if (error.reason === 'Expected space after method') return new ProblemError('bad-request', 'The request line has no request target after its method: send METHOD /path HTTP/1.1.');
      return new ProblemError('bad-request', 'The method is not one HTTP knows (methods are case-sensitive: GET, HEAD, OPTIONS).');
    case 'HPE_INVALID_URL':
      return new ProblemError('bad-request', 'The request target is not a path starting with "/" made of visible ASCII characters.');
    case 'HPE_INVALID_VERSION':
      // "HTTP/1.1\n": the version is right, its line end is not
      if (error.reason === 'Expected CRLF after version') return new ProblemError('bad-request', 'The request line does not end with CRLF right after its version (a bare LF, or a space before the CRLF).');
      return new ProblemError('bad-request', 'The protocol version is not HTTP/1.0 or HTTP/1.1.');
    case 'HPE_INVALID_HEADER_TOKEN':
      if (error.reason === 'Unexpected whitespace after header value') return new ProblemError('bad-request', 'A header line starts with a space or tab: folded header values (obs-fold) are not accepted; send each header on one line.');
      return new ProblemError('bad-request', 'A header field has a character HTTP does not allow: a space or another separator in its name or before the colon, or a control character in its value.');
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return new ProblemError('bad-request', 'Content-Length is not one decimal number, is sent twice, or is sent with Transfer-Encoding.');
    case 'HPE_INVALID_TRANSFER_ENCODING':
    case 'HPE_INVALID_CHUNK_SIZE':
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new ProblemError('bad-request', 'The body is not valid for its Transfer-Encoding (only chunked, last, is understood).');
    case 'HPE_LF_EXPECTED':
    case 'HPE_CR_EXPECTED':
    case 'HPE_STRICT':
      return new ProblemError('bad-request', 'A line of the request head does not end with CRLF, or a header value holds a bare CR.');
    case 'HPE_PAUSED_H2_UPGRADE':
      return new ProblemError('bad-request', 'HTTP/2 without TLS (the PRI * HTTP/2.0 preface) is not spoken here: send HTTP/1.1.');
    default:
      return new ProblemError('bad-request', 'The request is not valid HTTP/1.1.');
  }
}
