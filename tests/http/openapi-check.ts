// Checks a response against the published API description (/openapi.json of the server under
// test): the operation's documented statuses, its content type, its body against the schema (Ajv,
// JSON Schema 2020-12 with formats), and its documented headers. The HTTP client runs it on every
// response, so an undocumented field, status or header value fails the test that received it.
// Requests outside the description (HTML pages, media, other methods) are not checked, except that
// any unknown path under /v1/ must answer the Problem schema.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

type Json = Record<string, any>;

export interface CheckedResponse {
  readonly method: string;
  /** path and query as sent */
  readonly target: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** as sent (possibly compressed) */
  readonly body: Buffer;
}

interface Operation {
  readonly template: string;
  readonly pattern: RegExp;
  /** literal segments count: more specific templates win (`/v1/videos/batch` over `/v1/videos/{id}`) */
  readonly literals: number;
  readonly item: Json;
}

export interface DocumentChecker {
  /** every way the response breaks the description; empty when it conforms or is not covered */
  check(response: CheckedResponse): string[];
}

const headerValue = (headers: CheckedResponse['headers'], name: string): string | undefined => {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
};

export function createDocumentChecker(document: Json): DocumentChecker {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  for (const [id, schema] of Object.entries(document['components']['schemas'] as Json)) ajv.addSchema(schema, `#/components/schemas/${id}`);
  const compiled = new Map<object, ValidateFunction>();
  const validatorFor = (schema: Json) => {
    let fn = compiled.get(schema);
    if (!fn) compiled.set(schema, (fn = ajv.compile(schema.$ref ? { $ref: schema.$ref } : schema)));
    return fn;
  };
  const resolve = (node: Json): Json => {
    if (typeof node?.['$ref'] !== 'string') return node;
    return resolve((node['$ref'] as string).slice(2).split('/').reduce<Json>((at, key) => at[key.replace(/~1/g, '/').replace(/~0/g, '~')], document));
  };

  const operations: Operation[] = Object.entries(document['paths'] as Json).map(([template, item]) => ({
    template,
    item,
    literals: template.split('/').filter((s) => s !== '' && !s.startsWith('{')).length,
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`),
  })).sort((a, b) => b.literals - a.literals);
  const problemValidator = validatorFor({ $ref: '#/components/schemas/Problem' });

  function checkHeaders(response: CheckedResponse, documented: Json, where: string): string[] {
    const out: string[] = [];
    for (const [name, raw] of Object.entries(documented)) {
      const spec = resolve(raw);
      const value = headerValue(response.headers, name);
      if (value === undefined) {
        if (spec['required']) out.push(`${where}: documented header ${name} is missing`);
        continue;
      }
      const schema = spec['schema'] as Json;
      const ok = schema['type'] === 'integer'
        ? /^\d+$/.test(value) && Number(value) >= (schema['minimum'] ?? -Infinity)
        : validatorFor(schema)(value);
      if (!ok) out.push(`${where}: header ${name}: ${JSON.stringify(value)} does not match ${JSON.stringify(schema)}`);
    }
    return out;
  }

  function bodyOf(response: CheckedResponse): Buffer {
    const encoding = headerValue(response.headers, 'content-encoding');
    if (encoding === 'br') return brotliDecompressSync(response.body);
    if (encoding === 'gzip') return gunzipSync(response.body);
    return response.body;
  }

  function checkBody(response: CheckedResponse, content: Json | undefined, where: string): string[] {
    if (response.method.toUpperCase() === 'HEAD') return response.body.length > 0 ? [`${where}: HEAD answered with a body`] : [];
    if (!content) return response.body.length > 0 ? [`${where}: a body is sent, the description documents none`] : [];
    const body = bodyOf(response);
    const type = headerValue(response.headers, 'content-type')?.split(';')[0]?.trim();
    if (response.status === 206) return []; // a slice of the documented representation
    const media = type === undefined ? undefined : content[type];
    if (!media) return [`${where}: content type ${type} is not documented (${Object.keys(content).join(', ')})`];
    if (!type!.includes('json')) return typeof media['schema']?.['type'] === 'string' || media['schema']?.['type'] === undefined ? [] : [`${where}: ${type} body`];
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      return [`${where}: the body is not JSON`];
    }
    const validate = validatorFor(media['schema'] as Json);
    if (validate(parsed)) return [];
    return (validate.errors ?? []).slice(0, 5).map((e) => `${where}: body${e.instancePath} ${e.message} ${e.params ? JSON.stringify(e.params) : ''}`);
  }

  return {
    check(response) {
      const method = response.method.toUpperCase();
      // the path as the server reads it: dot segments resolved (WHATWG URL), percent-encoding kept
      const path = new URL(`http://server.invalid${response.target.startsWith('/') ? response.target : `/${response.target}`}`).pathname;
      const where = `${method} ${response.target.slice(0, 200)} → ${response.status}`;
      if (method !== 'GET' && method !== 'HEAD') return [];
      const operation = operations.find((o) => o.pattern.test(path));
      if (!operation) {
        if (!path.startsWith('/v1/')) return [];
        if (response.status !== 404) return [`${where}: an unknown path under /v1/ must answer 404`];
        if (method === 'HEAD') return [];
        const problem: unknown = JSON.parse(bodyOf(response).toString('utf8'));
        return problemValidator(problem) ? [] : [`${where}: the 404 is not a Problem`];
      }
      const op = operation.item[method.toLowerCase()] as Json | undefined;
      if (!op) return [`${where}: ${method} is not documented for ${operation.template}`];
      const responses = op['responses'] as Json;
      const documented = responses[String(response.status)] ?? responses[`${String(response.status)[0]}XX`] ?? responses['default'];
      if (!documented) return [`${where}: status ${response.status} is not documented for ${method} ${operation.template} (${Object.keys(responses).join(', ')})`];
      const spec = resolve(documented);
      return [...checkHeaders(response, spec['headers'] ?? {}, where), ...checkBody(response, spec['content'], where)];
    },
  };
}
