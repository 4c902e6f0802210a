// Key revocations shared by every origin through Redis (docs/reliability.md, Shared state). The
// catalogue database stays the record of keys; `npm run keys -- revoke` also adds the revoked keys'
// hashes to a Redis set and bumps its version, and each origin reads the version every POLL_MS
// (the set itself only when the version moved), so an origin on another machine, whose copy of the
// catalogue does not have the revocation yet, refuses the key within POLL_MS plus one read. What an
// origin read stays in force while Redis is unreachable; a revocation is never taken back.
import type { Redis } from 'ioredis';
import { pollRedis } from './poll-redis.ts';
import { KEY_PREFIX } from './shared-rate-limiter.ts';

const REVOKED_KEY = `${KEY_PREFIX}revoked`;
const VERSION_KEY = `${KEY_PREFIX}revoked:version`;
export const POLL_MS = 1000;

/** Adds key hashes to the shared set of revoked keys (idempotent). */
export async function publishRevocations(redis: Redis, hashes: readonly string[]): Promise<void> {
  if (hashes.length === 0) return;
  await redis.multi().sadd(REVOKED_KEY, ...hashes).incr(VERSION_KEY).exec();
}

export interface RevokedKeys {
  /** whether the key with this SHA-256 hash (hex) was revoked on any origin */
  has(hash: string): boolean;
  /** Reads now (if the version moved); resolves when done, whether Redis answered or not. */
  refresh(): Promise<void>;
  close(): void;
}

export function watchRevocations(redis: Redis, options: { pollMs?: number } = {}): RevokedKeys {
  const revoked = new Set<string>();
  let version: string | null = null;
  async function read(): Promise<void> {
    try {
      if (redis.status !== 'ready') return;
      const now = await redis.get(VERSION_KEY);
      if (now === version) return;
      // only ever grows: a Redis restarted empty takes no revocation back
      for (const hash of await redis.smembers(REVOKED_KEY)) revoked.add(hash);
      version = now;
    } catch {
      // unreachable: what was read stays in force
    }
  }
  const { refresh, close } = pollRedis(redis, read, options.pollMs ?? POLL_MS);
  return { has: (hash) => revoked.has(hash), refresh, close };
}
