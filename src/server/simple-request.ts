// The request heads the fast path answers itself (fast-path.ts): a strict subset of HTTP/1.1 on
// which node:http's parser (llhttp) is certain to agree. Anything outside it — another method or
// version, a target with a byte outside visible ASCII, a header name that is not a token, a value
// with a control character or a byte above 0x7E, a missing or repeated Host, any Content-Length or
// Transfer-Encoding, Expect, Upgrade, a Connection other than keep-alive — goes to node:http, which
// answers it or refuses it with a problem (docs/reliability.md, "HTTP front"). Two parsers that
// disagree on where a request ends are a request-smuggling hole behind any proxy.

/** The largest head the fast path reads; larger ones go to node:http, which reads up to 16 KB. */
export const FAST_HEAD_LIMIT = 8 * 1024;

/** The parts of a request head the fast path needs. */
export interface SimpleRequest {
  readonly head: boolean;
  readonly target: string;
  readonly acceptEncoding: string | undefined;
  readonly ifNoneMatch: string | undefined;
  readonly close: boolean;
  readonly origin: string | undefined;
  readonly referer: string | undefined;
  readonly forwardedFor: string | undefined;
  readonly authorization: boolean;
  /** carries the site pass (gate.ts) */
  readonly cookie: string | undefined;
}

/**
 * A byte outside tab, visible ASCII, space, CR and LF, or a CR not before LF: a head holding one is
 * not plain (no other control byte, no DEL, no obs-text). A regular expression (irregexp's native
 * code): under Node 24, 2.7 times as fast as the loop over charCodeAt it replaced (docs/performance.md,
 * "The fast path's CPU per request").
 */
const NOT_PLAIN = /[^\t\x20-\x7e\r\n]|\r(?!\n)/;
const isPlainHead = (head: string): boolean => !NOT_PLAIN.test(head);
/** A header name (RFC 9110 §5.6.2 tchar) and its colon, matched where a line starts. */
const NAME = /[!#$%&'*+\-.^_`|~0-9A-Za-z]+:/y;

/**
 * Reads a request head (its lines joined by CRLF, without the final blank line); undefined when
 * the head is outside the subset the fast path is certain of.
 */
export function parseSimpleRequest(head: string): SimpleRequest | undefined {
  if (head.length > FAST_HEAD_LIMIT) return undefined;
  const isHead = head.startsWith('HEAD /');
  if (!isHead && !head.startsWith('GET /')) return undefined;
  let lineEnd = head.indexOf('\r\n');
  if (lineEnd === -1) lineEnd = head.length;
  if (!head.startsWith(' HTTP/1.1', lineEnd - 9)) return undefined;
  if (!isPlainHead(head)) return undefined;
  const target = head.slice(isHead ? 5 : 4, lineEnd - 9);
  if (target.includes(' ') || target.includes('\t')) return undefined;
  let acceptEncoding: string | undefined;
  let ifNoneMatch: string | undefined;
  let connection: string | undefined;
  let origin: string | undefined;
  let referer: string | undefined;
  let forwardedFor: string | undefined;
  let cookie: string | undefined;
  let authorization = false;
  let hosts = 0;
  let seenAccept = false;
  let seenMatch = false;
  let seenConnection = false;
  for (let start = lineEnd + 2; start < head.length;) {
    let end = head.indexOf('\r\n', start);
    if (end === -1) end = head.length;
    NAME.lastIndex = start;
    if (!NAME.test(head) || NAME.lastIndex > end) return undefined;
    const colon = NAME.lastIndex - 1;
    const name = head.slice(start, colon).toLowerCase();
    const value = () => head.slice(colon + 1, end).trim();
    switch (name) {
      case 'host':
        hosts++;
        break;
      case 'accept-encoding':
        if (seenAccept) return undefined;
        seenAccept = true;
        acceptEncoding = value();
        break;
      case 'if-none-match':
        if (seenMatch) return undefined;
        seenMatch = true;
        ifNoneMatch = value();
        break;
      case 'connection':
        if (seenConnection) return undefined;
        seenConnection = true;
        connection = value().toLowerCase();
        break;
      case 'origin':
        if (origin !== undefined) return undefined;
        origin = value();
        break;
      case 'referer':
        if (referer !== undefined) return undefined;
        referer = value();
        break;
      case 'x-forwarded-for':
        if (forwardedFor !== undefined) return undefined;
        forwardedFor = value();
        break;
      case 'authorization':
        authorization = true;
        break;
      case 'cookie':
        if (cookie !== undefined) return undefined;
        cookie = value();
        break;
      case 'content-length':
      case 'transfer-encoding':
      case 'expect':
      case 'upgrade':
        return undefined;
      default:
        break;
    }
    start = end + 2;
  }
  // HTTP/1.1 requires exactly one Host (RFC 9112 §3.2); node:http refuses a head without one.
  if (hosts !== 1) return undefined;
  // Only keep-alive (the default) or close; any other connection option (upgrade, a hop-by-hop
  // header name) is node:http's to interpret.
  if (connection !== undefined && !/^(keep-alive|close)$/.test(connection)) return undefined;
  return {
    head: isHead,
    target,
    acceptEncoding,
    ifNoneMatch,
    close: connection === 'close',
    origin,
    referer,
    forwardedFor,
    authorization,
    cookie,
  };
}
