// GET /v1/partner: the calling app's statistics (docs/api-contract.md §2): requests per day (newest first) and
// per endpoint (most used first), its lane and what is left of its quota. Needs a developer key as
// `Authorization: Bearer <key>`: none is a 401 "API key required", an unknown or revoked one a
// 401 with `error="invalid_token"` (RFC 6750).
import type { UsageRow } from '../../catalogue/api-keys.ts';
import { defineEndpoint } from '../endpoint.ts';
import { NoQuery } from '../params.ts';
import { ProblemError } from '../problems.ts';
import { parseQuery } from '../query.ts';
import { PartnerResponse, type PartnerStats } from '../../model/schemas.ts';

const REALM = 'Bearer realm="api"';
const DAYS_SHOWN = 90;

function totals(rows: readonly UsageRow[], key: (r: UsageRow) => string): Map<string, number> {
  const map = new Map<string, number>();
  for (const r of rows) map.set(key(r), (map.get(key(r)) ?? 0) + r.requests);
  return map;
}

export const partner = defineEndpoint<Record<string, never>>({
  name: 'partner',
  path: '/v1/partner',
  query: NoQuery,
  response: PartnerResponse,
  docs: {
    summary: 'Partner statistics',
    description: "The calling developer app's statistics: requests per day and per endpoint, its rate-limit lane and remaining quota. Needs a developer key as `Authorization: Bearer <key>`.",
    tag: 'Partner',
    problems: ['api-key-required', 'invalid-api-key'],
  },
  cache: 'private',
  parse(_path, search) {
    parseQuery(NoQuery, search);
    return {};
  },
  canonical: () => '/v1/partner',
  handle(_params, { request }) {
    const caller = request?.caller ?? { kind: 'anonymous' };
    if (caller.kind === 'anonymous' || caller.kind === 'no-key') {
      throw new ProblemError('api-key-required', caller.kind === 'anonymous'
        ? 'Send your developer key as Authorization: Bearer <API_KEY>.'
        : 'The Authorization header must use the Bearer scheme: Authorization: Bearer <API_KEY>.', { headers: { 'www-authenticate': REALM } });
    }
    if (caller.kind === 'invalid-key') {
      throw new ProblemError('invalid-api-key', 'The developer key is unknown or has been revoked.',
        { headers: { 'www-authenticate': `${REALM}, error="invalid_token", error_description="The key is unknown or revoked"` } });
    }
    const rows = request!.usage(caller.appId);
    const days = [...totals(rows, (r) => r.day)].sort((a, b) => (a[0] < b[0] ? 1 : -1)).slice(0, DAYS_SHOWN);
    const endpoints = [...totals(rows, (r) => r.endpoint)].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const quota = request!.quota;
    const data: PartnerStats = {
      app: { id: caller.appId, name: caller.appName },
      lane: 'key',
      rateLimit: { limit: quota?.limit ?? 0, remaining: quota?.remaining ?? 0, reset: quota?.reset ?? 0, window: quota?.window ?? 60 },
      requests: {
        total: rows.reduce((n, r) => n + r.requests, 0),
        days: days.map(([day, requests]) => ({ day, requests })),
        endpoints: endpoints.map(([endpoint, requests]) => ({ endpoint, requests })),
      },
    };
    return { body: { data } };
  },
});
