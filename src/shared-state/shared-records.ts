// Live state, operator alerts and developer keys shared by every origin through Redis
// (docs/reliability.md, Shared state). The operator commands that change them in the catalogue
// (npm run import, npm run keys, npm run share-state) also publish them here: the live records and
// the alerts whole (as JSON, exactly what the catalogue's public readers return), each key by its
// hash with its prefix and app (never the key itself), and one version (a random token) renewed with every
// change. Each origin reads the version every POLL_MS and the records only when it moved, so a
// request never waits for Redis. While Redis is unreachable the last read stays in force; before
// anything was ever published an origin falls back to its own catalogue.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { StoredKey } from '../catalogue/api-keys.ts';
import type { PublicLiveStream } from '../catalogue/public-catalogue.ts';
import type { StoredAlert } from '../catalogue/read-alerts.ts';
import { pollRedis } from './poll-redis.ts';
import { whenReady } from './redis-connection.ts';
import { publishRevocations } from './revocations.ts';
import { KEY_PREFIX } from './shared-rate-limiter.ts';

const LIVE_KEY = `${KEY_PREFIX}live`;
const ALERTS_KEY = `${KEY_PREFIX}alerts`;
const KEYS_KEY = `${KEY_PREFIX}keys`;
const VERSION_KEY = `${KEY_PREFIX}state:version`;
export const POLL_MS = 1000;
const CONNECT_WAIT_MS = 1000;

/** What a key is in Redis: its app, never the key itself (its hash is the field). */
interface SharedKey {
  readonly prefix: string;
  readonly appId: string;
  readonly appName: string;
}

/** Replaces the shared live records (from readLiveStreams: the public fields only). */
export async function publishLive(redis: Redis, live: readonly PublicLiveStream[]): Promise<void> {
  await redis.multi().set(LIVE_KEY, JSON.stringify(live)).set(VERSION_KEY, randomUUID()).exec();
}

/** Replaces the shared operator alerts (from readAlerts). */
export async function publishAlerts(redis: Redis, alerts: readonly StoredAlert[]): Promise<void> {
  await redis.multi().set(ALERTS_KEY, JSON.stringify(alerts)).set(VERSION_KEY, randomUUID()).exec();
}

/** Adds developer keys (by hash, with their app); the revoked ones also go to the revoked set. */
export async function publishKeys(redis: Redis, keys: readonly StoredKey[]): Promise<void> {
  if (keys.length === 0) return;
  const fields = keys.flatMap((k) => [k.hash, JSON.stringify({ prefix: k.prefix, appId: k.appId, appName: k.appName } satisfies SharedKey)]);
  await redis.multi().hset(KEYS_KEY, ...fields).set(VERSION_KEY, randomUUID()).exec();
  await publishRevocations(redis, keys.filter((k) => k.revoked).map((k) => k.hash));
}

export interface SharedRecords {
  /** the shared live records, or undefined when none were ever published (or read) */
  live(): readonly PublicLiveStream[] | undefined;
  /** the shared alerts, or undefined when none were ever published (or read) */
  alerts(): readonly StoredAlert[] | undefined;
  /** shared keys whose hash starts with the key's prefix, by prefix */
  keys(prefix: string): readonly StoredKey[] | undefined;
  /** when Redis last answered a read (ms since the epoch), or -Infinity */
  readonly readAt: number;
  /** Reads now (if the version moved); resolves when done, whether Redis answered or not. */
  refresh(): Promise<void>;
  close(): void;
}

/** The records in `text`, each checked and rebuilt by `pick` (so a field the API does not show never passes), or undefined. */
function parseArray<T>(text: string | null, pick: (item: Record<string, unknown>) => T | undefined): T[] | undefined {
  if (text === null) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return undefined;
    const items = value.map((v: unknown) => (isRecord(v) ? pick(v) : undefined));
    return items.every((i) => i !== undefined) ? (items as T[]) : undefined;
  } catch {
    return undefined;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): v is string => typeof v === 'string';
const optional = <K extends string>(key: K, v: unknown, ok: boolean) => (ok ? { [key]: v } : {}) as Partial<Record<K, never>>;

function pickLive(v: Record<string, unknown>): PublicLiveStream | undefined {
  if (!text(v.channel) || !text(v.title) || !['live', 'upcoming', 'offline'].includes(v.state as string)) return undefined;
  const state = v.state as PublicLiveStream['state'];
  return {
    channel: v.channel, state, title: v.title,
    ...optional('startedAt', v.startedAt, state === 'live' && text(v.startedAt)),
    ...optional('viewers', v.viewers, state === 'live' && Number.isSafeInteger(v.viewers)),
    ...optional('scheduledFor', v.scheduledFor, state === 'upcoming' && text(v.scheduledFor)),
  };
}

function pickAlert(v: Record<string, unknown>): StoredAlert | undefined {
  if (!text(v.id) || !text(v.title) || !text(v.message) || !text(v.startsAt) || !['info', 'minor', 'major', 'critical'].includes(v.severity as string)) return undefined;
  if (!Array.isArray(v.components) || !v.components.every(text) || (v.endsAt !== undefined && !text(v.endsAt))) return undefined;
  return {
    id: v.id, severity: v.severity as StoredAlert['severity'], title: v.title, message: v.message, startsAt: v.startsAt,
    ...optional('endsAt', v.endsAt, text(v.endsAt)),
    components: v.components as string[],
  };
}

export function watchSharedRecords(redis: Redis, options: { pollMs?: number; now?: () => number; log?: (m: string) => void } = {}): SharedRecords {
  const now = options.now ?? Date.now;
  const log = options.log ?? (() => {});
  let live: readonly PublicLiveStream[] | undefined;
  let alerts: readonly StoredAlert[] | undefined;
  let keys = new Map<string, StoredKey[]>();
  let version: string | null | undefined;
  let readAt = Number.NEGATIVE_INFINITY;

  async function read(): Promise<void> {
    try {
      // the first connection (at start) is worth a moment's wait; a lost one is not (the last read stands)
      const connecting = redis.status === 'wait' || redis.status === 'connecting' || redis.status === 'connect';
      if (redis.status !== 'ready' && !(connecting && (await whenReady(redis, CONNECT_WAIT_MS, { untilFailure: true })))) return;
      const current = await redis.get(VERSION_KEY);
      readAt = now();
      if (current === version) return;
      const result = await redis.multi().get(VERSION_KEY).get(LIVE_KEY).get(ALERTS_KEY).hgetall(KEYS_KEY).exec();
      if (!result || result.some(([error]) => error)) return;
      const [seen, liveText, alertsText, keyFields] = result.map(([, value]) => value) as [string | null, string | null, string | null, Record<string, string>];
      // a record that does not parse keeps the last good one (and says so once)
      const nextLive = parseArray(liveText, pickLive);
      const nextAlerts = parseArray(alertsText, pickAlert);
      if (liveText !== null && !nextLive) log(`[shared-state] the live records in Redis (${LIVE_KEY}) are not valid; keeping the last good ones`);
      if (alertsText !== null && !nextAlerts) log(`[shared-state] the alerts in Redis (${ALERTS_KEY}) are not valid; keeping the last good ones`);
      live = nextLive ?? live;
      alerts = nextAlerts ?? alerts;
      const byPrefix = new Map<string, StoredKey[]>();
      for (const [hash, text] of Object.entries(keyFields ?? {})) {
        let key: SharedKey;
        try {
          key = JSON.parse(text) as SharedKey;
        } catch {
          continue;
        }
        if (!/^[0-9a-f]{64}$/.test(hash) || typeof key.prefix !== 'string' || typeof key.appId !== 'string' || typeof key.appName !== 'string') continue;
        const stored: StoredKey = { hash, prefix: key.prefix, appId: key.appId, appName: key.appName, revoked: false };
        const list = byPrefix.get(key.prefix);
        if (list) list.push(stored);
        else byPrefix.set(key.prefix, [stored]);
      }
      // keys only ever come in: a Redis restarted empty takes none away from this origin
      for (const [prefix, list] of keys) {
        const now = byPrefix.get(prefix);
        for (const key of list) if (!now?.some((k) => k.hash === key.hash)) (now ?? byPrefix.set(prefix, []).get(prefix)!).push(key);
      }
      keys = byPrefix;
      version = seen;
    } catch {
      // unreachable or too slow: the last read stays in force
    }
  }
  const { refresh, close } = pollRedis(redis, read, options.pollMs ?? POLL_MS);
  return {
    live: () => live,
    alerts: () => alerts,
    keys: (prefix) => keys.get(prefix),
    get readAt() {
      return readAt;
    },
    refresh,
    close,
  };
}
