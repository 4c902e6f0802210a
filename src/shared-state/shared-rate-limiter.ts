// Rate limits shared by every origin (docs/reliability.md, "Shared state"): with SHARED_STATE_STORE
// set, each lane's windows are counted in Redis, atomically (rate-limiter-flexible's
// RateLimiterRedis: one Lua script increments the client's counter and starts its window on the
// first request), so a client's budget is the configured one however many origins answer it.
// The same fixed window per client and lane as the in-memory limiter (rate-limit.ts).
//
// Each origin says it is alive every HEARTBEAT_MS (a sorted set of origin ids by time), so each
// knows how many share the budget. While Redis is unreachable an origin counts locally at its
// share (the budget divided by the origins it last saw, at least RATE_LIMIT_ORIGINS), answers
// without waiting for Redis (a failed command keeps it local for PROBE_MS before it tries again)
// and goes back to Redis by itself once it answers again.
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { StatusComponent } from '../model/schemas.ts';
import { LANES, RateLimiter, type Decision, type Lane, type Limiter } from '../server/rate-limit.ts';

export const KEY_PREFIX = 'vpa:';
const ORIGINS_KEY = `${KEY_PREFIX}origins`;
export const HEARTBEAT_MS = 2000;
/** an origin not heard from for this long no longer counts */
const ORIGIN_TTL_MS = 3 * HEARTBEAT_MS;
/** after a failed command, counts stay local this long before Redis is asked again */
export const PROBE_MS = 1000;

export interface SharedLimiterState {
  /** whether counts go to Redis now */
  readonly shared: boolean;
  /** origins sharing the budget (last seen in Redis, at least the configured number) */
  readonly origins: number;
  /** when counting went local (ms), while it is */
  readonly localSince: number | undefined;
  /** the reason counting is local, while it is */
  readonly reason: string | undefined;
}

export interface SharedLimiter extends Limiter {
  state(): SharedLimiterState;
  close(): Promise<void>;
}

export interface SharedLimiterOptions {
  readonly windowMs?: number;
  /** the origins assumed before Redis has told (RATE_LIMIT_ORIGINS) */
  readonly origins?: number;
  readonly now?: () => number;
  readonly heartbeatMs?: number;
}

/** A lane's budget divided among `origins`, at least one request. */
export const shareOf = (limit: number, origins: number): number => Math.max(1, Math.floor(limit / Math.max(1, origins)));

export function createSharedLimiter(redis: Redis, limits: Readonly<Record<Lane, number>>, options: SharedLimiterOptions = {}): SharedLimiter {
  const windowMs = options.windowMs ?? 60_000;
  const now = options.now ?? Date.now;
  const minimumOrigins = Math.max(1, options.origins ?? 1);
  const window = Math.round(windowMs / 1000);
  const id = randomBytes(8).toString('hex');
  const stores = Object.fromEntries(LANES.map((lane) => [lane, new RateLimiterRedis({
    storeClient: redis, points: limits[lane], duration: window, keyPrefix: `${KEY_PREFIX}rl:${lane}`, rejectIfRedisNotReady: true,
  })])) as Record<Lane, RateLimiterRedis>;

  let origins = minimumOrigins;
  let local: RateLimiter | undefined;
  let localSince: number | undefined;
  let reason: string | undefined;
  let retryAt = 0;

  const goLocal = (why: string) => {
    retryAt = now() + PROBE_MS;
    reason = why;
    if (local) return;
    localSince = now();
    const share = Object.fromEntries(LANES.map((lane) => [lane, shareOf(limits[lane], origins)])) as Record<Lane, number>;
    local = new RateLimiter(share, { windowMs, now });
  };
  const goShared = () => {
    local = undefined;
    localSince = undefined;
    reason = undefined;
  };

  const decisionOf = (lane: Lane, res: RateLimiterRes, allowed: boolean): Decision => ({
    lane, limit: limits[lane], allowed,
    remaining: Math.max(0, res.remainingPoints),
    reset: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
    window,
  });

  async function heartbeat(): Promise<void> {
    const t = now();
    try {
      const result = await redis.multi().zadd(ORIGINS_KEY, t, id).zremrangebyscore(ORIGINS_KEY, '-inf', t - ORIGIN_TTL_MS).zcard(ORIGINS_KEY).pexpire(ORIGINS_KEY, ORIGIN_TTL_MS).exec();
      const count = Number(result?.[2]?.[1] ?? 0);
      if (count > 0) origins = Math.max(minimumOrigins, count);
    } catch {
      // unreachable: take() finds out and counts locally
    }
  }
  void heartbeat();
  const timer = setInterval(() => void heartbeat(), options.heartbeatMs ?? HEARTBEAT_MS);
  timer.unref();

  return {
    shared: true,
    take(lane, client) {
      if (local) {
        if (now() < retryAt || redis.status !== 'ready') return local.take(lane, client);
      } else if (redis.status !== 'ready') {
        goLocal(`the connection is ${redis.status}`);
        return local!.take(lane, client);
      }
      return stores[lane].consume(client).then((res) => {
        if (local) goShared();
        return decisionOf(lane, res, true);
      }, (error: unknown) => {
        if (error instanceof RateLimiterRes) {
          if (local) goShared();
          return decisionOf(lane, error, false);
        }
        goLocal(error instanceof Error ? error.message : String(error));
        return local!.take(lane, client);
      });
    },
    state: () => ({ shared: local === undefined && redis.status === 'ready', origins, localSince, reason }),
    async close() {
      clearInterval(timer);
      try {
        if (redis.status === 'ready') await redis.zrem(ORIGINS_KEY, id);
      } catch {
        // it drops out of the count by itself
      }
    },
  };
}

/** The status component of the shared store (/v1/status): operational while counts go to Redis, degraded while they are local. */
export function sharedStoreComponent(state: SharedLimiterState, now: number): StatusComponent {
  const name = 'Shared state (Redis)';
  if (state.shared) {
    return { id: 'shared-state', name, status: 'operational',
      detail: `Rate limits are counted in Redis (SHARED_STATE_STORE), shared by ${state.origins} origin${state.origins === 1 ? '' : 's'}.` };
  }
  const since = state.localSince === undefined ? '' : ` for ${Math.max(0, Math.round((now - state.localSince) / 1000))} s`;
  return { id: 'shared-state', name, status: 'degraded',
    detail: `Redis (SHARED_STATE_STORE) cannot be reached${since}: this origin counts rate limits locally at its share of each lane (1/${state.origins} of the budget) and goes back to Redis by itself when it answers again.` };
}
