// createGate (docs/api-contract.md §7): which targets are limited, the client address (socket, or the last
// X-Forwarded-For hop behind a trusted proxy), the lane (key, site by Origin or else Referer,
// public), the caller a bearer token makes, and the 429 problem.
import { describe, expect, it } from 'vitest';
import { createUrls } from '../../../src/model/urls.ts';
import { bearerToken, clientAddress, createGate, isLimitedTarget, type RequestFacts } from '../../../src/server/gate.ts';
import type { Partners } from '../../../src/server/partners.ts';
import { RateLimiter } from '../../../src/server/rate-limit.ts';
import { createSitePass, SITE_PASS_COOKIE } from '../../../src/server/site-pass.ts';
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
  const sitePass = createSitePass({ secret: 'a secret of this deployment, 32+ characters', secure: true, now: () => clock.now });
  const gate = createGate({ limiter, siteOrigin: 'siteOrigin' in options ? options.siteOrigin : SITE, trustProxy: options.trustProxy ?? false, partners, sitePass });
  /** the Cookie header a browser at `address` sends after a page of the site gave it a pass */
  const passFor = (address = '192.0.2.10') => `theme=dark; ${SITE_PASS_COOKIE}=${sitePass.issue(address)}`;
  return { gate, limiter, clock, passFor };
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

  it('uses the site lane for a browser with a site pass for its address, without Origin or with the site\'s', () => {
    const { gate, passFor } = gateOf({ siteOrigin: `${SITE}/` });
    expect(gate.admit(facts({ cookie: passFor() })).decision).toMatchObject({ lane: 'site', limit: 3, remaining: 2 });
    expect(gate.admit(facts({ cookie: passFor(), origin: SITE, referer: `${SITE}/channels/x` })).decision).toMatchObject({ lane: 'site', remaining: 1 });
  });

  it('keeps a forged Origin or Referer in the public lane: one header is not proof', () => {
    const { gate } = gateOf();
    expect(gate.admit(facts({ origin: SITE })).decision.lane).toBe('public');
    expect(gate.admit(facts({ referer: `${SITE}/watch/abc` })).decision.lane).toBe('public');
    expect(gate.admit(facts({ origin: SITE, referer: `${SITE}/`, cookie: `${SITE_PASS_COOKIE}=1790000600.AAAAAAAAAAAAAAAAAAAAAA` })).decision.lane).toBe('public');
  });

  it('keeps a pass in the public lane from another address, from another site\'s page, or once expired', () => {
    const { gate, passFor, clock } = gateOf();
    expect(gate.admit(facts({ cookie: passFor('198.51.100.7') })).decision.lane).toBe('public');
    expect(gate.admit(facts({ cookie: passFor(), origin: 'https://evil.test' })).decision.lane).toBe('public');
    const cookie = passFor();
    clock.now += 600_000;
    expect(gate.admit(facts({ cookie })).decision.lane).toBe('public');
  });

  it('has no site lane when no site origin is configured', () => {
    const { gate, passFor } = gateOf({ siteOrigin: undefined });
    expect(gate.admit(facts({ cookie: passFor() })).decision.lane).toBe('public');
  });

  it('gives a page a new pass when the request has none, or one past half its life, and none otherwise', () => {
    const { gate, clock } = gateOf();
    const set = gate.passCookie(facts());
    expect(set).toMatch(new RegExp(`^${SITE_PASS_COOKIE}=\\d+\\.[A-Za-z0-9_-]{22}; Path=/; Max-Age=600; HttpOnly; SameSite=Strict; Secure$`));
    const cookie = set!.split(';')[0]!;
    expect(gate.admit(facts({ cookie })).decision.lane).toBe('site');
    expect(gate.passCookie(facts({ cookie }))).toBeUndefined();
    clock.now += 300_001;
    expect(gate.passCookie(facts({ cookie }))).toMatch(new RegExp(`^${SITE_PASS_COOKIE}=`));
  });

  it('keeps lanes independent: the site and key lanes still answer once the public lane is spent', () => {
    const { gate, passFor } = gateOf();
    gate.admit(facts());
    gate.admit(facts());
    expect(gate.admit(facts()).decision.allowed).toBe(false);
    expect(gate.admit(facts({ cookie: passFor() })).decision).toMatchObject({ lane: 'site', allowed: true });
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
    const { gate, passFor } = gateOf();
    const cookie = passFor();
    for (let i = 0; i < 3; i++) gate.admit(facts({ cookie }));
    const admission = gate.admit(facts({ cookie }));
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
