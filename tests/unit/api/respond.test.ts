// src/api/respond.ts, with the problem catalogue (src/api/problems.ts) and the route matcher (src/api/routes.ts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineEndpoint, type Context } from '../../../src/api/endpoint.ts';
import { invalidParameters, problemBody, ProblemError, PROBLEMS } from '../../../src/api/problems.ts';
import { JSON_TYPE, PROBLEM_TYPE, readRequest, renderAnswer, renderProblem, runEndpoint, type Memo, type Rendered } from '../../../src/api/respond.ts';
import { ENDPOINTS, matchRoute } from '../../../src/api/routes.ts';
import { serialise } from '../../../src/lib/serialise.ts';
import { createUrls } from '../../../src/model/urls.ts';
import { BASE_URL, catalogueOf, modelOf } from '../support/fixtures.ts';
import { etagOf } from '../../../src/http/etag.ts';

const urls = createUrls(BASE_URL);
const model = modelOf(catalogueOf({}));
const context: Context = { model, snapshot: undefined, liveStreams: () => [] };
afterEach(() => vi.restoreAllMocks());

describe('renderAnswer', () => {
  it('serialises the body as JSON with a strong ETag of its bytes', () => {
    const body = { data: { id: 'x', skipped: undefined } };
    const rendered = renderAnswer({ body }, 'snapshot', urls);
    expect(rendered.status).toBe(200);
    expect(rendered.body.toString()).toBe(JSON.stringify(body));
    expect(rendered.headers['content-type']).toBe(JSON_TYPE);
    expect(rendered.headers['etag']).toBe(etagOf(rendered.body));
    expect(rendered.headers['etag']).toMatch(/^"[A-Za-z0-9_-]+"$/);
  });

  it('gives different bodies different ETags and equal bodies equal ones', () => {
    expect(etagOf(Buffer.from('{"a":1}'))).toBe(etagOf(Buffer.from('{"a":1}')));
    expect(etagOf(Buffer.from('{"a":1}'))).not.toBe(etagOf(Buffer.from('{"a":2}')));
  });

  it('sends the next page as an absolute Link with rel="next"', () => {
    const rendered = renderAnswer({ body: {}, next: '/v1/videos?cursor=abc&limit=20' }, 'snapshot', urls);
    expect(rendered.headers['link']).toBe(`<${BASE_URL}/v1/videos?cursor=abc&limit=20>; rel="next"`);
  });

  it('marks unlisted resources noindex, and only those', () => {
    expect(renderAnswer({ body: {}, noindex: true }, 'snapshot', urls).headers['x-robots-tag']).toBe('noindex');
    expect(renderAnswer({ body: {} }, 'snapshot', urls).headers['x-robots-tag']).toBeUndefined();
  });

  it('lets CDNs cache snapshot answers with s-maxage and stale-while-revalidate', () => {
    const cache = renderAnswer({ body: {} }, 'snapshot', urls).headers['cache-control']!;
    expect(cache).toMatch(/public/);
    expect(cache).toMatch(/s-maxage=\d+/);
    expect(cache).toMatch(/stale-while-revalidate=\d+/);
  });
});

describe('problems', () => {
  it('writes RFC 9457 problem details with a type URI of this deployment', () => {
    const error = invalidParameters([{ parameter: 'limit', detail: 'must be an integer from 1 to 50' }]);
    const body = problemBody(error, '/v1/videos?limit=0', BASE_URL);
    expect(body).toEqual({
      type: `${BASE_URL}/problems/invalid-parameter`,
      title: PROBLEMS['invalid-parameter'].title,
      status: 400,
      detail: error.message,
      instance: '/v1/videos?limit=0',
      errors: [{ parameter: 'limit', detail: 'must be an integer from 1 to 50' }],
    });
  });

  it('leaves errors out of problems that are not about parameters', () => {
    expect('errors' in problemBody(new ProblemError('not-found', 'No video.'), '/v1/videos/x', BASE_URL)).toBe(false);
  });

  it('keeps one title per type and a status matching the slug', () => {
    for (const [slug, problem] of Object.entries(PROBLEMS)) {
      const error = new ProblemError(slug as keyof typeof PROBLEMS, 'one occurrence');
      expect(error.status).toBe(problem.status);
      expect(problemBody(error, '/', BASE_URL).title).toBe(problem.title);
    }
  });

  it('names the one invalid parameter in the detail, or lists them all', () => {
    expect(invalidParameters([{ parameter: 'limit', detail: 'is bad' }]).message).toBe('limit: is bad');
    const many = invalidParameters([{ parameter: 'limit', detail: 'x' }, { parameter: 'sort', detail: 'y' }]).message;
    expect(many).toContain('limit');
    expect(many).toContain('sort');
  });

  it('renders a problem as application/problem+json', () => {
    const rendered = renderProblem(new ProblemError('not-found', 'No video.'), '/v1/videos/x', urls);
    expect(rendered.status).toBe(404);
    expect(rendered.headers['content-type']).toBe(PROBLEM_TYPE);
    expect(JSON.parse(rendered.body.toString())).toMatchObject({ status: 404, detail: 'No video.', instance: '/v1/videos/x' });
  });
});

describe('runEndpoint', () => {
  const failing = (error: unknown) => defineEndpoint<Record<string, never>>({
    name: 'failing', path: '/v1/failing', query: z.object({}), response: z.unknown(), docs: { summary: 'Test', description: 'Test endpoint.', tag: 'Videos' }, cache: 'none',
    parse: () => ({}), canonical: () => '/v1/failing',
    handle: () => { throw error; },
  });

  it('turns a ProblemError into its problem response', () => {
    const rendered = runEndpoint(failing(new ProblemError('not-found', 'Nothing here.')), {}, new URL('http://x.invalid/v1/failing?a=1'), context);
    expect(rendered.status).toBe(404);
    expect(JSON.parse(rendered.body.toString())).toMatchObject({ instance: '/v1/failing?a=1', detail: 'Nothing here.' });
  });

  it('turns anything else into a generic 500 problem that leaks nothing, logged once', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const secret = new Error('SQLITE_ERROR near "SELECT * FROM api_keys" at /srv/app/src/catalogue/read.ts:12');
    const rendered = runEndpoint(failing(secret), {}, new URL('http://x.invalid/v1/failing'), context);
    expect(rendered.status).toBe(500);
    expect(rendered.headers['content-type']).toBe(PROBLEM_TYPE);
    const text = rendered.body.toString();
    for (const leak of ['SQLITE', 'SELECT', 'api_keys', '/srv/app', '.ts', 'at ']) expect(text).not.toContain(leak);
    expect(log).toHaveBeenCalledTimes(1);
  });

  it('renders a successful answer with the same bytes serialise gives', () => {
    const ok = defineEndpoint<Record<string, never>>({
      name: 'ok', path: '/v1/ok', query: z.object({}), response: z.unknown(), docs: { summary: 'Test', description: 'Test endpoint.', tag: 'Videos' }, cache: 'snapshot',
      parse: () => ({}), canonical: () => '/v1/ok', handle: () => ({ body: { data: [1, undefined, { a: undefined }] } }),
    });
    const rendered = runEndpoint(ok, {}, new URL('http://x.invalid/v1/ok'), context);
    expect(rendered.body.toString()).toBe(serialise({ data: [1, undefined, { a: undefined }] }));
  });
});

describe('readRequest, then runEndpoint with what it read (the fast path parses a request once)', () => {
  const route = matchRoute('/v1/videos')!;
  const urlOf = (target: string) => new URL(`http://x.invalid${target}`);

  it('reads the parameters and the canonical URL the endpoint itself gives', () => {
    const url = urlOf('/v1/videos?sort=views&offset=2&limit=3');
    const read = readRequest(route.endpoint, route.params, url)!;
    expect(read.canonical).toBe('/v1/videos?limit=3&offset=2&sort=views');
    expect(read.params).toEqual(route.endpoint.parse(route.params, url.searchParams));
  });

  it('reads nothing from invalid parameters, and runEndpoint then answers their problem', () => {
    const url = urlOf('/v1/videos?limit=999');
    expect(readRequest(route.endpoint, route.params, url)).toBeUndefined();
    const rendered = runEndpoint(route.endpoint, route.params, url, context, undefined, undefined);
    expect(rendered.status).toBe(400);
  });

  it('answers the same bytes without parsing again, and keeps the answer under the canonical URL read', () => {
    const url = urlOf('/v1/videos?sort=likes&limit=5');
    const kept = new Map<string, Rendered>();
    const memo: Memo = { get: (key) => kept.get(key), set: (key, _policy, rendered) => { kept.set(key, rendered); return rendered; } };
    const read = readRequest(route.endpoint, route.params, url)!;
    const parse = vi.spyOn(route.endpoint, 'parse');
    const once = runEndpoint(route.endpoint, route.params, url, context, memo, read);
    expect(parse).not.toHaveBeenCalled();
    parse.mockRestore();
    const again = runEndpoint(route.endpoint, route.params, url, context);
    expect(once.status).toBe(200);
    expect(once.body.equals(again.body)).toBe(true);
    expect(once.headers).toEqual(again.headers);
    expect([...kept.keys()]).toEqual([read.canonical]);
  });
});

const nameOf = (path: string) => matchRoute(path)?.endpoint.name;

describe('matchRoute', () => {
  it('matches every endpoint by its own path', () => {
    for (const endpoint of ENDPOINTS) {
      const path = endpoint.path.replace(/:[a-z]+/g, 'some-id');
      expect(nameOf(path), path).toBe(endpoint.name);
    }
  });

  it('prefers /v1/videos/batch to a video whose id is batch', () => {
    expect(nameOf('/v1/videos/batch')).toBe('batch-videos');
  });

  it('reads the video id from the path, percent-decoded', () => {
    expect(matchRoute('/v1/videos/a%2Db/comments')?.params).toEqual({ id: 'a-b' });
  });

  it('matches nothing for an empty id, a trailing slash, extra segments or a malformed escape', () => {
    for (const path of ['/v1/videos//comments', '/v1/videos/', '/v1/categories/', '/v1/videos/a/b/c', '/v1/videos/%E0%A4%A', '/v2/videos']) {
      expect(matchRoute(path), path).toBeUndefined();
    }
  });
});
