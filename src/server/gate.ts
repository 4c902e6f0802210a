// Who a request is, for rate limits and usage (CONTRACT §7): the client address (the socket's, or
// with TRUST_PROXY the last X-Forwarded-For entry, the one our proxy added), its lane (a valid
// developer key: `key`, counted per app; a browser request from SITE_ORIGIN by Origin, or by
// Referer when Origin is absent: `site`; anyone else: `public`), and the decision of that lane.
// API answers (`/v1/...`, `/oembed`) are limited; pages, pictures and problem docs are not.
import type { Caller } from '../api/endpoint.ts';
import { ProblemError } from '../api/problems.ts';
import { renderProblem, type Rendered } from '../api/respond.ts';
import type { Urls } from '../model/urls.ts';
import type { Partners } from './partners.ts';
import { rateLimitHeaders, type Decision, type RateLimiter } from './rate-limit.ts';

export interface RequestFacts {
  readonly remoteAddress: string | undefined;
  readonly forwardedFor: string | undefined;
  readonly origin: string | undefined;
  readonly referer: string | undefined;
  readonly authorization: string | undefined;
}


export interface Admission {
  readonly caller: Caller;
  readonly decision: Decision;
  readonly headers: Readonly<Record<string, string>>;
}

export interface Gate {
  /** whether requests to this path (a raw request target) count against a lane */
  limits(target: string): boolean;
  admit(facts: RequestFacts): Admission;
  /** the 429 problem for a refused admission */
  refusal(admission: Admission, instance: string, urls: Urls): Rendered;
}

export interface GateOptions {
  readonly limiter: RateLimiter;
  readonly siteOrigin: string | undefined;
  readonly trustProxy: boolean;
  readonly partners?: Partners | undefined;
}

export const isLimitedTarget = (target: string): boolean =>
  target.startsWith('/v1/') || target === '/oembed' || target.startsWith('/oembed?');

export function clientAddress(facts: RequestFacts, trustProxy: boolean): string {
  if (trustProxy && facts.forwardedFor) {
    const hops = facts.forwardedFor.split(',').map((h) => h.trim()).filter(Boolean);
    const last = hops[hops.length - 1];
    if (last) return last;
  }
  return facts.remoteAddress ?? 'unknown';
}

/** Whether a request comes from a page of the service's own site. */
export function fromSite(facts: RequestFacts, siteOrigin: string | undefined): boolean {
  if (siteOrigin === undefined) return false;
  if (facts.origin !== undefined) return facts.origin === siteOrigin;
  const referer = facts.referer;
  return referer !== undefined && (referer === siteOrigin || referer.startsWith(`${siteOrigin}/`));
}

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive). */
export function bearerToken(authorization: string | undefined): string | undefined {
  const match = authorization === undefined ? null : /^bearer +(\S+) *$/i.exec(authorization);
  return match?.[1];
}

export function createGate(options: GateOptions): Gate {
  const siteOrigin = options.siteOrigin?.replace(/\/+$/, '');
  return {
    limits: isLimitedTarget,
    admit(facts) {
      let caller: Caller = { kind: facts.authorization === undefined ? 'anonymous' : 'no-key' };
      const token = bearerToken(facts.authorization);
      if (token !== undefined) {
        const app = options.partners?.verify(token);
        caller = app ? { kind: 'app', ...app } : { kind: 'invalid-key' };
      }
      const decision = caller.kind === 'app'
        ? options.limiter.take('key', caller.appId)
        : options.limiter.take(fromSite(facts, siteOrigin) ? 'site' : 'public', clientAddress(facts, options.trustProxy));
      return { caller, decision, headers: rateLimitHeaders(decision) };
    },
    refusal(admission, instance, urls) {
      const { lane, limit, window, reset } = admission.decision;
      const error = new ProblemError('rate-limited',
        `The ${lane} lane allows ${limit} requests per ${window} s and this client has used them; retry in ${reset} s.`);
      const rendered = renderProblem(error, instance, urls);
      return { ...rendered, headers: { ...rendered.headers, ...admission.headers } };
    },
  };
}
