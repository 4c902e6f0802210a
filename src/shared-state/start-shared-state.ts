// What an origin shares through Redis when SHARED_STATE_STORE (or RATE_LIMIT_STORE) is set
// (docs/reliability.md, Shared state): one connection, the shared rate limiter, the revoked keys,
// the published live state, alerts and keys, partner usage, and the status component.
// Loaded only then (start-server.ts imports it on demand), so the default start loads no Redis client.
import type { StatusComponent } from '../model/schemas.ts';
import type { LiveSource } from '../server/live-source.ts';
import type { UsageStore } from '../server/partners.ts';
import type { Lane } from '../server/rate-limit.ts';
import { connectRedis } from './redis-connection.ts';
import { watchRevocations, type RevokedKeys } from './revocations.ts';
import { POLL_MS, watchSharedRecords, type SharedRecords } from './shared-records.ts';
import { createSharedLimiter, sharedStoreComponent, type SharedLimiter, type SharedLimiterState } from './shared-rate-limiter.ts';
import { createSharedUsage } from './shared-usage.ts';

/** records last read longer ago than this are reported as the last known ones */
export const STALE_MS = 3 * POLL_MS;

export interface SharedState {
  readonly limiter: SharedLimiter;
  readonly revoked: RevokedKeys;
  readonly records: SharedRecords;
  readonly usage: UsageStore;
  /** Live state from Redis once published there; this origin's catalogue (`own`) until then. */
  live(own: LiveSource): LiveSource;
  component(): StatusComponent;
  close(): Promise<void>;
}

export function startSharedState(url: string, limits: Readonly<Record<Lane, number>>, options: { origins: number; log: (m: string) => void }): SharedState {
  const redis = connectRedis(url, { log: options.log });
  const revoked = watchRevocations(redis);
  const records = watchSharedRecords(redis, { log: options.log });
  const limiter = createSharedLimiter(redis, limits, { origins: options.origins });
  return {
    limiter,
    revoked,
    records,
    usage: createSharedUsage(redis),
    live: (own) => ({
      streams: (fallback) => records.live() ?? own.streams(fallback),
      // the catalogue's failures matter only while live state comes from it
      get failure() {
        return records.live() ? undefined : own.failure;
      },
      refresh: async () => { await Promise.all([own.refresh(), records.refresh()]); },
      close: own.close,
    }),
    component: () => sharedStateComponent(limiter.state(), records.readAt, Date.now()),
    async close() {
      await limiter.close();
      revoked.close();
      records.close();
      redis.disconnect();
    },
  };
}

/** The `shared-state` component of /v1/status: the rate limits' state, and how fresh the shared records are. */
export function sharedStateComponent(limiter: SharedLimiterState, recordsReadAt: number, now: number): StatusComponent {
  const base = sharedStoreComponent(limiter, now);
  const stale = now - recordsReadAt > STALE_MS;
  if (!stale && limiter.shared) {
    return { ...base, detail: `${base.detail} Live state, alerts, developer keys, revocations and partner usage are shared through Redis (read every second).` };
  }
  const last = Number.isFinite(recordsReadAt) ? `last read from Redis ${Math.max(0, Math.round((now - recordsReadAt) / 1000))} s ago` : 'never read from Redis yet (this origin\'s catalogue answers until they are)';
  return {
    ...base,
    status: 'degraded',
    detail: `${base.detail} Live state, alerts and developer keys are the ones ${last}; revocations read stay in force; partner usage is counted in memory and stored once Redis answers.`,
  };
}
