// The operator commands' side of the shared state (docs/reliability.md, Shared state): after they
// change the catalogue, npm run import, npm run keys and npm run share-state send what every
// origin must see to Redis, read back from the catalogue through its public readers (live records
// and alerts as the API shows them, keys by hash). A command whose Redis cannot be told fails
// saying so, with what to run again: the catalogue keeps the change.
import type { Redis } from 'ioredis';
import { readKeys } from '../catalogue/api-keys.ts';
import type { Catalogue } from '../catalogue/open-catalogue.ts';
import { readAlerts } from '../catalogue/read-alerts.ts';
import { readLiveStreams } from '../catalogue/read-live.ts';
import { connectRedis, describeStore, whenReady } from './redis-connection.ts';
import { publishAlerts, publishKeys, publishLive } from './shared-records.ts';

/** how long a command waits for Redis to answer */
const CONNECT_MS = 5000;

export type SharedPart = 'live' | 'alerts' | 'keys';

export interface Published {
  readonly live: number;
  readonly alerts: number;
  readonly keys: number;
  readonly revoked: number;
}

/** Sends the catalogue's `parts` to Redis; returns how many records of each went. */
export async function publishCatalogue(redis: Redis, db: Catalogue, parts: readonly SharedPart[]): Promise<Published> {
  const live = parts.includes('live') ? readLiveStreams(db) : [];
  const alerts = parts.includes('alerts') ? readAlerts(db) : [];
  const keys = parts.includes('keys') ? readKeys(db) : [];
  if (parts.includes('live')) await publishLive(redis, live);
  if (parts.includes('alerts')) await publishAlerts(redis, alerts);
  if (parts.includes('keys')) await publishKeys(redis, keys);
  return { live: live.length, alerts: alerts.length, keys: keys.length, revoked: keys.filter((k) => k.revoked).length };
}

/** A command's failure to reach the store: `message` says what it means for the operator. */
export class StoreUnreachable extends Error {}

/**
 * Runs `work` with a connection to the store, for an operator command; fails with a
 * StoreUnreachable whose message is `explain(reason)`, the store named with its password hidden.
 */
export async function withStore<T>(url: string, name: string, explain: (reason: string) => string, work: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = connectRedis(url, { log: () => {}, name });
  try {
    if (!(await whenReady(redis, CONNECT_MS))) throw new Error(`no answer within ${CONNECT_MS / 1000} s`);
    return await work(redis);
  } catch (error) {
    throw new StoreUnreachable(explain(`Redis at ${describeStore(url)} could not be reached (${error instanceof Error ? error.message : String(error)})`));
  } finally {
    redis.disconnect();
  }
}

/** The explanation of a command that changed the catalogue but could not tell Redis. */
export const notShared = (retry: string) => (reason: string) =>
  `the catalogue is changed, but ${reason}: origins that read their state from Redis do not see the change yet; run ${retry} once Redis answers`;
