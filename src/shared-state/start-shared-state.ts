// What an origin shares through Redis when RATE_LIMIT_STORE is set (docs/reliability.md, Shared
// state): one connection, the shared rate limiter, the revoked keys and the status component.
// Loaded only then (start-server.ts imports it on demand), so the default start loads no Redis client.
import type { StatusComponent } from '../model/schemas.ts';
import type { Lane } from '../server/rate-limit.ts';
import { connectRedis } from './redis-connection.ts';
import { watchRevocations, type RevokedKeys } from './revocations.ts';
import { createSharedLimiter, sharedStoreComponent, type SharedLimiter } from './shared-rate-limiter.ts';

export interface SharedState {
  readonly limiter: SharedLimiter;
  readonly revoked: RevokedKeys;
  component(): StatusComponent;
  close(): Promise<void>;
}

export function startSharedState(url: string, limits: Readonly<Record<Lane, number>>, options: { origins: number; log: (m: string) => void }): SharedState {
  const redis = connectRedis(url, { log: options.log });
  const revoked = watchRevocations(redis);
  const limiter = createSharedLimiter(redis, limits, { origins: options.origins });
  return {
    limiter,
    revoked,
    component: () => sharedStoreComponent(limiter.state(), Date.now()),
    async close() {
      await limiter.close();
      revoked.close();
      redis.disconnect();
    },
  };
}
