// The published API description over HTTP: /openapi.json is the document the code generates,
// /openapi.yaml the same in YAML, /docs renders it for people without loading anything from
// elsewhere, and every problem type has its page. Also: the response check every HTTP test runs
// (openapi-check.ts) does catch a response that breaks the description.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startServer } from '../../src/server/start-server.ts';
import { PROBLEMS } from '../../src/api/problems.ts';
import { buildOpenApiDocument } from '../../src/openapi/build-document.ts';
import type { Truth } from './catalogue-truth.ts';
import { createClient, decoded, header, type Client, type RawResponse } from './http-client.ts';
import { useServedCatalogue } from './harness.ts';
import { createDocumentChecker } from './openapi-check.ts';
import type { Fixture } from './server-fixture.ts';

let fx: Fixture;
let api: Client;
let truth: Truth;
useServedCatalogue({ seed: { videos: 120 } }, (h) => ({ fx, api, truth } = h));

const enc = encodeURIComponent;

describe('/openapi.json and /openapi.yaml', () => {
  it('publish the document generated from the code, as JSON and as YAML', async () => {
    const json = await api.send('/openapi.json');
    expect(json.status).toBe(200);
    expect(header(json, 'content-type')).toBe('application/json; charset=utf-8');
    expect(header(json, 'access-control-allow-origin')).toBe('*');
    const document = JSON.parse(decoded(json).toString('utf8')) as Record<string, unknown>;
    expect(document).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
    expect(document['openapi']).toBe('3.1.1');

    const yaml = await api.send('/openapi.yaml');
    expect(yaml.status).toBe(200);
    expect(header(yaml, 'content-type')).toBe('application/yaml; charset=utf-8');
    expect(parse(decoded(yaml).toString('utf8'))).toEqual(document);
    // YAML 1.1 parsers (PyYAML) read the same document: `durationText: 19:07` would be 1147 there
    expect(parse(decoded(yaml).toString('utf8'), { version: '1.1' })).toEqual(document);
  });
});

describe('answers the description documents beyond the usual', () => {
  it('before any snapshot exists: health in its own shape, status, and 503 problems elsewhere', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vpa-empty-'));
    const running = await startServer(loadConfig({ PORT: '0', HOST: '127.0.0.1', PUBLIC_BASE_URL: 'http://127.0.0.1:1', CATALOGUE_DB: join(dir, 'none.db'), DIST_DIR: join(dir, 'dist') }), { log: () => {} });
    try {
      const empty = createClient(`http://127.0.0.1:${running.port}`);
      const health = await empty.send('/v1/health');
      expect([health.status, header(health, 'content-type'), header(health, 'retry-after')]).toEqual([503, 'application/json; charset=utf-8', '5']);
      expect((await empty.send('/v1/status')).status).toBe(200);
      for (const target of ['/v1/videos', '/oembed?id=x', '/v1/search?q=a']) expect((await empty.send(target)).status, target).toBe(503);
      expect((await empty.send('/v1/health', { method: 'HEAD' })).status).toBe(503);
    } finally {
      await running.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('byte ranges of static files: 206, 416, and 200 for a range that is not valid', async () => {
    const whole = await api.send('/sdk.js');
    const part = await api.send('/sdk.js', { headers: { range: 'bytes=0-99' } });
    expect([part.status, part.body.length, header(part, 'content-range')]).toEqual([206, 100, `bytes 0-99/${whole.body.length}`]);
    const beyond = await api.send('/sdk.js', { headers: { range: `bytes=${whole.body.length}-` } });
    expect([beyond.status, header(beyond, 'cache-control')]).toEqual([416, 'no-store']);
    const backwards = await api.send('/sdk.js', { headers: { range: 'bytes=50-10' } });
    expect([backwards.status, backwards.body.length]).toEqual([200, whole.body.length]);
  });
});

describe('the response check of the HTTP tests', () => {
  const checkerFor = async () => createDocumentChecker(JSON.parse(decoded(await api.send('/openapi.json')).toString('utf8')) as Record<string, never>);
  const asChecked = (res: RawResponse, changes: Partial<{ status: number; headers: Record<string, string | undefined>; body: Buffer; method: string }> = {}) => ({
    method: changes.method ?? 'GET', target: res.target, status: changes.status ?? res.status,
    headers: { ...res.headers, ...changes.headers }, body: changes.body ?? decoded(res),
  });

  it('passes real answers and catches an undocumented field, status, content type or header value, or a missing header', async () => {
    const checker = await checkerFor();
    const id = truth.publicVideos[0]!.id;
    const res = await api.send(`/v1/videos/${enc(id)}`);
    const plain = { ...res, headers: { ...res.headers, 'content-encoding': undefined } };
    expect(checker.check(asChecked(plain))).toEqual([]);
    const body = JSON.parse(decoded(res).toString('utf8')) as { data: Record<string, unknown> };
    const withExtra = Buffer.from(JSON.stringify({ data: { ...body.data, secret: 1 } }));
    expect(checker.check(asChecked(plain, { body: withExtra })).join()).toMatch(/additional properties/);
    const { title: _title, ...untitled } = body.data;
    expect(checker.check(asChecked(plain, { body: Buffer.from(JSON.stringify({ data: untitled })) })).join()).toMatch(/required property 'title'/);
    // an undocumented status falls to the `default` response, a problem: a Video body does not fit it
    expect(checker.check(asChecked(plain, { status: 418 })).join()).toMatch(/→ 418: content type application\/json is not documented/);
    expect(checker.check(asChecked(plain, { headers: { 'content-type': 'text/plain' } })).join()).toMatch(/content type text\/plain is not documented/);
    expect(checker.check(asChecked(plain, { headers: { etag: undefined } })).join()).toMatch(/header ETag is missing/);
    expect(checker.check(asChecked(plain, { headers: { ratelimit: 'lots' } })).join()).toMatch(/header RateLimit/);
    expect(checker.check(asChecked(plain, { method: 'HEAD' })).join()).toMatch(/HEAD answered with a body/);
    const unknown = await api.send('/v1/nothing-here');
    expect(checker.check(asChecked(unknown, { status: 200 })).join()).toMatch(/must answer 404/);
  });
});

describe('/docs', () => {
  it('renders every operation and schema of the document with a sidebar of anchors, loading nothing from elsewhere', async () => {
    const res = await api.send('/docs');
    expect(res.status).toBe(200);
    expect(header(res, 'content-type')).toBe('text/html; charset=utf-8');
    const html = decoded(res).toString('utf8');
    const document = buildOpenApiDocument();
    for (const [path, item] of Object.entries(document.paths)) {
      const operationId = (item['get'] as { operationId: string }).operationId;
      expect(html, path).toContain(`id="${operationId}"`);
      expect(html, path).toContain(`<code>${path}</code>`);
      if (path.startsWith('/v1/') || path === '/oembed') expect(html, `${path} in the sidebar`).toContain(`href="#${operationId}"`);
    }
    for (const tag of document['tags'] as { name: string }[]) expect(html, tag.name).toContain(`href="#tag-${tag.name}"`);
    for (const name of Object.keys(document.components['schemas'] as object)) {
      expect(html, name).toContain(`id="schema-${name}"`);
      expect(html, name).toContain(`href="#schema-${name}"`);
    }
    expect(html).toContain('<code>limit</code>');
    expect(html).toMatch(/default <code>20<\/code>/);
    // samples against this deployment's origin, a filter and "try it" (script from this origin only)
    expect(html).toContain(`curl -s &#39;${fx.base}/v1/videos?limit=2&#39;`);
    expect(html).toContain('VideoPlatform.createClient()');
    expect(html).toContain('id="docs-filter"');
    expect(html).toContain('class="try"');
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((tag) => /src="(https?:)?\/\//.test(tag))).toEqual([]);
    // offline: no script, stylesheet or image from another origin (samples' text may name this one)
    expect([...html.matchAll(/(?:src|href)="(https?:)?\/\/[^"]*"/g)].map((m) => m[0]).filter((a) => !a.includes(fx.base))).toEqual([]);
  });

  it('has a page for every problem type, at its type URI', async () => {
    for (const slug of Object.keys(PROBLEMS)) {
      const res = await api.send(`/problems/${slug}`);
      expect(res.status, slug).toBe(200);
      expect(decoded(res).toString('utf8'), slug).toContain(PROBLEMS[slug as keyof typeof PROBLEMS].title);
    }
  });
});
