// GET /v1/partner (docs/api-contract.md §2): 401 "API key required" without a bearer key, 401 invalid_token for
// an unknown or revoked one, and for an app its statistics: requests per day (newest first) and per
// endpoint (most used first), its lane and what is left of its quota, never cached by others.
import { describe, expect, it } from 'vitest';
import type { Caller, Context, Quota, RequestInfo } from '../../../../src/api/endpoint.ts';
import { partner } from '../../../../src/api/handlers/partner.ts';
import { PROBLEM_TYPE, runEndpoint } from '../../../../src/api/respond.ts';
import type { UsageRow } from '../../../../src/catalogue/api-keys.ts';
import { catalogueOf, modelOf } from '../../support/fixtures.ts';
import { problemOf } from '../../support/handlers.ts';

const model = modelOf(catalogueOf({}));
const APP: Caller = { kind: 'app', appId: 'app_1', appName: 'Weather wall' };
const QUOTA: Quota = { lane: 'key', limit: 1200, remaining: 1187, reset: 42, window: 60 };

const row = (day: string, endpoint: string, requests: number): UsageRow => ({ appId: 'app_1', day, endpoint, requests });

function contextOf(caller: Caller | undefined, rows: readonly UsageRow[] = [], quota: Quota | 'none' = QUOTA): Context {
  const request: RequestInfo | undefined = caller && { caller, quota: quota === 'none' ? undefined : quota, usage: (appId) => rows.filter((r) => r.appId === appId) };
  return { model, snapshot: undefined, liveStreams: () => [], request };
}

const handle = (context: Context, query = '') => partner.handle(partner.parse({}, new URLSearchParams(query)), context);
const render = (context: Context) => runEndpoint(partner, {}, new URL('https://videos.example.test/v1/partner'), context);

describe('partner', () => {
  it('answers 401 api-key-required with a Bearer challenge when no key is sent', () => {
    for (const context of [contextOf(undefined), contextOf({ kind: 'anonymous' })]) {
      const problem = problemOf(() => handle(context));
      expect(problem).toMatchObject({ slug: 'api-key-required', status: 401, headers: { 'www-authenticate': 'Bearer realm="api"' } });
      expect(problem.message).toBe('Send your developer key as Authorization: Bearer <API_KEY>.');
    }
  });

  it('answers 401 api-key-required, naming the Bearer scheme, for another scheme', () => {
    const problem = problemOf(() => handle(contextOf({ kind: 'no-key' })));
    expect(problem).toMatchObject({ slug: 'api-key-required', headers: { 'www-authenticate': 'Bearer realm="api"' } });
    expect(problem.message).toMatch(/must use the Bearer scheme/);
  });

  it('answers 401 invalid-api-key with error="invalid_token" for an unknown or revoked key', () => {
    const problem = problemOf(() => handle(contextOf({ kind: 'invalid-key' })));
    expect(problem).toMatchObject({ slug: 'invalid-api-key', status: 401 });
    expect(problem.headers['www-authenticate']).toBe('Bearer realm="api", error="invalid_token", error_description="The key is unknown or revoked"');
  });

  it('renders the 401 as a problem with the challenge header and no caching', () => {
    const rendered = render(contextOf({ kind: 'invalid-key' }));
    expect(rendered.status).toBe(401);
    expect(rendered.headers).toMatchObject({ 'content-type': PROBLEM_TYPE, 'cache-control': 'no-store', 'www-authenticate': expect.stringMatching(/^Bearer realm="api", error="invalid_token"/) });
    expect(JSON.parse(rendered.body.toString('utf8'))).toMatchObject({ title: 'Invalid API key', status: 401, type: 'https://videos.example.test/problems/invalid-api-key' });
  });

  it('gives an app its id, name, lane and quota', () => {
    const answer = handle(contextOf(APP));
    expect(partner.response.safeParse(answer.body).success).toBe(true);
    expect(answer.body).toEqual({ data: {
      app: { id: 'app_1', name: 'Weather wall' },
      lane: 'key',
      rateLimit: { limit: 1200, remaining: 1187, reset: 42, window: 60 },
      requests: { total: 0, days: [], endpoints: [] },
    } });
  });

  it('counts requests per day newest first and per endpoint most used first, ties by name', () => {
    const rows = [
      row('2026-03-01', '/v1/videos/{id}', 3),
      row('2026-03-02', '/v1/videos', 2),
      row('2026-03-02', '/v1/categories', 2),
      row('2026-02-28', '/v1/videos/{id}', 1),
      row('2026-03-02', '/v1/partner', 1),
    ];
    const { data } = handle(contextOf(APP, rows)).body as { data: { requests: unknown } };
    expect(data.requests).toEqual({
      total: 9,
      days: [{ day: '2026-03-02', requests: 5 }, { day: '2026-03-01', requests: 3 }, { day: '2026-02-28', requests: 1 }],
      endpoints: [
        { endpoint: '/v1/videos/{id}', requests: 4 },
        { endpoint: '/v1/categories', requests: 2 },
        { endpoint: '/v1/videos', requests: 2 },
        { endpoint: '/v1/partner', requests: 1 },
      ],
    });
  });

  it('shows the last 90 days and counts every day in the total', () => {
    const rows = Array.from({ length: 100 }, (_, i) => row(new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10), '/v1/videos', 1));
    const { data } = handle(contextOf(APP, rows)).body as { data: { requests: { total: number; days: { day: string }[] } } };
    expect(data.requests.total).toBe(100);
    expect(data.requests.days).toHaveLength(90);
    expect(data.requests.days[0]?.day).toBe('2026-04-10');
    expect(data.requests.days.at(-1)?.day).toBe('2026-01-11');
  });

  it('answers with zeros for the quota when there is none', () => {
    const { data } = handle(contextOf(APP, [], 'none')).body as { data: { rateLimit: unknown } };
    expect(data.rateLimit).toEqual({ limit: 0, remaining: 0, reset: 0, window: 60 });
  });

  it('is private to its caller: Cache-Control private, no-store', () => {
    const rendered = render(contextOf(APP));
    expect(rendered.status).toBe(200);
    expect(rendered.headers['cache-control']).toBe('private, no-store');
  });

  it('ignores unknown query parameters', () => {
    expect(() => handle(contextOf(APP), 'foo=bar')).not.toThrow();
  });
});
