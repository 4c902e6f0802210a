// The published API description (OpenAPI 3.1.1, version 1.5.2), generated from the code: paths
// from the route table (src/api/routes.ts), parameters from each endpoint's zod query schema,
// bodies from the zod response schemas (z.toJSONSchema, draft 2020-12, which OpenAPI 3.1 uses),
// problems from the problem catalogue, headers from what the server sends, and examples from the
// demo catalogue (examples.ts). Nothing here is written by hand that the code also says.
import { z } from 'zod';
import type { Endpoint } from '../api/endpoint.ts';
import { PROBLEMS, type ProblemSlug } from '../api/problems.ts';
import { CACHE_CONTROL } from '../api/respond.ts';
import { ENDPOINTS } from '../api/routes.ts';
import { API_VERSION } from '../api/version.ts';
import { SITE_NAME } from '../lib/site.ts';
import { KEY_PATTERN } from '../catalogue/records.ts';
import { DEFAULT_LIMIT, MAX_LIMIT, type QueryRules } from '../api/params.ts';
import { demoAnswers, demoModel, demoProblems, type DemoAnswer } from './examples.ts';

type Json = Record<string, unknown>;

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });
const JSON_TYPE = 'application/json';
const PROBLEM_TYPE = 'application/problem+json';
const JS_TYPE = 'text/javascript';

const TAGS: readonly { name: string; description: string }[] = [
  { name: 'Videos', description: 'Public videos: lists with filters and sorts, single videos, playback capabilities, related videos and comments.' },
  { name: 'Channels', description: 'Public channels, their videos and playlists.' },
  { name: 'Playlists', description: 'Public and unlisted playlists and their videos.' },
  { name: 'Discovery', description: 'The discovery shelves and the categories.' },
  { name: 'Search', description: 'Typo-tolerant, prefix-aware search over videos, channels and playlists.' },
  { name: 'Live', description: 'Live channels, as of the request.' },
  { name: 'Service', description: 'Health and status of the service.' },
  { name: 'Partner', description: 'Statistics for developer apps, with a developer key.' },
  { name: 'Embeds', description: 'oEmbed and the browser SDK.' },
];

/** Response headers the server sends, by the name components refer to. */
const HEADERS: Readonly<Record<string, Json>> = {
  ETag: { description: 'Strong validator of this representation (each content encoding has its own); send it back as `If-None-Match` for a 304.', required: true, schema: { type: 'string', pattern: '^"[^"]+"$' } },
  CacheControl: { description: 'How long caches may keep the answer: a day at CDNs for prerendered snapshot pages (purged when they change), 5 minutes for other snapshot answers, a few seconds for live ones, `private, no-store` for partner statistics.', required: true, schema: { type: 'string' } },
  Vary: { description: '`Accept-Encoding` when the answer is compressible (br and gzip are honoured).', schema: { type: 'string' } },
  Link: { description: 'RFC 8288 link to the next page: `<url>; rel="next"`, when there is one.', schema: { type: 'string', pattern: '^<[^>]+>; rel="next"$' } },
  XRobotsTag: { description: '`noindex` on unlisted resources.', schema: { type: 'string', enum: ['noindex'] } },
  AccessControlAllowOrigin: { description: 'CORS: every origin may read every answer.', required: true, schema: { type: 'string', enum: ['*'] } },
  RateLimitPolicy: { description: 'The rate-limit lane of the request and its budget, in the IETF httpapi syntax: `"public";q=600;w=60` (lanes `public`, `site`, `key`; `q` requests per `w` seconds). On every API answer of the origin; an answer a CDN or nginx serves from its copy of the snapshot has none, as it counts against no lane.', schema: { type: 'string', pattern: '^"(public|site|key)";q=\\d+;w=\\d+$' } },
  RateLimit: { description: 'What is left of the lane\'s budget: `"public";r=598;t=42` (`r` requests remaining, `t` seconds until the window resets). On every API answer of the origin, as `RateLimit-Policy`.', schema: { type: 'string', pattern: '^"(public|site|key)";r=\\d+;t=\\d+$' } },
  RetryAfter: { description: 'Seconds to wait before retrying.', required: true, schema: { type: 'integer', minimum: 0 } },
  WWWAuthenticate: { description: 'The bearer challenge (RFC 6750): `Bearer realm="api"`, with `error="invalid_token"` for an unknown or revoked key.', required: true, schema: { type: 'string', pattern: '^Bearer realm="api"' } },
};

const headerRefs = (...names: string[]) => Object.fromEntries(names.map((name) => [headerName(name), ref('headers', name)]));
/** `RateLimitPolicy` → `RateLimit-Policy`, `WWWAuthenticate` → `WWW-Authenticate`... */
function headerName(component: string): string {
  const names: Record<string, string> = {
    ETag: 'ETag', CacheControl: 'Cache-Control', Vary: 'Vary', Link: 'Link', XRobotsTag: 'X-Robots-Tag',
    AccessControlAllowOrigin: 'Access-Control-Allow-Origin', RateLimitPolicy: 'RateLimit-Policy', RateLimit: 'RateLimit',
    RetryAfter: 'Retry-After', WWWAuthenticate: 'WWW-Authenticate',
  };
  return names[component]!;
}

/**
 * Reusable problem responses, one per problem type an operation may answer. Examples are the real
 * refusals of the code (examples.ts demoProblems); those no request can earn on a demo (no snapshot,
 * a failure) say what the server says then.
 */
const PROBLEM_RESPONSES: Readonly<Record<string, { slug: ProblemSlug; headers: string[]; detail?: string; about?: string }>> = {
  BadRequest: {
    slug: 'invalid-parameter', headers: ['AccessControlAllowOrigin', 'RateLimitPolicy', 'RateLimit'],
    about: ' Also: neither `url` nor `id` on `/oembed`, or both naming different videos; `cursor` with `offset`; a `cursor` this service did not issue for the same query. `errors` names each parameter.',
  },
  Unauthorized: { slug: 'api-key-required', headers: ['AccessControlAllowOrigin', 'WWWAuthenticate', 'RateLimitPolicy', 'RateLimit'] },
  NotFound: { slug: 'not-found', headers: ['AccessControlAllowOrigin', 'RateLimitPolicy', 'RateLimit'] },
  TooManyRequests: { slug: 'rate-limited', headers: ['AccessControlAllowOrigin', 'RetryAfter', 'RateLimitPolicy', 'RateLimit'] },
  NotImplemented: { slug: 'not-implemented', headers: ['AccessControlAllowOrigin', 'RateLimitPolicy', 'RateLimit'] },
  ServiceUnavailable: { slug: 'service-unavailable', headers: ['AccessControlAllowOrigin', 'RetryAfter', 'RateLimitPolicy', 'RateLimit'], detail: 'No catalogue snapshot is loaded yet: build one with npm run build.' },
  InternalError: { slug: 'internal-error', headers: ['AccessControlAllowOrigin'], detail: 'The service failed to answer this request.' },
};
const RESPONSE_FOR: Partial<Record<ProblemSlug, string>> = {
  'invalid-parameter': 'BadRequest', 'api-key-required': 'Unauthorized', 'invalid-api-key': 'Unauthorized', 'not-found': 'NotFound',
  'rate-limited': 'TooManyRequests', 'not-implemented': 'NotImplemented', 'service-unavailable': 'ServiceUnavailable',
};

/**
 * Tuples (`prefixItems` with `items: false`, as z.tuple gives) with `items` as any of the tuple's
 * schemas instead: the same meaning under JSON Schema 2020-12 (`maxItems` forbids extra items),
 * and still right for validators that predate `prefixItems` and would read `items: false` as
 * "no item at all" (Prism's does).
 */
function portableTuples(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(portableTuples);
  if (typeof node !== 'object' || node === null) return node;
  const out: Json = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, portableTuples(value)]));
  if (Array.isArray(out['prefixItems']) && out['items'] === false) out['items'] = { anyOf: out['prefixItems'] };
  return out;
}

/** The component schemas: every response schema with a `meta({ id })`, referring to each other. */
function componentSchemas(): Record<string, Json> {
  const { schemas } = z.toJSONSchema(z.globalRegistry, { target: 'draft-2020-12', io: 'output', unrepresentable: 'throw', uri: (id) => `#/components/schemas/${id}` });
  const out: Record<string, Json> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    const { $schema: _dialect, $id: _id, ...rest } = schema as Json;
    out[id] = portableTuples(rest) as Json;
  }
  return out;
}

/** A value as sent (a string) in its described type: `2` for an integer, `[a, b]` for a form array. */
const wireValue = (schema: Json, text: string): unknown => (schema['type'] === 'integer' ? Number(text) : schema['type'] === 'array' ? text.split(',') : text);

/**
 * The query parameters of an endpoint, from its zod schema (input side: what clients send). An
 * array is comma-separated (`style: form, explode: false`). Examples are the demo request's values
 * (a cursor's: the demo answer's `nextCursor`).
 */
function queryParameters(endpoint: Endpoint<any>, example: DemoAnswer | undefined): Json[] {
  const shape = endpoint.query.shape as Record<string, z.ZodType>;
  const { properties = {}, required = [] } = z.toJSONSchema(endpoint.query, { target: 'draft-2020-12', io: 'input', unrepresentable: 'throw' }) as { properties?: Record<string, Json>; required?: string[] };
  const sampleQuery = new URL(example?.request ?? '/', 'http://example.invalid').searchParams;
  return Object.entries(properties).map(([name, raw]) => {
    const { description, 'x-default': fallback, ...schema } = raw;
    const meta = shape[name]?.meta() as Json | undefined;
    const defaultValue = fallback ?? meta?.['x-default'];
    const nextCursor = (example?.body as { paging?: { nextCursor?: unknown } } | undefined)?.paging?.nextCursor;
    return {
      name,
      in: 'query',
      required: required.includes(name),
      description: description ?? meta?.['description'],
      ...(schema['type'] === 'array' && { style: 'form', explode: false }),
      schema: { ...schema, ...(defaultValue !== undefined && { default: defaultValue }) },
      ...(name === 'cursor' && typeof nextCursor === 'string' && { example: nextCursor }),
      ...(sampleQuery.has(name) && { example: wireValue(schema, sampleQuery.get(name)!) }),
    };
  });
}

const pathTemplate = (path: string) => path.replace(/:(\w+)/g, '{$1}');

/**
 * The path keys of an endpoint: catalogue keys (docs/catalogue.md "Ids"), never a literal word
 * another route has at the same place (`batch` in `/v1/videos/batch`), named after the collection
 * before them (`/v1/playlists/{id}`: a playlist's id). Examples are the demo request's values.
 */
function pathParameters(endpoint: Endpoint<any>, example: DemoAnswer | undefined): Json[] {
  const segments = endpoint.path.split('/');
  const actual = example ? new URL(example.request, 'http://example.invalid').pathname.split('/') : [];
  return segments.flatMap((segment, i) => {
    if (!segment.startsWith(':')) return [];
    const name = segment.slice(1);
    const prefix = segments.slice(0, i).join('/');
    const reserved = [...new Set(ENDPOINTS.map((e) => e.path.split('/')).filter((other) => other.slice(0, i).join('/') === prefix && other[i] !== undefined && !other[i]!.startsWith(':')).map((other) => other[i]!))];
    const exclude = reserved.length > 0 ? `(?!(?:${reserved.join('|')})$)` : '';
    const pattern = KEY_PATTERN.source.replace(/^\^/, `^${exclude}`);
    const collection = segments[i - 1]!.replace(/s$/, '');
    return [{
      name,
      in: 'path',
      required: true,
      description: `A ${collection}'s ${name}.`,
      schema: { type: 'string', pattern },
      ...(actual[i] && { example: decodeURIComponent(actual[i]!) }),
    }];
  });
}

/** What a query requires as a whole (x-exclusive-parameters, x-required-one-of), from its schema's metadata. */
const queryRules = (endpoint: Endpoint<any>): QueryRules => {
  const meta = (endpoint.query.meta() ?? {}) as QueryRules;
  return Object.fromEntries(Object.entries(meta).filter(([key]) => key.startsWith('x-'))) as QueryRules;
};

/** The problem types an endpoint can answer, from its shape and its docs. */
function problemsOf(endpoint: Endpoint<any>): ProblemSlug[] {
  const slugs = new Set<ProblemSlug>(endpoint.docs.problems ?? []);
  if (Object.keys(endpoint.query.shape).length > 0) slugs.add('invalid-parameter');
  if (endpoint.path.includes(':')) slugs.add('not-found');
  slugs.add('rate-limited');
  slugs.add('service-unavailable');
  return [...slugs];
}

function successHeaders(endpoint: Endpoint<any>): string[] {
  const names = ['ETag', 'CacheControl', 'Vary', 'AccessControlAllowOrigin', 'RateLimitPolicy', 'RateLimit'];
  if ('cursor' in endpoint.query.shape) names.push('Link');
  if (endpoint.docs.mayBeUnlisted) names.push('XRobotsTag');
  return names;
}

/**
 * Where a page's `nextCursor` goes: the `next` link of a list's 200, to the same operation with the
 * same parameters and `cursor` (never `offset`), as OpenAPI links say for generators and clients.
 */
function nextLink(endpoint: Endpoint<any>, operationId: string): Json | undefined {
  if (!('cursor' in endpoint.query.shape)) return undefined;
  const exclusive = (queryRules(endpoint)['x-exclusive-parameters'] ?? []).filter((group) => group.includes('cursor')).flat();
  const kept = Object.keys(endpoint.query.shape).filter((name) => !exclusive.includes(name));
  const pathKeys = [...endpoint.path.matchAll(/:(\w+)/g)].map(([, name]) => name!);
  return {
    next: {
      operationId,
      description: 'The next page: the same request with `cursor` set to `paging.nextCursor` (when it is not null).',
      parameters: {
        ...Object.fromEntries(pathKeys.map((name) => [`path.${name}`, `$request.path.${name}`])),
        ...Object.fromEntries(kept.map((name) => [`query.${name}`, `$request.query.${name}`])),
        'query.cursor': '$response.body#/paging/nextCursor',
      },
    },
  };
}

/** `list-videos` → `listVideos`. */
export const operationIdOf = (endpoint: Endpoint<any>): string => endpoint.name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

function operations(endpoint: Endpoint<any>, example: DemoAnswer | undefined, schemaName: string): Json {
  const operationId = operationIdOf(endpoint);
  const problems = problemsOf(endpoint);
  const cache = endpoint.cache === 'snapshot'
    ? `\`Cache-Control: ${CACHE_CONTROL.snapshot}\` for prerendered pages (each rebuild lists those that changed, for CDN purges), \`${CACHE_CONTROL.unlisted}\` for answers computed on demand`
    : `\`Cache-Control: ${CACHE_CONTROL[endpoint.cache]}\``;
  const responses = (withBody: boolean): Json => {
    const out: Json = {
      200: {
        description: `${endpoint.docs.summary}. ${cache}.`,
        headers: headerRefs(...successHeaders(endpoint)),
        ...(withBody && { content: { [JSON_TYPE]: { schema: ref('schemas', schemaName), ...(example && { example: example.body }) } } }),
        ...(withBody && nextLink(endpoint, operationId) && { links: nextLink(endpoint, operationId) }),
      },
      304: ref('responses', 'NotModified'),
    };
    for (const slug of problems) {
      const name = RESPONSE_FOR[slug]!;
      out[PROBLEMS[slug].status] = withBody ? ref('responses', name) : { ...problemResponse(name, false) };
    }
    if (endpoint.docs.ownShapeWhenUnavailable) {
      out[503] = {
        description: 'No catalogue snapshot is loaded: the same shape, saying so. Retry after `Retry-After` seconds.',
        headers: headerRefs('AccessControlAllowOrigin', 'RetryAfter', 'RateLimitPolicy', 'RateLimit'),
        ...(withBody && { content: { [JSON_TYPE]: { schema: ref('schemas', schemaName) } } }),
      };
    }
    out['default'] = withBody ? ref('responses', 'InternalError') : problemResponse('InternalError', false);
    return out;
  };
  const security = problems.includes('api-key-required') ? [{ bearerAuth: [] }] : [{}];
  const common = { tags: [endpoint.docs.tag], parameters: queryParameters(endpoint, example), security, ...queryRules(endpoint) };
  const path = pathParameters(endpoint, example);
  return {
    ...(path.length > 0 && { parameters: path }),
    get: {
      operationId, summary: endpoint.docs.summary,
      description: endpoint.docs.description + (example ? `\n\nExample (demo catalogue): \`GET ${example.request}\`.` : ''),
      ...common, responses: responses(true),
    },
    head: { operationId: `${operationId}Head`, summary: `${endpoint.docs.summary} (headers only)`, description: 'As GET, without the body.', ...common, responses: responses(false) },
  };
}

/** Problem examples: the code's own refusals, on the demo catalogue (set by buildOpenApiDocument). */
let problemExamples: ReadonlyMap<ProblemSlug, DemoAnswer> = new Map();

function problemResponse(name: string, withBody: boolean): Json {
  const { slug, headers, detail, about = '' } = PROBLEM_RESPONSES[name]!;
  const problem = PROBLEMS[slug];
  const example = problemExamples.get(slug)?.body ?? {
    type: `${demoModel().urls.base}/problems/${slug}`, title: problem.title, status: problem.status, detail, instance: '/v1/videos',
  };
  return {
    description: `${problem.title}: ${problem.description}${about}`,
    headers: headerRefs(...headers),
    ...(withBody && { content: { [PROBLEM_TYPE]: { schema: ref('schemas', 'Problem'), example } } }),
  };
}

/** A static file of the app (the SDK, this description). */
function staticFile(operationId: string, summary: string, description: string, type: string, schema: Json = { type: 'string' }): Json {
  const ok = (withBody: boolean) => ({
    200: {
      description: `${summary}. \`Cache-Control: ${CACHE_CONTROL.snapshot}\`.`,
      headers: headerRefs('ETag', 'CacheControl', 'Vary', 'AccessControlAllowOrigin'),
      ...(withBody && { content: { [type]: { schema } } }),
    },
    206: {
      description: 'The byte range asked for with `Range` (of the uncompressed file; with `If-Range`, only while it still names this representation).',
      headers: { ...headerRefs('ETag', 'CacheControl', 'AccessControlAllowOrigin'), 'Content-Range': { description: '`bytes first-last/size`.', required: true, schema: { type: 'string', pattern: '^bytes \\d+-\\d+/\\d+$' } } },
      ...(withBody && { content: { [type]: { schema } } }),
    },
    304: { description: 'Not modified: the `If-None-Match` validator names this representation.', headers: headerRefs('ETag', 'CacheControl', 'AccessControlAllowOrigin') },
    416: {
      description: 'The `Range` asked for lies beyond the end of the file: a `range-not-satisfiable` problem.',
      headers: { ...headerRefs('AccessControlAllowOrigin'), 'Content-Range': { description: '`bytes */size`.', required: true, schema: { type: 'string', pattern: '^bytes \\*/\\d+$' } } },
      ...(withBody && { content: { [PROBLEM_TYPE]: { schema: ref('schemas', 'Problem') } } }),
    },
  });
  return {
    get: { operationId, summary, description, tags: ['Embeds'], security: [{}], responses: ok(true) },
    head: { operationId: `${operationId}Head`, summary: `${summary} (headers only)`, description: 'As GET, without the body.', tags: ['Embeds'], security: [{}], responses: ok(false) },
  };
}

export type OpenApiDocument = Json & { paths: Record<string, Json>; components: Json };

export function buildOpenApiDocument(): OpenApiDocument {
  const schemas = componentSchemas();
  const model = demoModel();
  const answers = demoAnswers(ENDPOINTS, model);
  problemExamples = demoProblems(ENDPOINTS, model);
  const schemaOf = (endpoint: Endpoint<any>) => {
    const id = (z.globalRegistry.get(endpoint.response) as { id?: string } | undefined)?.id;
    if (!id) throw new Error(`The response schema of ${endpoint.name} has no meta({ id }), so it cannot be a component.`);
    return id;
  };

  const paths: Record<string, Json> = {};
  for (const endpoint of ENDPOINTS) {
    const answer = answers.get(endpoint.name);
    const example = answer && answer.status === 200 ? answer : undefined;
    paths[pathTemplate(endpoint.path)] = operations(endpoint, example, schemaOf(endpoint));
  }
  paths['/sdk.js'] = staticFile('getSdk', 'Browser SDK (classic script)', 'The browser SDK as a classic script defining the one global `VideoPlatform`: an API client, `embed()` for the hosted player, and `oembed()`. See the `/docs` page.', JS_TYPE);
  paths['/sdk.mjs'] = staticFile('getSdkModule', 'Browser SDK (ES module)', 'The same SDK as an ES module.', JS_TYPE);
  paths['/openapi.json'] = staticFile('getOpenApi', 'This API description', 'This document: OpenAPI 3.1.1, generated from the code.', JSON_TYPE, { type: 'object', description: 'An OpenAPI 3.1 document.' });
  paths['/openapi.yaml'] = staticFile('getOpenApiYaml', 'This API description in YAML', 'This document in YAML.', 'application/yaml');

  return {
    openapi: '3.1.1',
    info: {
      title: `${SITE_NAME} API`,
      version: API_VERSION,
      license: { name: 'CC0 1.0 (this description)', identifier: 'CC0-1.0' },
      summary: 'A public, read-only API for videos, channels, playlists, comments, live channels, oEmbed and embeds.',
      description: [
        'Every endpoint is read-only (GET and HEAD), answers JSON (`/sdk.js`: JavaScript) and is CORS-enabled for every origin: `Access-Control-Allow-Origin: *` on every answer, and a preflight `OPTIONS` answers 204 allowing GET, HEAD, OPTIONS and the `Authorization` header. Any other method is a 405 problem with `Allow: GET, HEAD, OPTIONS`.',
        `Lists are \`{ data, paging: { limit, offset, total, nextCursor } }\` pages: follow \`nextCursor\` (also sent as a \`Link: rel="next"\` header, and described as each list's \`next\` link), or use \`offset\`, never both (\`x-exclusive-parameters\`). \`limit\` is 1 to ${MAX_LIMIT}, default ${DEFAULT_LIMIT}. Cursors are opaque: only one this service issued, for the same query, is valid.`,
        'Where one parameter needs or excludes another, the operation says so in `x-required-one-of` (at least one of each group must be given) and `x-exclusive-parameters` (at most one of each group).',
        'Errors are RFC 9457 problem details (`application/problem+json`) whose `type` URI documents the problem; 400s list every invalid parameter in `errors`. Unknown query parameters are ignored.',
        'Every 200 has a strong `ETag`; `If-None-Match` gives 304. `Accept-Encoding` br and gzip are honoured.',
        'Rate limits: a public lane per client address, a site lane for the service\'s own web pages, and a lane per developer key; every API answer of the origin carries `RateLimit-Policy` and `RateLimit`, and a 429 carries `Retry-After`.',
        'Only `/v1/partner` needs a developer key, sent as `Authorization: Bearer <key>`.',
      ].join('\n\n'),
    },
    servers: [{ url: '/', description: 'This deployment' }],
    security: [{}],
    tags: TAGS,
    paths,
    components: {
      schemas,
      headers: HEADERS,
      responses: {
        NotModified: { description: 'Not modified: the `If-None-Match` validator names this representation. No body.', headers: headerRefs('ETag', 'CacheControl', 'AccessControlAllowOrigin', 'RateLimitPolicy', 'RateLimit') },
        ...Object.fromEntries(Object.keys(PROBLEM_RESPONSES).map((name) => [name, problemResponse(name, true)])),
      },
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'A developer key (`npm run keys -- create "App name"` on the server), sent as `Authorization: Bearer <key>`.' },
      },
    },
  };
}
