// The catalogue of problem types (RFC 9457). Slugs are permanent: each is the last segment of the
// problem's `type` URI, and /problems/{slug} documents it. A title never varies for a type.
export const PROBLEMS = {
  'invalid-parameter': {
    status: 400,
    title: 'Invalid parameter',
    description: 'A query parameter is out of its type, bounds or allowed values, or a required one is missing. The `errors` array names every invalid parameter and says what it accepts.',
  },
  'bad-request': {
    status: 400,
    title: 'Malformed request',
    description: 'The request is not valid HTTP/1.1, so it was not read: an unknown or lower-case method, a request target that is not a path, a header with a character HTTP does not allow (a space before the colon, a control character, a bare line feed), a missing `Host`, or a `Content-Length` or `Transfer-Encoding` that cannot be read. `detail` names what is wrong. The connection is closed after this answer.',
  },
  'api-key-required': {
    status: 401,
    title: 'API key required',
    description: 'This endpoint needs a developer key, sent as `Authorization: Bearer <API_KEY>`.',
  },
  'invalid-api-key': {
    status: 401,
    title: 'Invalid API key',
    description: 'The developer key sent is unknown or has been revoked.',
  },
  'not-found': {
    status: 404,
    title: 'Not found',
    description: 'No public resource exists at this address: the id is unknown, the resource is private, or the route does not exist.',
  },
  'method-not-allowed': {
    status: 405,
    title: 'Method not allowed',
    description: 'The API is read-only: it answers GET, HEAD and OPTIONS only. The `Allow` header lists them.',
  },
  'request-timeout': {
    status: 408,
    title: 'Request timeout',
    description: 'The request head (or its body) did not arrive in full within the deadline the service gives every request: by default 10 s for the head, from its first byte, and 20 s for the whole request. Send each request whole. The connection is closed after this answer.',
  },
  'range-not-satisfiable': {
    status: 416,
    title: 'Range not satisfiable',
    description: 'The `Range` header asks for bytes past the end of the file. `Content-Range` gives the file\'s length (`bytes */LENGTH`).',
  },
  'expectation-failed': {
    status: 417,
    title: 'Expectation failed',
    description: 'The request sent an `Expect` header other than `100-continue`, the only expectation HTTP defines.',
  },
  'rate-limited': {
    status: 429,
    title: 'Too many requests',
    description: 'The client used up its rate-limit lane. Wait the number of seconds in `Retry-After` before retrying.',
  },
  'too-many-connections': {
    status: 429,
    title: 'Too many connections',
    description: 'The client\'s address already holds as many open connections as the service allows one address. Reuse open connections (keep-alive) or close some, and retry after `Retry-After` seconds. The connection is closed after this answer.',
  },
  'body-too-large': {
    status: 413,
    title: 'Request body too large',
    description: 'The request carries a body larger than the service\'s front accepts (1 MB; docs/cdn.md). This API is read-only and reads no request body: send the request without one. The connection is closed after this answer.',
  },
  'headers-too-large': {
    status: 431,
    title: 'Request headers too large',
    description: 'The request head (request line and header fields) is larger than the service reads: 16 KB. The connection is closed after this answer.',
  },
  'not-implemented': {
    status: 501,
    title: 'Not implemented',
    description: 'The request asks for something the service does not provide, such as oEmbed `format=xml`.',
  },
  'service-unavailable': {
    status: 503,
    title: 'Service unavailable',
    description: 'No catalogue snapshot is loaded yet, or the page asked for cannot be read intact from it right now, so the service cannot answer. Retry shortly.',
  },
  'internal-error': {
    status: 500,
    title: 'Internal error',
    description: 'The service failed to answer. The failure has been logged; retrying may succeed.',
  },
} as const satisfies Record<string, { status: number; title: string; description: string }>;

export type ProblemSlug = keyof typeof PROBLEMS;

export interface ParameterError {
  readonly parameter: string;
  readonly detail: string;
}

/** The one error type handlers throw; the respond layer turns it into a problem response. */
export class ProblemError extends Error {
  readonly slug: ProblemSlug;
  readonly status: number;
  readonly errors: readonly ParameterError[] | undefined;
  readonly headers: Readonly<Record<string, string>>;

  constructor(slug: ProblemSlug, detail: string, options: { errors?: readonly ParameterError[]; headers?: Record<string, string> } = {}) {
    super(detail);
    this.slug = slug;
    this.status = PROBLEMS[slug].status;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
  }
}

export function invalidParameters(errors: readonly ParameterError[]): ProblemError {
  const names = [...new Set(errors.map((e) => e.parameter))];
  const detail = errors.length === 1 ? `${errors[0]!.parameter}: ${errors[0]!.detail}` : `Invalid parameters: ${names.join(', ')}`;
  return new ProblemError('invalid-parameter', detail, { errors });
}

export const notFound = (detail: string): ProblemError => new ProblemError('not-found', detail);

/** The RFC 9457 body for a problem. `instance` is the request's path and query. */
export function problemBody(error: ProblemError, instance: string, baseUrl: string) {
  return {
    type: `${baseUrl}/problems/${error.slug}`,
    title: PROBLEMS[error.slug].title,
    status: error.status,
    detail: error.message,
    instance,
    ...(error.errors ? { errors: error.errors.map((e) => ({ parameter: e.parameter, detail: e.detail })) } : {}),
  };
}
