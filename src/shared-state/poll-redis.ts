// How an origin follows state that other origins publish in Redis (docs/reliability.md, Shared
// state): one read at a time, a first read at once, one after each reconnection and one every
// `pollMs`. `read` decides what to fetch (typically a version token first, the records only when it
// moved) and must settle whether Redis answered or not: what was read stays in force.
import type { Redis } from 'ioredis';

export interface Poll {
  /** Reads now, or joins the read under way; resolves when it has settled. */
  refresh(): Promise<void>;
  close(): void;
}

export function pollRedis(redis: Redis, read: () => Promise<void>, pollMs: number): Poll {
  let reading: Promise<void> | undefined;
  // cleared once it has settled (never before what it read is stored)
  const refresh = (): Promise<void> => (reading ??= read().finally(() => { reading = undefined; }));
  void refresh();
  redis.on('ready', () => void refresh());
  const timer = setInterval(() => void refresh(), pollMs);
  timer.unref();
  return { refresh, close: () => clearInterval(timer) };
}
