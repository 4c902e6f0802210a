// RateLimiter and rateLimitHeaders (docs/api-contract.md §7): a fixed window per client and lane started by the
// client's first request, refusals once the budget is spent, a shared overflow window past
// `maxClients`, lazy sweeping of expired windows, and the IETF httpapi header syntax.
import { describe, expect, it } from 'vitest';
import { OVERFLOW_KEY, RateLimiter, rateLimitHeaders, type Decision, type Lane } from '../../../src/server/rate-limit.ts';

const LIMITS = { public: 3, site: 5, key: 10 } as const;
/** a realistic epoch time, so the first request also runs the first sweep */
const T0 = 1_790_000_000_000;

function limiterAt(start = T0, options: { maxClients?: number; windowMs?: number } = {}) {
  const clock = { now: start };
  const limiter = new RateLimiter(LIMITS, { ...options, now: () => clock.now });
  return { limiter, clock };
}

const take = (limiter: RateLimiter, times: number, lane: Lane, client: string): Decision[] =>
  Array.from({ length: times }, () => limiter.take(lane, client));

describe('RateLimiter', () => {
  it('counts down the remaining requests and says how long the window lasts', () => {
    const { limiter, clock } = limiterAt();
    expect(limiter.take('public', 'a')).toEqual({ lane: 'public', limit: 3, remaining: 2, reset: 60, allowed: true, window: 60 });
    clock.now += 17_500;
    expect(limiter.take('public', 'a')).toMatchObject({ remaining: 1, reset: 43, allowed: true });
    clock.now += 42_000;
    expect(limiter.take('public', 'a')).toMatchObject({ remaining: 0, reset: 1, allowed: true });
  });

  it('refuses once the budget is spent, with r=0, and refused requests do not count', () => {
    const { limiter, clock } = limiterAt();
    take(limiter, 3, 'public', 'a');
    clock.now += 20_000;
    const refused = take(limiter, 5, 'public', 'a');
    expect(refused.map((d) => d.allowed)).toEqual([false, false, false, false, false]);
    expect(refused.at(-1)).toEqual({ lane: 'public', limit: 3, remaining: 0, reset: 40, allowed: false, window: 60 });
  });

  it('starts a new window a full window after the first request, and not a millisecond before', () => {
    const { limiter, clock } = limiterAt();
    take(limiter, 4, 'public', 'a');
    clock.now = T0 + 59_999;
    expect(limiter.take('public', 'a')).toMatchObject({ allowed: false, reset: 1 });
    clock.now = T0 + 60_000;
    expect(limiter.take('public', 'a')).toMatchObject({ allowed: true, remaining: 2, reset: 60 });
  });

  it('starts each client window at its own first request, not at a shared boundary', () => {
    const { limiter, clock } = limiterAt();
    limiter.take('public', 'early');
    clock.now += 45_000;
    expect(limiter.take('public', 'late')).toMatchObject({ reset: 60, remaining: 2 });
    expect(limiter.take('public', 'early')).toMatchObject({ reset: 15, remaining: 1 });
  });

  it('keeps clients apart, and lanes apart for the same client', () => {
    const { limiter } = limiterAt();
    take(limiter, 3, 'public', 'a');
    expect(limiter.take('public', 'a').allowed).toBe(false);
    expect(limiter.take('public', 'b')).toMatchObject({ allowed: true, remaining: 2 });
    expect(limiter.take('site', 'a')).toMatchObject({ lane: 'site', allowed: true, limit: 5, remaining: 4 });
    expect(limiter.take('key', 'a')).toMatchObject({ lane: 'key', allowed: true, limit: 10, remaining: 9 });
  });

  it('uses the configured window length in reset and window', () => {
    const { limiter, clock } = limiterAt(T0, { windowMs: 10_000 });
    expect(limiter.take('site', 'a')).toMatchObject({ reset: 10, window: 10 });
    clock.now += 9_001;
    expect(limiter.take('site', 'a')).toMatchObject({ reset: 1, remaining: 3 });
    clock.now += 999;
    expect(limiter.take('site', 'a')).toMatchObject({ reset: 10, remaining: 4 });
  });

  it('puts new clients past maxClients into one shared overflow window, and keeps known clients in theirs', () => {
    const { limiter } = limiterAt(T0, { maxClients: 2 });
    limiter.take('public', 'a');
    limiter.take('public', 'b');
    expect(limiter.take('public', 'c')).toMatchObject({ remaining: 2 });
    expect(limiter.take('public', 'd')).toMatchObject({ remaining: 1 });
    expect(limiter.take('public', 'e')).toMatchObject({ remaining: 0, allowed: true });
    expect(limiter.take('public', 'f')).toMatchObject({ remaining: 0, allowed: false });
    expect(limiter.take('public', 'a')).toMatchObject({ remaining: 1, allowed: true });
    expect(limiter.size('public')).toBe(3);
    // the other lanes have their own room
    expect(limiter.take('site', 'c')).toMatchObject({ remaining: 4 });
    expect(limiter.size('site')).toBe(1);
  });

  it('sweeps expired windows, so new clients get their own window again after a flood', () => {
    const { limiter, clock } = limiterAt(T0, { maxClients: 2 });
    for (const client of ['a', 'b', 'c', 'd']) limiter.take('public', client);
    expect(limiter.size('public')).toBe(3);
    clock.now += 60_000;
    limiter.take('public', 'e');
    expect(limiter.size('public')).toBe(1);
    expect(limiter.take('public', 'f')).toMatchObject({ remaining: 2 });
    expect(limiter.take('public', 'g')).toMatchObject({ remaining: 2 });
    expect(limiter.size('public')).toBe(3);
  });

  it('never holds more than maxClients + 1 windows in a lane, whatever the traffic', () => {
    const { limiter, clock } = limiterAt(T0, { maxClients: 50 });
    let largest = 0;
    for (let i = 0; i < 20_000; i++) {
      clock.now += (i * 7919) % 37; // irregular steps: about 6 minutes in all
      limiter.take('public', `10.0.${i % 256}.${i % 253}`);
      largest = Math.max(largest, limiter.size('public'));
    }
    expect(largest).toBe(51);
  });

  it('names the overflow window with a key no client address can take', () => {
    expect(OVERFLOW_KEY).not.toMatch(/^[0-9a-f.:]+$/i);
  });
});

describe('rateLimitHeaders', () => {
  const decision = (over: Partial<Decision> = {}): Decision =>
    ({ lane: 'public', limit: 600, remaining: 598, reset: 42, allowed: true, window: 60, ...over });

  it('writes RateLimit-Policy and RateLimit in the IETF httpapi syntax, without Retry-After when allowed', () => {
    expect(rateLimitHeaders(decision())).toEqual({
      'ratelimit-policy': '"public";q=600;w=60',
      ratelimit: '"public";r=598;t=42',
    });
  });

  it('adds Retry-After, in seconds until the window resets, when refused', () => {
    expect(rateLimitHeaders(decision({ lane: 'site', limit: 8, remaining: 0, reset: 17, allowed: false }))).toEqual({
      'ratelimit-policy': '"site";q=8;w=60',
      ratelimit: '"site";r=0;t=17',
      'retry-after': '17',
    });
  });

  it('gives every value a structured-field shape: a quoted lane name and integer parameters', () => {
    const { limiter } = limiterAt();
    for (const lane of ['public', 'site', 'key'] as const) {
      const headers = rateLimitHeaders(limiter.take(lane, 'x'));
      expect(headers['ratelimit-policy']).toMatch(/^"(public|site|key)";q=\d+;w=\d+$/);
      expect(headers['ratelimit']).toMatch(/^"(public|site|key)";r=\d+;t=\d+$/);
    }
  });
});
