// createGate (CONTRACT §7): which targets are limited, the client address (socket, or the last
// X-Forwarded-For hop behind a trusted proxy), the lane (key, site by Origin or else Referer,
// public), the caller a bearer token makes, and the 429 problem.
import { describe, expect, it } from 'vitest';
import { createUrls } from '../../../src/model/urls.ts';
import { bearerToken, clientAddress, createGate, fromSite, isLimitedTarget, type RequestFacts } from '../../../src/server/gate.ts';
import type { Partners } from '../../../src/server/partners.ts';
import { RateLimiter } from '../../../src/server/rate-limit.ts';
import { BASE_URL } from '../support/fixtures.ts';

const SITE = 'https://videos.example.test';
const GOOD_KEY = `vpk_${'A'.repeat(32)}`;
const OTHER_KEY = `vpk_${'B'.repeat(32)}`;

const facts = (over: Partial<RequestFacts> = {}): RequestFacts => ({
  remoteAddress: '192.0.2.10', forwardedFor: undefined, origin: undefined, referer: undefined, authorization: undefined, ...over,
});

/** Partners that know two keys of one app; only verify matters to the gate. */
const verify = (token: string) => (token === GOOD_KEY || token === OTHER_KEY ? { appId: 'app_1', appName: 'Good app' } : undefined);
/** a key the last read of the keys does not know yet, found by a fresh lookup */
const NEW_KEY = `vpk_${'N'.repeat(32)}`;
const prepared: string[] = [];
const partners: Partners = {
  verify,
  lookup: async (token) => verify(token) ?? (token === NEW_KEY ? { appId: 'app_new', appName: 'New app' } : undefined),
  prepare: async (appId) => { prepared.push(appId); },
  count: () => {},
  usage: () => [],
  failure: undefined,
  flush: async () => {},
  ready: async () => {},
  close: async () => {},
};

function gateOf(options: { trustProxy?: boolean; siteOrigin?: string | undefined; limits?: { public: number; site: number; key: number } } = {}) {
  const clock = { now: 1_790_000_000_000 };
  const limiter = new RateLimiter(options.limits ?? { public: 2, site: 3, key: 4 }, { now: () => clock.now });
  const gate = createGate({ limiter, siteOrigin: 'siteOrigin' in options ? options.siteOrigin : SITE, trustProxy: options.trustProxy ?? false, partners });
  return { gate, limiter, clock };
}

describe('isLimitedTarget', () => {
  it('limits API answers under /v1/ and /oembed', () => {
    for (const target of ['/v1/videos', '/v1/videos?q=x', '/v1/', '/v1/unknown', '/oembed', '/oembed?url=x']) {
      expect(isLimitedTarget(target), target).toBe(true);
    }
  });

  it('leaves pages, pictures, problem docs and lookalike paths alone', () => {
    for (const target of ['/', '/watch/abc', '/embed/abc', '/problems/rate-limited', '/thumbnails/a.svg', '/v1', '/v10/videos', '/oembedx', '/sdk.js']) {
      expect(isLimitedTarget(target), target).toBe(false);
    }
  });
});

describe('clientAddress', () => {
  it('uses the socket address and ignores X-Forwarded-For without TRUST_PROXY', () => {
    expect(clientAddress(facts({ forwardedFor: '203.0.113.5' }), false)).toBe('192.0.2.10');
  });

  it('uses the last X-Forwarded-For hop, the one our proxy added, with TRUST_PROXY', () => {
    expect(clientAddress(facts({ forwardedFor: '198.51.100.1, 203.0.113.5' }), true)).toBe('203.0.113.5');
    expect(clientAddress(facts({ forwardedFor: ' 203.0.113.7 ' }), true)).toBe('203.0.113.7');
    expect(clientAddress(facts({ forwardedFor: '203.0.113.8, ,' }), true)).toBe('203.0.113.8');
  });

  it('falls back to the socket address when X-Forwarded-For is absent or empty behind a proxy', () => {
    expect(clientAddress(facts(), true)).toBe('192.0.2.10');
    expect(clientAddress(facts({ forwardedFor: ' , ' }), true)).toBe('192.0.2.10');
  });

  it('takes only an IP address from X-Forwarded-For; anything else falls back to the socket address', () => {
    const long = `203.0.113.${'9'.repeat(8192)}`;
    for (const forwardedFor of [long, 'x'.repeat(8192), 'unknown', 'evil.example', '203.0.113', '01.2.3.4', '203.0.113.5, not-an-address', '::g']) {
      expect(clientAddress(facts({ forwardedFor }), true), forwardedFor.slice(0, 40)).toBe('192.0.2.10');
    }
  });

  it('spells one address one way: IPv6 lower-case and compressed, IPv4-mapped IPv6 as IPv4, ports and zones dropped', () => {
    const cases: Record<string, string> = {
      '2001:DB8:0:0:0:0:0:1': '2001:db8::1',
      '2001:db8::1': '2001:db8::1',
      '::FFFF:203.0.113.9': '203.0.113.9',
      '::ffff:cb00:7109': '203.0.113.9',
      '[2001:db8::2]:443': '2001:db8::2',
      '[2001:db8::3]': '2001:db8::3',
      '203.0.113.4:8080': '203.0.113.4',
      'fe80::1%eth0': 'fe80::1',
    };
    for (const [given, key] of Object.entries(cases)) expect(clientAddress(facts({ forwardedFor: given }), true), given).toBe(key);
    expect(clientAddress(facts({ remoteAddress: '::ffff:127.0.0.1' }), false)).toBe('127.0.0.1');
  });

  it('never makes a key longer than an address, whatever the header holds', () => {
    const keys = new Set<string>();
    for (let i = 0; i < 2000; i++) keys.add(clientAddress(facts({ forwardedFor: `${i}-${'a'.repeat(8000)}` }), true));
    expect([...keys]).toEqual(['192.0.2.10']);
  });

  it('names a request without any address "unknown"', () => {
    expect(clientAddress(facts({ remoteAddress: undefined }), false)).toBe('unknown');
  });
});

describe('fromSite', () => {
  it('matches Origin exactly', () => {
    expect(fromSite(facts({ origin: SITE }), SITE)).toBe(true);
    for (const origin of [`${SITE}:443`, 'http://videos.example.test', 'https://videos.example.test.evil.test', 'https://evil.test', 'null']) {
      expect(fromSite(facts({ origin }), SITE), origin).toBe(false);
    }
  });

  it('falls back to Referer only when Origin is absent', () => {
    expect(fromSite(facts({ referer: `${SITE}/watch/abc` }), SITE)).toBe(true);
    expect(fromSite(facts({ referer: SITE }), SITE)).toBe(true);
    expect(fromSite(facts({ origin: 'https://evil.test', referer: `${SITE}/watch/abc` }), SITE)).toBe(false);
    expect(fromSite(facts({ origin: 'null', referer: `${SITE}/` }), SITE)).toBe(false);
  });

  it('does not take a Referer on a lookalike host for the site', () => {
    for (const referer of [`${SITE}.evil.test/`, `${SITE}evil/`, `https://evil.test/?from=${SITE}/`]) {
      expect(fromSite(facts({ referer }), SITE), referer).toBe(false);
    }
  });

  it('has no site lane when no site origin is configured', () => {
    expect(fromSite(facts({ origin: SITE }), undefined)).toBe(false);
  });
});

describe('bearerToken', () => {
  it('reads the token whatever the case of the scheme', () => {
    for (const header of ['Bearer abc', 'bearer abc', 'BEARER abc', 'BeArEr  abc ']) expect(bearerToken(header), header).toBe('abc');
  });

  it('reads nothing from another scheme, a missing token or a token with spaces', () => {
    for (const header of [undefined, '', 'Basic YTpi', 'Bearer', 'Bearer ', 'Bearerabc', 'Bearer a b', 'Token abc']) {
      expect(bearerToken(header), String(header)).toBeUndefined();
    }
  });
});

describe('createGate admit', () => {
  it('puts an anonymous request in the public lane of its address', () => {
    const { gate } = gateOf();
    const admission = gate.admit(facts());
    expect(admission.caller).toEqual({ kind: 'anonymous' });
    expect(admission.decision).toMatchObject({ lane: 'public', limit: 2, remaining: 1, allowed: true });
    expect(admission.headers).toEqual({ 'ratelimit-policy': '"public";q=2;w=60', ratelimit: '"public";r=1;t=60' });
  });

  it('puts a request with a valid key in the key lane of its app, whichever of its keys it sends', () => {
    const { gate } = gateOf();
    const first = gate.admit(facts({ authorization: `Bearer ${GOOD_KEY}` }));
    expect(first.caller).toEqual({ kind: 'app', appId: 'app_1', appName: 'Good app' });
    expect(first.decision).toMatchObject({ lane: 'key', limit: 4, remaining: 3 });
    const second = gate.admit(facts({ remoteAddress: '198.51.100.99', authorization: `bearer ${OTHER_KEY}` }));
    expect(second.decision).toMatchObject({ lane: 'key', remaining: 2 });
  });

  it('admitFresh looks up a key the last read does not know, and reads the stored usage of its app first', async () => {
    const { gate } = gateOf();
    expect(gate.admit(facts({ authorization: `Bearer ${NEW_KEY}` })).caller).toEqual({ kind: 'invalid-key' });
    const admission = await gate.admitFresh(facts({ authorization: `Bearer ${NEW_KEY}` }));
    expect(admission.caller).toEqual({ kind: 'app', appId: 'app_new', appName: 'New app' });
    expect(admission.decision).toMatchObject({ lane: 'key', remaining: 3 });
    expect(prepared).toContain('app_new');
    expect((await gate.admitFresh(facts({ authorization: `Bearer vpk_${'Z'.repeat(32)}` }))).caller).toEqual({ kind: 'invalid-key' });
    expect((await gate.admitFresh(facts())).caller).toEqual({ kind: 'anonymous' });
  });

  it('makes an unknown key an invalid-key caller counted in the public lane', () => {
    const { gate } = gateOf();
    const admission = gate.admit(facts({ authorization: `Bearer vpk_${'Z'.repeat(32)}` }));
    expect(admission.caller).toEqual({ kind: 'invalid-key' });
    expect(admission.decision).toMatchObject({ lane: 'public', remaining: 1 });
  });

  it('makes another scheme a no-key caller counted in the public lane', () => {
    const { gate } = gateOf();
    const admission = gate.admit(facts({ authorization: 'Basic YTpi' }));
    expect(admission.caller).toEqual({ kind: 'no-key' });
    expect(admission.decision.lane).toBe('public');
  });

  it('uses the site lane for a request from the site by Origin or, without Origin, by Referer', () => {
    const { gate } = gateOf({ siteOrigin: `${SITE}/` });
    expect(gate.admit(facts({ origin: SITE })).decision).toMatchObject({ lane: 'site', limit: 3, remaining: 2 });
    expect(gate.admit(facts({ referer: `${SITE}/channels/x` })).decision).toMatchObject({ lane: 'site', remaining: 1 });
    expect(gate.admit(facts({ origin: 'https://evil.test', referer: `${SITE}/` })).decision.lane).toBe('public');
  });

  it('keeps lanes independent: the site and key lanes still answer once the public lane is spent', () => {
    const { gate } = gateOf();
    gate.admit(facts());
    gate.admit(facts());
    expect(gate.admit(facts()).decision.allowed).toBe(false);
    expect(gate.admit(facts({ origin: SITE })).decision).toMatchObject({ lane: 'site', allowed: true });
    expect(gate.admit(facts({ authorization: `Bearer ${GOOD_KEY}` })).decision).toMatchObject({ lane: 'key', allowed: true });
    expect(gate.admit(facts({ authorization: 'Bearer nonsense' })).decision).toMatchObject({ lane: 'public', allowed: false });
  });

  it('counts by the last X-Forwarded-For hop with TRUST_PROXY, and by the socket without it', () => {
    const trusting = gateOf({ trustProxy: true }).gate;
    for (let i = 0; i < 2; i++) trusting.admit(facts({ forwardedFor: '203.0.113.1' }));
    expect(trusting.admit(facts({ forwardedFor: '203.0.113.1' })).decision.allowed).toBe(false);
    expect(trusting.admit(facts({ forwardedFor: '203.0.113.1, 203.0.113.2' })).decision.allowed).toBe(true);

    const direct = gateOf({ trustProxy: false }).gate;
    direct.admit(facts({ forwardedFor: '203.0.113.1' }));
    direct.admit(facts({ forwardedFor: '203.0.113.2' }));
    expect(direct.admit(facts({ forwardedFor: '203.0.113.3' })).decision.allowed).toBe(false);
  });

  it('adds Retry-After to the headers of a refused admission', () => {
    const { gate, clock } = gateOf();
    gate.admit(facts());
    clock.now += 18_000;
    gate.admit(facts());
    expect(gate.admit(facts()).headers).toEqual({ 'ratelimit-policy': '"public";q=2;w=60', ratelimit: '"public";r=0;t=42', 'retry-after': '42' });
  });
});

describe('createGate refusal', () => {
  it('renders the 429 rate-limited problem with the rate-limit headers and Retry-After', () => {
    const { gate } = gateOf();
    gate.admit(facts({ origin: SITE }));
    gate.admit(facts({ origin: SITE }));
    gate.admit(facts({ origin: SITE }));
    const admission = gate.admit(facts({ origin: SITE }));
    const rendered = gate.refusal(admission, '/v1/videos?q=x', createUrls(BASE_URL));
    expect(rendered.status).toBe(429);
    expect(rendered.headers).toMatchObject({
      'content-type': 'application/problem+json; charset=utf-8',
      'cache-control': 'no-store',
      'retry-after': '60',
      'ratelimit-policy': '"site";q=3;w=60',
      ratelimit: '"site";r=0;t=60',
    });
    expect(JSON.parse(rendered.body.toString('utf8'))).toEqual({
      type: `${BASE_URL}/problems/rate-limited`,
      title: 'Too many requests',
      status: 429,
      detail: 'The site lane allows 3 requests per 60 s and this client has used them; retry in 60 s.',
      instance: '/v1/videos?q=x',
    });
  });
});
