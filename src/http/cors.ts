// CORS on every response (docs/api-contract.md §6): any origin may read the API; preflights allow GET, HEAD,
// OPTIONS and the Authorization header; the headers clients need are exposed.
export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';

export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'ETag, Link, Retry-After, RateLimit, RateLimit-Policy, Content-Encoding, X-Robots-Tag',
};

export const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-methods': ALLOWED_METHODS,
  'access-control-allow-headers': 'Authorization, Content-Type, If-None-Match',
  'access-control-max-age': '86400',
  allow: ALLOWED_METHODS,
};
