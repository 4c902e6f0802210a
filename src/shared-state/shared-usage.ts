// Partner usage counted once across every origin, in Redis (docs/decisions.md, Shared partner
// usage). Each origin still counts in memory and writes every 2 s (partners.ts); with a shared
// store the write is one Lua script that adds a batch's counts to one hash per app
// (`vpa:usage:<appId>`, field `<day> <endpoint>`) only if the batch's id was never seen before
// (a marker kept BATCH_TTL_S): a batch whose answer was lost (a timeout after Redis applied it) is
// sent again under the same id and counted once. Every origin reads the same hash, so /v1/partner
// gives the same totals wherever it is asked. Durability is Redis's: run it with appendonly.
import type { Redis } from 'ioredis';
import type { UsageRow } from '../catalogue/api-keys.ts';
import type { UsageStore } from '../server/partners.ts';
import { KEY_PREFIX } from './shared-rate-limiter.ts';

const USAGE_PREFIX = `${KEY_PREFIX}usage:`;
const BATCH_PREFIX = `${KEY_PREFIX}usage-batch:`;
/** how long a batch's id is remembered: far longer than any origin keeps retrying one */
export const BATCH_TTL_S = 86_400;

// KEYS[1]: the batch marker; KEYS[2..]: one app hash per row. ARGV[1]: the marker's TTL; then a
// field and a count per row, in the order of KEYS[2..].
const ADD_ONCE = `
if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) then return 0 end
for i = 2, #KEYS do
  redis.call('HINCRBY', KEYS[i], ARGV[2 * i - 2], ARGV[2 * i - 1])
end
return 1`;

const fieldOf = (row: UsageRow) => `${row.day} ${row.endpoint}`;

export function createSharedUsage(redis: Redis): UsageStore {
  return {
    label: 'Redis',
    async add(rows, batch) {
      if (rows.length === 0) return;
      const keys = [`${BATCH_PREFIX}${batch}`, ...rows.map((r) => `${USAGE_PREFIX}${r.appId}`)];
      const args = [String(BATCH_TTL_S), ...rows.flatMap((r) => [fieldOf(r), String(r.requests)])];
      await redis.eval(ADD_ONCE, keys.length, ...keys, ...args);
    },
    async read(appId) {
      const fields = await redis.hgetall(`${USAGE_PREFIX}${appId}`);
      return Object.entries(fields).map(([field, n]) => ({ appId, day: field.slice(0, 10), endpoint: field.slice(11), requests: Number(n) }))
        .sort((a, b) => (a.day + a.endpoint < b.day + b.endpoint ? -1 : 1));
    },
  };
}

/** Every app's total of requests in Redis, for npm run keys -- list. */
export async function readUsageTotals(redis: Redis, appIds: readonly string[]): Promise<Map<string, number>> {
  const totals = new Map<string, number>();
  for (const appId of appIds) {
    const values = await redis.hvals(`${USAGE_PREFIX}${appId}`);
    totals.set(appId, values.reduce((sum, n) => sum + Number(n), 0));
  }
  return totals;
}
