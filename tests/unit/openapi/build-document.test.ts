// The generated API description: a valid OpenAPI 3.1.1 document (an independent validator), clean
// under Redocly's recommended lint rules, carrying every path of docs/api-contract.md §10 with its parameters'
// types, bounds, enums and defaults, the problem responses and headers the server sends, bearer
// security on /v1/partner, and examples from the demo catalogue that fit their schemas.
import { validate } from '@readme/openapi-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../../src/api/routes.ts';
import { buildOpenApiDocument, type OpenApiDocument } from '../../../src/openapi/build-document.ts';

type Json = Record<string, any>;

/** docs/api-contract.md §10, every path. */
const SPEC_PATHS = [
  '/v1/videos', '/v1/videos/batch', '/v1/videos/{id}', '/v1/videos/{id}/playback', '/v1/videos/{id}/related',
  '/v1/videos/{id}/comments', '/v1/channels', '/v1/channels/{username}', '/v1/channels/{username}/videos',
  '/v1/channels/{username}/playlists', '/v1/playlists/{id}', '/v1/playlists/{id}/videos', '/v1/discovery',
  '/v1/categories', '/v1/search', '/v1/live', '/v1/status', '/v1/health', '/sdk.js', '/oembed', '/v1/partner',
];

let document: OpenApiDocument;
beforeAll(() => { document = buildOpenApiDocument(); });

const operation = (path: string) => document.paths[path]!['get'] as Json;
const parameter = (path: string, name: string) => [...((document.paths[path]!['parameters'] ?? []) as Json[]), ...(operation(path)['parameters'] as Json[])]
  .find((p) => p['name'] === name)!;
const resolve = (node: Json): Json => (typeof node['$ref'] === 'string' ? (node['$ref'] as string).slice(2).split('/').reduce<Json>((at, k) => at[k], document) : node);

describe('the generated API description', () => {
  it('is OpenAPI 3.1.1, version 1.5.2, and valid for an independent validator', async () => {
    expect(document['openapi']).toBe('3.1.1');
    expect((document['info'] as Json)['version']).toBe('1.5.2');
    const result = await validate(structuredClone(document) as Parameters<typeof validate>[0]);
    expect(result.valid ? [] : result.errors).toEqual([]);
  });

  it('has no error and no warning under Redocly\'s recommended rules', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config });
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
  });

  it('describes every path of docs/api-contract.md §10 and every route the server has, with GET and HEAD', () => {
    const paths = Object.keys(document.paths);
    for (const path of SPEC_PATHS) expect(paths, path).toContain(path);
    for (const endpoint of ENDPOINTS) expect(paths).toContain(endpoint.path.replace(/:(\w+)/g, '{$1}'));
    for (const [path, item] of Object.entries(document.paths)) expect(Object.keys(item).filter((k) => k !== 'parameters').sort(), path).toEqual(['get', 'head']);
  });

  it('gives each query parameter its type, bounds, enum and default, from the code\'s own schemas', () => {
    expect(parameter('/v1/videos', 'limit')).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 50, default: 20 } });
    expect(parameter('/v1/videos', 'sort')['schema']).toEqual({ type: 'string', enum: ['latest', 'trending', 'views', 'likes'], default: 'latest' });
    expect(parameter('/v1/videos', 'duration')['schema']['enum']).toEqual(['short', 'medium', 'long']);
    expect(parameter('/v1/videos', 'feature')['schema']['enum']).toEqual(['3d', 'calm', 'restricted', 'captions']);
    expect(parameter('/v1/channels', 'sort')['schema']).toMatchObject({ enum: ['subscribers', 'views', 'videos'], default: 'subscribers' });
    expect(parameter('/v1/search', 'q')).toMatchObject({ required: true, schema: { type: 'string' } });
    expect(parameter('/v1/search', 'type')['schema']).toMatchObject({ enum: ['videos', 'channels', 'playlists', 'all'], default: 'videos' });
    expect(parameter('/v1/live', 'state')['schema']).toMatchObject({ enum: ['live', 'all'], default: 'live' });
    expect(parameter('/v1/videos/batch', 'ids')).toMatchObject({ required: true });
    expect(parameter('/oembed', 'maxwidth')['schema']).toEqual({ type: 'integer', minimum: 200, maximum: 1920, default: 640 });
    expect(parameter('/oembed', 'format')['schema']).toMatchObject({ enum: ['json', 'xml'] });
    expect(parameter('/v1/videos/{id}', 'id')).toMatchObject({ in: 'path', required: true });
    for (const [path, item] of Object.entries(document.paths)) {
      for (const p of [...((item['parameters'] ?? []) as Json[]), ...(((item['get'] as Json)['parameters'] ?? []) as Json[])]) {
        expect(typeof p['description'], `${path} ${p['name']} has a description`).toBe('string');
        expect(p['schema']['type'], `${path} ${p['name']} has a type`).toBeDefined();
      }
    }
  });

  it('says what the server refuses, so a request valid by the description is never refused (docs/decisions.md)', () => {
    // q: trimmed then 1–200 characters: described as 1–200 characters with one that is not a space
    for (const path of ['/v1/search', '/v1/videos', '/v1/channels']) {
      expect(parameter(path, 'q')['schema'], path).toMatchObject({ type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' });
    }
    // ids: a comma-separated (form) array of 1 to 50 catalogue keys
    expect(parameter('/v1/videos/batch', 'ids')).toMatchObject({ style: 'form', explode: false, schema: { type: 'array', minItems: 1, maxItems: 50, items: { type: 'string' } } });
    // offset has no default: a client filling defaults would send it with every cursor, which is refused
    expect(parameter('/v1/videos', 'offset')['schema']).not.toHaveProperty('default');
    expect(operation('/v1/videos')['x-exclusive-parameters']).toEqual([['cursor', 'offset']]);
    // cursors: opaque, with their pattern, a real example, and the `next` link that gives them
    const cursor = parameter('/v1/videos', 'cursor');
    expect(new RegExp(cursor['schema']['pattern']).test(cursor['example'])).toBe(true);
    expect(cursor['description']).toMatch(/opaque/);
    expect(operation('/v1/videos')['responses']['200']['links']['next']).toMatchObject({ operationId: 'listVideos', parameters: { 'query.cursor': '$response.body#/paging/nextCursor', 'query.sort': '$request.query.sort' } });
    expect(operation('/v1/videos')['responses']['200']['links']['next']['parameters']).not.toHaveProperty('query.offset');
    expect(operation('/v1/channels/{username}/videos')['responses']['200']['links']['next']['parameters']).toMatchObject({ 'path.username': '$request.path.username' });
    // oEmbed: url or id, said in the operation, the 400 and x-required-one-of
    expect(operation('/oembed')['x-required-one-of']).toEqual([['url', 'id']]);
    expect(operation('/oembed')['description']).toMatch(/One of `url` and `id` is required/);
    expect(resolve(operation('/oembed')['responses']['400'])['description']).toMatch(/neither `url` nor `id`/);
    expect(Object.keys(operation('/oembed')['responses'])).toEqual(expect.arrayContaining(['400', '404', '501']));
    // path keys are catalogue keys, never a word of another route at the same place
    const id = new RegExp(parameter('/v1/videos/{id}', 'id')['schema']['pattern'], 'u');
    expect(['abc', 'G8qq5b96PuD', 'a.b'].map((v) => id.test(v))).toEqual([true, true, true]);
    expect(['batch', '.', '..', 'a/b', ''].map((v) => id.test(v))).toEqual([false, false, false, false, false]);
    expect(new RegExp(parameter('/v1/playlists/{id}', 'id')['schema']['pattern']).test('batch')).toBe(true);
    expect(parameter('/v1/channels/{username}', 'username')['description']).toBe("A channel's username.");
  });

  it('shows real refusals of the code as problem examples', () => {
    const problems = document.components['responses'] as Json;
    expect(problems['BadRequest']['content']['application/problem+json']['example']).toMatchObject({ status: 400, instance: '/v1/videos?limit=500', errors: [{ parameter: 'limit', detail: 'must be an integer from 1 to 50' }] });
    expect(problems['TooManyRequests']['content']['application/problem+json']['example']['detail']).toMatch(/^The public lane allows 600 requests per 60 s/);
    expect(problems['NotImplemented']['content']['application/problem+json']['example']['instance']).toMatch(/^\/oembed\?id=[^&]+&format=xml$/);
  });

  it('documents the problems, 304 and rate-limit headers of every API operation, and bearer security on /v1/partner', () => {
    for (const endpoint of ENDPOINTS) {
      const path = endpoint.path.replace(/:(\w+)/g, '{$1}');
      const responses = operation(path)['responses'] as Json;
      expect(Object.keys(responses), path).toEqual(expect.arrayContaining(['200', '304', '429', '503']));
      expect(Object.keys(resolve(responses['200'])['headers']), path).toEqual(expect.arrayContaining(['ETag', 'Cache-Control', 'RateLimit-Policy', 'RateLimit']));
      expect(Object.keys(resolve(responses['429'])['headers']), path).toEqual(expect.arrayContaining(['Retry-After', 'RateLimit-Policy', 'RateLimit']));
      expect(resolve(responses['429'])['content']['application/problem+json']['schema']).toEqual({ $ref: '#/components/schemas/Problem' });
      if (Object.keys(endpoint.query.shape).length > 0) expect(responses, `${path} 400`).toHaveProperty('400');
      if (endpoint.path.includes(':')) expect(responses, `${path} 404`).toHaveProperty('404');
    }
    expect(operation('/oembed')['responses']).toHaveProperty('501');
    expect(operation('/v1/partner')['security']).toEqual([{ bearerAuth: [] }]);
    expect((document.components['securitySchemes'] as Json)['bearerAuth']).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(Object.keys(resolve(operation('/v1/partner')['responses']['401'])['headers'])).toContain('WWW-Authenticate');
    expect(operation('/v1/videos')['security']).toEqual([{}]);
  });

  it('carries an example from the demo catalogue for every JSON answer, each valid against its schema', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    for (const [id, schema] of Object.entries(document.components['schemas'] as Json)) ajv.addSchema(schema, `#/components/schemas/${id}`);
    for (const endpoint of ENDPOINTS) {
      const path = endpoint.path.replace(/:(\w+)/g, '{$1}');
      const media = operation(path)['responses']['200']['content']['application/json'] as Json;
      expect(media['example'], `${path} has an example`).toBeDefined();
      const check = ajv.compile({ $ref: media['schema']['$ref'] });
      expect(check(media['example']) ? [] : check.errors, path).toEqual([]);
    }
    const list = operation('/v1/videos')['responses']['200']['content']['application/json']['example'] as Json;
    expect(list['data']).toHaveLength(2);
    expect(list['data'][0]['watchUrl']).toMatch(/^http:\/\/localhost:4321\/watch\//);
    // the demo catalogue npm start seeds: as many videos as DEFAULT_SEED_OPTIONS asks
    expect(list['paging']['total']).toBeGreaterThan(2000);
  });

  it('spells tuples so that validators without prefixItems still accept real answers (the discovery shelves)', () => {
    const shelves = ((document.components['schemas'] as Json)['Discovery']['properties']['shelves']) as Json;
    expect(shelves['prefixItems']).toHaveLength(5);
    expect(shelves['items']).toEqual({ anyOf: shelves['prefixItems'] });
    expect([shelves['minItems'], shelves['maxItems']]).toEqual([5, 5]);
    expect(JSON.stringify(document)).not.toContain('"items":false');
  });

  it('is the same document on every build', () => {
    const again = JSON.stringify(buildOpenApiDocument(), null, 1).split('\n');
    const first = JSON.stringify(document, null, 1).split('\n');
    expect(again.filter((line, i) => line !== first[i]).slice(0, 5)).toEqual([]);
  });
});
