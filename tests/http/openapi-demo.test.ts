// The API description against the server, on the demo catalogue `npm start` serves (the same seed
// options): requests generated from /openapi.json (property-based, fast-check, fixed seed), only
// those the description calls valid, are never refused (no 400) and every answer is inside the
// description (the suite's client checks status, content type, headers and body with Ajv on every
// response); a client that fills every default gets 200s. And every example request the /docs page
// shows answers 200 on this catalogue.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchRoute } from '../../src/api/routes.ts';
import { createApp } from '../../src/catalogue/api-keys.ts';
import { openCatalogue } from '../../src/catalogue/open-catalogue.ts';
import { DEFAULT_SEED_OPTIONS } from '../../src/catalogue/seed-catalogue.ts';
import { sdkCallOf } from '../../src/openapi/docs-samples.ts';
import { createClient as createSdkClient } from '../../src/sdk/client.ts';
import { createClient, decoded, mapConcurrent, type Client } from './http-client.ts';
import { useServedCatalogue } from './harness.ts';
import { nextRequest, operationsOf, requestArbitrary, type GeneratedRequest, type Operation } from './openapi-generator.ts';
import type { Fixture } from './server-fixture.ts';

type Json = Record<string, any>;

let fx: Fixture;
let api: Client;
useServedCatalogue({ seed: DEFAULT_SEED_OPTIONS }, (h) => ({ fx, api } = h));

const SEED = 20261126;
const CASES_PER_OPERATION = 16;
/** cursor pages followed per generated list request, at most */
const LINKS_FOLLOWED = 2;

/**
 * Requests with a developer key go to the origin itself, also when nginx is in front (npm run
 * test:nginx): partner statistics count every request, so the front's answer and the origin's
 * (which the client compares) would differ by one.
 */
const withKey = () => createClient(fx.base);

let key: string | undefined;
/** A developer key the server knows (its key cache refreshes every few seconds), for bearerAuth operations. */
async function developerKey(): Promise<string> {
  if (key) return key;
  const db = openCatalogue(fx.catalogue);
  try {
    key = createApp(db, 'Conformance run', new Date().toISOString()).key;
  } finally {
    db.close();
  }
  for (let tries = 0; tries < 100; tries++) {
    if ((await withKey().send('/v1/partner', { headers: { authorization: `Bearer ${key}` } })).status === 200) return key;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the server did not learn the new developer key within 10 s');
}

async function documentOf(): Promise<Json> {
  return JSON.parse(decoded(await api.send('/openapi.json')).toString('utf8')) as Json;
}

interface Outcome {
  readonly target: string;
  readonly status: number;
  readonly violation?: string;
}

/** Sends a request (with a key where the operation needs one) and follows its `next` links. */
async function run(operation: Operation, first: GeneratedRequest, authorization: string | undefined): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let request: GeneratedRequest | undefined = first;
  for (let hop = 0; request !== undefined && hop <= LINKS_FOLLOWED; hop++) {
    const sent: GeneratedRequest = request;
    try {
      const res = await (authorization ? withKey() : api).send(sent.target, { headers: authorization ? { authorization } : {} });
      outcomes.push({ target: sent.target, status: res.status });
      request = res.status === 200 ? nextRequest(operation, sent, JSON.parse(decoded(res).toString('utf8'))) : undefined;
    } catch (error) {
      outcomes.push({ target: sent.target, status: 0, violation: (error as Error).message });
      request = undefined;
    }
  }
  return outcomes;
}

describe('requests generated from /openapi.json on the demo catalogue', () => {
  it('are never refused, and every answer is one the description documents', async () => {
    const document = await documentOf();
    const operations = operationsOf(document);
    const bearer = `Bearer ${await developerKey()}`;
    const cases = operations.flatMap((operation, i) => fc.sample(requestArbitrary(operation), { numRuns: CASES_PER_OPERATION, seed: SEED + i })
      .map((request) => ({ operation, request })));
    const outcomes = (await mapConcurrent(cases, 4, ({ operation, request }) =>
      run(operation, request, (operation.get['security'] as Json[]).some((s) => 'bearerAuth' in s) ? bearer : undefined))).flat();

    expect(outcomes.filter((o) => o.violation !== undefined).map((o) => o.violation)).toEqual([]);
    expect(outcomes.filter((o) => o.status === 400 || o.status === 401).map((o) => `${o.status} ${o.target}`)).toEqual([]);
    // a run that only met 404s would prove little: most generated requests name what exists
    const ok = outcomes.filter((o) => o.status === 200).length;
    expect(ok / outcomes.length).toBeGreaterThan(0.5);
    expect(outcomes.filter((o) => o.target.includes('cursor=') && o.status === 200).length).toBeGreaterThan(10);
    expect(outcomes.length).toBeGreaterThanOrEqual(operations.length * CASES_PER_OPERATION);
  }, 240_000);

  it('answer 200 to a client that fills in every parameter default the description declares', async () => {
    const document = await documentOf();
    const bearer = `Bearer ${await developerKey()}`;
    for (const operation of operationsOf(document)) {
      const query = new URLSearchParams();
      const path: Record<string, string> = {};
      for (const p of operation.parameters) {
        const value = p['schema']?.['default'] ?? (p['required'] ? p['example'] : undefined);
        if (value === undefined) continue;
        if (p['in'] === 'path') path[p['name']] = String(value);
        else query.set(p['name'], Array.isArray(value) ? value.join(',') : String(value));
      }
      // oEmbed needs url or id (x-required-one-of): its example id
      for (const group of (operation.get['x-required-one-of'] ?? []) as string[][]) {
        if (group.some((name) => query.has(name))) continue;
        const example = operation.parameters.find((p) => group.includes(p['name']) && p['example'] !== undefined);
        if (example) query.set(example['name'], String(example['example']).replace('http://localhost:4321', fx.base));
      }
      const target = `${operation.template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(path[name]!))}${query.size > 0 ? `?${query}` : ''}`;
      const keyed = (operation.get['security'] as Json[]).some((s) => 'bearerAuth' in s);
      const res = await (keyed ? withKey() : api).send(target, { headers: keyed ? { authorization: bearer } : {} });
      expect(res.status, target).toBe(200);
    }
  });

  it('catch the disagreements of the old description: q without its minimum, a cursor described as any string', async () => {
    const document = await documentOf();
    const search = document['paths']['/v1/search']['get'] as Json;
    const q = (search['parameters'] as Json[]).find((p) => p['name'] === 'q')!;
    q['schema'] = { type: 'string' };
    delete search['responses']['200']['links'];
    const operation = operationsOf(document).find((o) => o.template === '/v1/search')!;
    const outcomes = (await mapConcurrent(fc.sample(requestArbitrary(operation), { numRuns: 40, seed: SEED }), 4, (request) => run(operation, request, undefined))).flat();
    const refused = outcomes.filter((o) => o.status === 400).map((o) => new URL(o.target, 'http://x').searchParams);
    expect(refused.some((query) => query.has('cursor'))).toBe(true);
    expect(refused.some((query) => !query.has('cursor') && query.get('q')!.trim() === '')).toBe(true);
  });

  it('the generator itself keeps the rules it claims: no cursor out of thin air, never cursor with offset, oEmbed with url or id', () => {
    // checked on the generator's own output so a weaker generator cannot pass the test above vacuously
    return documentOf().then((document) => {
      for (const operation of operationsOf(document)) {
        for (const request of fc.sample(requestArbitrary(operation), { numRuns: 50, seed: SEED })) {
          expect(request.query['cursor'], request.target).toBeUndefined();
          if (operation.template === '/oembed') expect(request.query['url'] !== undefined || request.query['id'] !== undefined, request.target).toBe(true);
          for (const p of operation.parameters.filter((q) => q['required'])) {
            expect(p['in'] === 'path' ? request.path[p['name']] : request.query[p['name']], `${request.target} ${p['name']}`).toBeDefined();
          }
        }
      }
    });
  });
});



describe('the examples of /openapi.json on the demo catalogue', () => {
  it('are requests that answer 200 here, and each answer is the example shown', async () => {
    const document = await documentOf();
    const bearer = `Bearer ${await developerKey()}`;
    for (const operation of operationsOf(document)) {
      // examples are written for the default origin (http://localhost:4321); this server has its own
      const request = /Example \(demo catalogue\): `GET ([^`]+)`/.exec(operation.get['description'])?.[1]
        ?.replaceAll(encodeURIComponent('http://localhost:4321'), encodeURIComponent(fx.base));
      expect(request, operation.template).toBeDefined();
      const keyed = (operation.get['security'] as Json[]).some((s) => 'bearerAuth' in s);
      const res = await (keyed ? withKey() : api).send(request!, { headers: keyed ? { authorization: bearer } : {} });
      expect(res.status, request).toBe(200);
      // the same catalogue: an answer that holds no live state or caller's data is the example itself, on this origin
      if (!['listLive', 'status', 'health', 'partner', 'discovery', 'listChannels', 'getChannel', 'search'].includes(operation.operationId)) {
        const example = JSON.stringify(operation.get['responses']['200']['content']['application/json']['example']).replaceAll('http://localhost:4321', fx.base);
        expect(JSON.parse(decoded(res).toString('utf8')), request).toEqual(JSON.parse(example));
      }
    }
  });
});

describe('/docs on the demo catalogue', () => {
  const unescape = (text: string) => text.replace(/&amp;/g, '&').replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>');

  it('shows, for every operation, an example request that answers 200 here, as curl and as an SDK call that works', async () => {
    const html = decoded(await api.send('/docs')).toString('utf8');
    const requests = [...html.matchAll(/<a href="([^"]+)" data-example-request/g)].map((m) => unescape(m[1]!));
    const document = await documentOf();
    expect(requests).toHaveLength(operationsOf(document).length);
    const authorization = `Bearer ${await developerKey()}`;
    const sdk = createSdkClient({ baseUrl: fx.base, apiKey: await developerKey() });
    for (const request of requests) {
      const keyed = request.startsWith('/v1/partner');
      const res = await (keyed ? withKey() : api).send(request, { headers: keyed ? { authorization } : {} });
      expect(res.status, request).toBe(200);
      // curl against the serving origin, and the SDK call of the same request, which answers too
      expect(html, request).toContain(`curl -s${request.startsWith('/v1/partner') ? " -H 'Authorization: Bearer YOUR_KEY'" : ''} '${fx.base}${request}'`.replace(/&/g, '&amp;').replace(/'/g, '&#39;'));
      const endpoint = matchRoute(new URL(request, fx.base).pathname)!.endpoint;
      const call = sdkCallOf(endpoint, request);
      expect(html, request).toContain(`client.${call.method}(`);
      const method = sdk[call.method] as (...args: unknown[]) => PromiseLike<unknown>;
      await expect(Promise.resolve(method(...call.args)), `${call.method}(${JSON.stringify(call.args)})`).resolves.toBeDefined();
    }
    // the samples are written for this deployment's origin, not a hard-coded one
    expect(html).not.toContain('localhost:4321');
  });
});
