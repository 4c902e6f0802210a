// Who a request is, for rate limits and usage (docs/api-contract.md §7): the client address (the socket's, or
// with TRUST_PROXY the last X-Forwarded-For entry, the one our proxy added), its lane (a valid
// developer key: `key`, counted per app; a browser on the site — a valid site pass for its address
// (site-pass.ts), and no Origin but SITE_ORIGIN's: `site`; anyone else: `public`), and the decision
// of that lane (docs/decisions.md, Rate limits).
// API answers (`/v1/...`, `/oembed`) are limited; pages, pictures and problem docs are not.
import { isIP } from 'node:net';
import type { Caller } from '../api/endpoint.ts';
import { ProblemError } from '../api/problems.ts';
import { renderProblem, type Rendered } from '../api/respond.ts';
import type { Urls } from '../model/urls.ts';
import type { App, Partners } from './partners.ts';
import { rateLimitHeaders, type Decision, type Limiter } from './rate-limit.ts';
import { cookieValue, SITE_PASS_COOKIE, SITE_PASS_SECONDS, type SitePass } from './site-pass.ts';

export interface RequestFacts {
  readonly remoteAddress: string | undefined;
  readonly forwardedFor: string | undefined;
  readonly origin: string | undefined;
  readonly referer: string | undefined;
  readonly authorization: string | undefined;
  /** the Cookie header, which carries the site pass */
  readonly cookie?: string | undefined;
}


export interface Admission {
  readonly caller: Caller;
  readonly decision: Decision;
  readonly headers: Readonly<Record<string, string>>;
}

export interface Gate {
  /** whether requests to this path (a raw request target) count against a lane */
  limits(target: string): boolean;
  /** whether admitting may wait for a shared store (RATE_LIMIT_STORE): then the fast path hands limited requests to node:http */
  readonly waits: boolean;
  /** Admits a request by what is in memory now (the fast path: requests without a key); only when `waits` is false. */
  admit(facts: RequestFacts): Admission;
  /**
   * Admits a request whose key may be new (node:http): at once when it can, else — a well-formed
   * key the last read of the keys does not know, or an app not seen before — after looking the key
   * up and reading the app's stored usage, off the event loop.
   */
  admitFresh(facts: RequestFacts): Admission | Promise<Admission>;
  /** the 429 problem for a refused admission */
  refusal(admission: Admission, instance: string, urls: Urls): Rendered;
  /** A Set-Cookie value with a new site pass for a page of the site, unless the request's pass has over half its life left. */
  passCookie(facts: RequestFacts): string | undefined;
}

export interface GateOptions {
  readonly limiter: Limiter;
  readonly siteOrigin: string | undefined;
  readonly trustProxy: boolean;
  readonly partners?: Partners | undefined;
  /** without one, there is no site lane */
  readonly sitePass?: SitePass | undefined;
}

export const isLimitedTarget = (target: string): boolean =>
  target.startsWith('/v1/') || target === '/oembed' || target.startsWith('/oembed?');

/**
 * An IP address in one spelling per address, or undefined when `value` is not one: IPv4 as it is,
 * IPv6 lower-case and compressed (zone dropped), IPv4-mapped IPv6 (`::ffff:192.0.2.1`) as IPv4. A
 * port is dropped (`192.0.2.1:8080`, `[2001:db8::1]:443`). So a rate-limit key is never longer
 * than an address (39 characters), whatever a header holds.
 */
export function normaliseAddress(value: string): string | undefined {
  let text = value.trim();
  if (text.length > 64) return undefined;
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text);
  if (bracketed) text = bracketed[1]!;
  else if (/^[\d.]+:\d{1,5}$/.test(text)) text = text.slice(0, text.indexOf(':'));
  const version = isIP(text);
  if (version === 4) return text;
  if (version !== 6) return undefined;
  const canonical = new URL(`http://[${text.replace(/%.*$/, '')}]`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!mapped) return canonical;
  const [high, low] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

let lastSocketAddress: string | undefined;
let lastNormalised: string | undefined;
/**
 * normaliseAddress of a socket's address, the last one remembered: the requests of one connection
 * (and of one client's connections) come from one address, normalised once, not once a request.
 */
function socketAddress(address: string): string | undefined {
  if (address !== lastSocketAddress) {
    lastNormalised = normaliseAddress(address);
    lastSocketAddress = address;
  }
  return lastNormalised;
}

/**
 * The client's address: the socket's, or with TRUST_PROXY the last non-empty X-Forwarded-For entry
 * (the one our proxy added) when it is an IP address; anything else there falls back to the
 * socket's address (docs/decisions.md, Rate limits).
 */
export function clientAddress(facts: RequestFacts, trustProxy: boolean): string {
  const socket = facts.remoteAddress === undefined ? undefined : socketAddress(facts.remoteAddress);
  const header = trustProxy ? facts.forwardedFor : undefined;
  if (header !== undefined) {
    let end = header.length;
    while (end > 0) {
      const comma = header.lastIndexOf(',', end - 1);
      const entry = header.slice(comma + 1, end).trim();
      end = comma;
      if (entry === '') continue;
      return normaliseAddress(entry) ?? socket ?? 'unknown';
    }
  }
  return socket ?? 'unknown';
}

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive). */
export function bearerToken(authorization: string | undefined): string | undefined {
  const match = authorization === undefined ? null : /^bearer +(\S+) *$/i.exec(authorization);
  return match?.[1];
}

export function createGate(options: GateOptions): Gate {
  const siteOrigin = options.siteOrigin?.replace(/\/+$/, '');
  const callerOf = (facts: RequestFacts, app: App | undefined): Caller => {
    if (facts.authorization === undefined) return { kind: 'anonymous' };
    if (bearerToken(facts.authorization) === undefined) return { kind: 'no-key' };
    return app ? { kind: 'app', ...app } : { kind: 'invalid-key' };
  };
  const passLeft = (facts: RequestFacts, address: string): number =>
    options.sitePass?.check(cookieValue(facts.cookie, SITE_PASS_COOKIE), address) ?? 0;
  // a browser on the site: a pass for this address, and no Origin of another site
  const onSite = (facts: RequestFacts, address: string): boolean =>
    siteOrigin !== undefined && (facts.origin === undefined || facts.origin === siteOrigin) && passLeft(facts, address) > 0;
  const admission = (caller: Caller, decision: Decision): Admission => ({ caller, decision, headers: rateLimitHeaders(decision) });
  // a shared store answers later; memory (or a shared limiter counting locally) at once
  const admitAs = (facts: RequestFacts, caller: Caller): Admission | Promise<Admission> => {
    let decision: Decision | Promise<Decision>;
    if (caller.kind === 'app') decision = options.limiter.take('key', caller.appId);
    else {
      const address = clientAddress(facts, options.trustProxy);
      decision = options.limiter.take(onSite(facts, address) ? 'site' : 'public', address);
    }
    return decision instanceof Promise ? decision.then((d) => admission(caller, d)) : admission(caller, decision);
  };
  return {
    limits: isLimitedTarget,
    waits: options.limiter.shared,
    admit(facts) {
      const token = bearerToken(facts.authorization);
      const admitted = admitAs(facts, callerOf(facts, token === undefined ? undefined : options.partners?.verify(token)));
      if (admitted instanceof Promise) throw new Error('a gate that waits admits with admitFresh');
      return admitted;
    },
    admitFresh(facts) {
      const partners = options.partners;
      const token = bearerToken(facts.authorization);
      if (token === undefined || !partners) return admitAs(facts, callerOf(facts, undefined));
      const known = partners.verify(token);
      const preparing = known && partners.prepare(known.appId);
      // answered in the same turn when it can: a request is not held up without need
      if (known && !preparing) return admitAs(facts, callerOf(facts, known));
      return (async () => {
        const app = known ?? await partners.lookup(token);
        if (app) await partners.prepare(app.appId);
        return admitAs(facts, callerOf(facts, app));
      })();
    },
    passCookie(facts) {
      if (!options.sitePass) return undefined;
      const address = clientAddress(facts, options.trustProxy);
      return passLeft(facts, address) > SITE_PASS_SECONDS / 2 ? undefined : options.sitePass.cookie(address);
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
