// The one Redis connection of a process that shares its mutable state with other origins
// (docs/reliability.md, "Shared state"). A command never waits for a connection: while Redis is
// unreachable it fails at once (no offline queue) or after COMMAND_TIMEOUT_MS, and its caller falls
// back to what this process knows alone; the client reconnects by itself, at most every second.
import { Redis } from 'ioredis';

/** how long one command may take before its caller stops waiting for Redis */
export const COMMAND_TIMEOUT_MS = 250;
/** the longest pause between two attempts to reconnect */
const RECONNECT_MAX_MS = 1000;

/** A store URL with its password hidden, for logs and errors. */
export const describeStore = (url: string): string => {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.href;
};

export function connectRedis(url: string, options: { log?: (m: string) => void; name?: string } = {}): Redis {
  const log = options.log ?? ((m: string) => console.log(m));
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(50 * times, RECONNECT_MAX_MS),
    connectionName: options.name ?? 'video-platform-api',
  });
  let reported = false;
  redis.on('error', (error: Error) => {
    if (reported) return;
    reported = true;
    log(`[shared-state] Redis at ${describeStore(url)} is unreachable (${error.message}); retrying every second`);
  });
  redis.on('ready', () => {
    if (reported) log(`[shared-state] Redis at ${describeStore(url)} is reachable again`);
    reported = false;
  });
  return redis;
}

/** Resolves true once the connection is ready, false once an attempt fails or `ms` have passed (never rejects). */
export function whenReady(redis: Redis, ms: number, options: { untilFailure?: boolean } = {}): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      redis.off('close', onClose);
      resolve(ok);
    };
    const onReady = () => done(true);
    const onClose = () => done(false);
    const timer = setTimeout(() => done(false), ms);
    timer.unref();
    redis.on('ready', onReady);
    if (options.untilFailure) redis.on('close', onClose);
  });
}
