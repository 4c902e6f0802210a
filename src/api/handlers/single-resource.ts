// The shape shared by every single-resource endpoint (`/v1/videos/{id}`, `/v1/channels/{username}`,
// ...): one path key, no query, `{ data: resource }`, or a 404 problem when nothing visible has it.
import type { z } from 'zod';
import { defineEndpoint, type CachePolicy, type Context, type Endpoint, type EndpointDocs } from '../endpoint.ts';
import { NoQuery } from '../params.ts';
import { parseQuery } from '../query.ts';
import { readKey } from './lookup.ts';

interface SingleResource {
  readonly name: string;
  /** with exactly one `:id` or `:username` segment */
  readonly path: string;
  readonly kind: Parameters<typeof readKey>[1];
  readonly response: z.ZodType;
  readonly docs: EndpointDocs;
  /** `snapshot` unless the resource carries live state */
  readonly cache?: CachePolicy;
  /** the resource, whether it is unlisted (not for search engines), or a 404 problem */
  find(context: Context, key: string): { readonly data: unknown; readonly unlisted: boolean };
}

export function defineSingleResource(resource: SingleResource): Endpoint<{ key: string }> {
  const param = /:(\w+)/.exec(resource.path)![0];
  return defineEndpoint({
    name: resource.name,
    path: resource.path,
    query: NoQuery,
    response: resource.response,
    docs: resource.docs,
    cache: resource.cache ?? 'snapshot',
    parse(path, search) {
      const key = readKey(path, resource.kind);
      parseQuery(NoQuery, search);
      return { key };
    },
    canonical: ({ key }) => resource.path.replace(param, encodeURIComponent(key)),
    handle({ key }, context) {
      const { data, unlisted } = resource.find(context, key);
      return { body: { data }, noindex: unlisted };
    },
  });
}
