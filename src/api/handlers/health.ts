// GET /v1/health: 200 while a snapshot is loaded, else 503 with the same shape.
import { defineEndpoint } from '../endpoint.ts';
import { NoQuery } from '../params.ts';
import { parseQuery } from '../query.ts';
import { HealthResponse } from '../../model/schemas.ts';
import { API_VERSION } from '../version.ts';

export const health = defineEndpoint<Record<string, never>>({
  name: 'health',
  path: '/v1/health',
  query: NoQuery,
  response: HealthResponse,
  docs: {
    summary: 'Health check',
    description: '200 while a catalogue snapshot is loaded, with the API version and the snapshot; 503 with the same shape while none is.',
    tag: 'Service',
    ownShapeWhenUnavailable: true,
  },
  cache: 'none',
  parse(_path, search) {
    parseQuery(NoQuery, search);
    return {};
  },
  canonical: () => '/v1/health',
  handle: (_params, { snapshot }) => ({
    status: snapshot ? 200 : 503,
    body: { data: { status: snapshot ? 'ok' : 'unavailable', version: API_VERSION, snapshot: snapshot ?? null } },
  }),
});
