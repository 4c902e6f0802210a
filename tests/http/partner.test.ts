// /v1/partner and the keys command over a real server (docs/api-contract.md §2, §5): 401s with exact
// WWW-Authenticate challenges and problems; a key made by `npm run keys -- create` gets its app's
// statistics, its usage counted per endpoint template, kept across a restart, and refused within
// seconds of `npm run keys -- revoke`. The keys command's usage errors exit with code 2.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_PATTERN } from '../../src/catalogue/api-keys.ts';
import { readTruth, sortedIds } from './catalogue-truth.ts';
import { problemShapeProblems, type Problem } from './contract-shapes.ts';
import { createClient, header, type Client, type RawResponse } from './http-client.ts';
import { startFixture, type Fixture } from './server-fixture.ts';

const run = promisify(execFile);
const KEY_LIMIT = 30;
const CHALLENGE = 'Bearer realm="api"';
const INVALID_CHALLENGE = 'Bearer realm="api", error="invalid_token", error_description="The key is unknown or revoked"';

let fx: Fixture;
let api: Client;
let videoIds: string[] = [];

interface CreatedApp { appId: string; key: string; stdout: string }
/** apps made with the real command before any request, so the server's 2 s key cache has them all */
let apps: Record<'stats' | 'usage' | 'restart' | 'revoke', CreatedApp>;

interface PartnerStats {
  app: { id: string; name: string };
  lane: string;
  rateLimit: { limit: number; remaining: number; reset: number; window: number };
  requests: { total: number; days: { day: string; requests: number }[]; endpoints: { endpoint: string; requests: number }[] };
}

/** Runs `npm run -s keys -- …args` on the fixture's catalogue; resolves with its output and exit code. */
async function keys(args: string[], catalogue = fx.catalogue): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('npm', ['run', '-s', 'keys', '--', ...args], { env: { ...process.env, CATALOGUE_DB: catalogue }, cwd: process.cwd() });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

async function createApp(name: string): Promise<CreatedApp> {
  const { code, stdout, stderr } = await keys(['create', name]);
  expect(code, stderr).toBe(0);
  const lines = stdout.trim().split('\n');
  const appId = /created app (app_[0-9a-f]+) /.exec(stdout)?.[1] ?? '';
  return { appId, key: lines.at(-1)?.trim() ?? '', stdout };
}

beforeAll(async () => {
  fx = await startFixture({ seed: { videos: 150 }, env: { RATE_LIMIT_KEY: String(KEY_LIMIT) } });
  api = createClient(fx.base);
  videoIds = sortedIds(readTruth(fx.catalogue).publicVideos, 'latest').slice(0, 3);
  const [stats, usage, restart, revoke] = await Promise.all([createApp('Stats app'), createApp('Usage app'), createApp('Restart app'), createApp('Revoke app')]);
  apps = { stats, usage, restart, revoke };
});
afterAll(async () => { await fx?.close(); });

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const partner = (headers: Record<string, string> = {}) => api.send('/v1/partner', { headers });

async function statsOf(key: string): Promise<{ stats: PartnerStats; res: RawResponse }> {
  const res = await partner(bearer(key));
  expect(res.status, res.body.toString('utf8')).toBe(200);
  return { stats: (JSON.parse(res.body.toString('utf8')) as { data: PartnerStats }).data, res };
}

function problemOf(res: RawResponse, status: number): Problem {
  expect(res.status).toBe(status);
  expect(header(res, 'content-type')).toMatch(/^application\/problem\+json(;|$)/);
  const problem = JSON.parse(res.body.toString('utf8')) as Problem;
  expect(problemShapeProblems(problem, fx.base, status)).toEqual([]);
  return problem;
}

/** the lane named by RateLimit-Policy */
const policyLane = (res: RawResponse): string | undefined => /^"([a-z]+)"/.exec(header(res, 'ratelimit-policy') ?? '')?.[1];

const today = () => new Date().toISOString().slice(0, 10);

describe('/v1/partner without a valid key', () => {
  it('answers 401 "API key required" with WWW-Authenticate: Bearer realm="api" when no key is sent', async () => {
    const res = await partner();
    expect(problemOf(res, 401)).toEqual({
      type: `${fx.base}/problems/api-key-required`, title: 'API key required', status: 401,
      detail: 'Send your developer key as Authorization: Bearer <API_KEY>.', instance: '/v1/partner',
    });
    expect(header(res, 'www-authenticate')).toBe(CHALLENGE);
    expect(policyLane(res)).toBe('public');
  });

  it('answers the same 401 for another scheme or a Bearer header without a token', async () => {
    for (const authorization of ['Basic YWxhZGRpbjpvcGVuc2VzYW1l', `Token ${apps.stats.key}`, 'Bearer']) {
      const res = await partner({ authorization });
      expect(problemOf(res, 401), authorization).toMatchObject({ type: `${fx.base}/problems/api-key-required`, title: 'API key required' });
      expect(header(res, 'www-authenticate'), authorization).toBe(CHALLENGE);
    }
  });

  it('answers 401 invalid-api-key with error="invalid_token" for an unknown or malformed key', async () => {
    for (const token of [`vpk_${'Q'.repeat(32)}`, 'not-a-key', `${apps.stats.key}x`, apps.stats.key.slice(0, -1)]) {
      const res = await partner(bearer(token));
      expect(problemOf(res, 401), token).toEqual({
        type: `${fx.base}/problems/invalid-api-key`, title: 'Invalid API key', status: 401,
        detail: 'The developer key is unknown or has been revoked.', instance: '/v1/partner',
      });
      expect(header(res, 'www-authenticate'), token).toBe(INVALID_CHALLENGE);
    }
  });
});

describe('npm run keys -- create', () => {
  it('prints the new key once, on its last line, and lists only its prefix', async () => {
    const { key, appId, stdout } = apps.stats;
    expect(key).toMatch(KEY_PATTERN);
    expect(appId).toMatch(/^app_[0-9a-f]{12}$/);
    expect(stdout.split(key)).toHaveLength(2);
    const listed = await keys(['list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(appId);
    expect(listed.stdout).toContain(`${key.slice(0, 12)}… active`);
    expect(listed.stdout).not.toContain(key);
  });
});

describe('/v1/partner with a valid key', () => {
  it('gives the app its statistics, its key lane and quota, privately', async () => {
    const { stats, res } = await statsOf(apps.stats.key);
    expect(stats.app).toEqual({ id: apps.stats.appId, name: 'Stats app' });
    expect(stats.lane).toBe('key');
    expect(stats.rateLimit).toMatchObject({ limit: KEY_LIMIT, remaining: KEY_LIMIT - 1, window: 60 });
    expect(stats.rateLimit.reset).toBeGreaterThanOrEqual(1);
    expect(stats.rateLimit.reset).toBeLessThanOrEqual(60);
    expect(header(res, 'cache-control')).toBe('private, no-store');
    expect(header(res, 'ratelimit-policy')).toBe(`"key";q=${KEY_LIMIT};w=60`);
    expect(header(res, 'ratelimit')).toBe(`"key";r=${KEY_LIMIT - 1};t=${stats.rateLimit.reset}`);
    // this request is the app's first
    expect(stats.requests).toEqual({ total: 1, days: [{ day: today(), requests: 1 }], endpoints: [{ endpoint: '/v1/partner', requests: 1 }] });
  });

  it('counts the app\'s requests per endpoint template, most used first, and per day', async () => {
    const key = apps.usage.key;
    for (const id of videoIds) expect((await api.send(`/v1/videos/${id}`, { headers: bearer(key) })).status).toBe(200);
    expect((await api.send('/v1/categories', { headers: bearer(key) })).status).toBe(200);
    expect((await api.send(`/v1/videos/${videoIds[0]}/related?limit=3`, { headers: bearer(key) })).status).toBe(200);
    expect((await api.send('/v1/categories', { headers: bearer(key) })).status).toBe(200);
    // other callers do not count for it
    await api.send(`/v1/videos/${videoIds[0]}`);
    await api.send(`/v1/videos/${videoIds[0]}`, { headers: bearer(apps.stats.key) });
    const { stats } = await statsOf(key);
    expect(stats.requests.endpoints).toEqual([
      { endpoint: '/v1/videos/{id}', requests: 3 },
      { endpoint: '/v1/categories', requests: 2 },
      { endpoint: '/v1/partner', requests: 1 },
      { endpoint: '/v1/videos/{id}/related', requests: 1 },
    ]);
    expect(stats.requests.total).toBe(7);
    expect(stats.requests.days).toEqual([{ day: today(), requests: 7 }]);
    expect(stats.rateLimit.remaining).toBe(KEY_LIMIT - 7);
  });

  it('keeps the counts across a restart of the server', async () => {
    const key = apps.restart.key;
    for (const id of videoIds) expect((await api.send(`/v1/videos/${id}`, { headers: bearer(key) })).status).toBe(200);
    await fx.restart();
    const { stats } = await statsOf(key);
    expect(stats.requests.endpoints).toEqual([
      { endpoint: '/v1/videos/{id}', requests: 3 },
      { endpoint: '/v1/partner', requests: 1 },
    ]);
    // a fresh window after the restart
    expect(stats.rateLimit.remaining).toBe(KEY_LIMIT - 1);
    const listed = await keys(['list']);
    expect(listed.stdout).toMatch(new RegExp(`${apps.restart.appId} .* [34] requests`));
  });
});

describe('npm run keys -- revoke', () => {
  it('makes the server refuse the key with invalid_token within a few seconds', async () => {
    const { key } = apps.revoke;
    await statsOf(key);
    const revoked = await keys(['revoke', key.slice(0, 12)]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toMatch(/revoked 1 key\b/);
    const started = Date.now();
    let res = await partner(bearer(key));
    while (res.status === 200 && Date.now() - started < 6000) {
      await new Promise((r) => setTimeout(r, 200));
      res = await partner(bearer(key));
    }
    expect(Date.now() - started).toBeLessThan(5000);
    expect(problemOf(res, 401)).toMatchObject({ type: `${fx.base}/problems/invalid-api-key` });
    expect(header(res, 'www-authenticate')).toBe(INVALID_CHALLENGE);
    expect(policyLane(res)).toBe('public');
    // the other apps' keys still work
    expect((await partner(bearer(apps.stats.key))).status).toBe(200);
  });

  it('exits with code 2 when nothing matches the app id or prefix', async () => {
    const result = await keys(['revoke', 'vpk_nothing0']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('keys: no active key has the app id or key prefix "vpk_nothing0"');
  });
});

describe('npm run keys usage errors', () => {
  const USAGE = 'create "App name" | list | revoke APP_ID|KEY_PREFIX';

  it('exits with code 2 and prints the usage for a missing or unknown command or wrong arguments', async () => {
    const cases = [[], ['frobnicate'], ['create'], ['create', 'Two', 'words'], ['create', ' '], ['revoke']];
    const results = await Promise.all(cases.map((args) => keys(args)));
    for (const [i, result] of results.entries()) {
      const args = cases[i]!;
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(/^keys: /);
      // the forms themselves, or where to find them
      expect(result.stderr.includes(USAGE) || result.stderr.includes('see npm run keys -- --help'), `${args.join(' ')}: ${result.stderr}`).toBe(true);
      expect(result.stdout, args.join(' ')).not.toMatch(/vpk_/);
    }
  });

  it('exits with code 2 and names the file when there is no catalogue', async () => {
    const result = await keys(['list'], `${fx.dir}/missing/catalogue.db`);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/no catalogue at .*missing\/catalogue\.db/);
  });
});
