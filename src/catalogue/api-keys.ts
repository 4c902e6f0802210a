// Developer apps, their keys and their usage, kept in the catalogue database beside the content
// (never emptied by `import --replace`). A key is shown once, when created; only its SHA-256 hash
// and a short prefix (to find candidates and to name it in listings) are stored.
import { createHash, randomBytes } from 'node:crypto';
import type { Catalogue } from './open-catalogue.ts';

export const KEY_PATTERN = /^vpk_[A-Za-z0-9_-]{32}$/;
const PREFIX_LENGTH = 12;

export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');
export const prefixOf = (key: string): string => key.slice(0, PREFIX_LENGTH);

export interface CreatedKey {
  readonly appId: string;
  readonly name: string;
  /** the key itself: shown once, never stored */
  readonly key: string;
  readonly prefix: string;
}

/** Registers an app with a new key. */
export function createApp(db: Catalogue, name: string, now: string): CreatedKey {
  const appId = `app_${randomBytes(6).toString('hex')}`;
  const key = `vpk_${randomBytes(24).toString('base64url')}`;
  db.transaction(() => {
    db.prepare('INSERT INTO apps (id, name, lane, created_at) VALUES (?, ?, ?, ?)').run(appId, name, 'key', now);
    db.prepare('INSERT INTO api_keys (key_hash, app_id, prefix, created_at) VALUES (?, ?, ?, ?)').run(hashKey(key), appId, prefixOf(key), now);
  })();
  return { appId, name, key, prefix: prefixOf(key) };
}

export interface AppListing {
  readonly appId: string;
  readonly name: string;
  readonly createdAt: string;
  readonly keys: readonly { prefix: string; createdAt: string; revokedAt: string | null }[];
  readonly requests: number;
}

export function listApps(db: Catalogue): AppListing[] {
  const apps = db.prepare('SELECT id, name, created_at FROM apps ORDER BY created_at, id').all() as { id: string; name: string; created_at: string }[];
  const keys = db.prepare('SELECT app_id, prefix, created_at, revoked_at FROM api_keys ORDER BY created_at, prefix').all() as
    { app_id: string; prefix: string; created_at: string; revoked_at: string | null }[];
  const usage = new Map((db.prepare('SELECT app_id, SUM(requests) AS n FROM api_usage GROUP BY app_id').all() as { app_id: string; n: number }[])
    .map((u) => [u.app_id, u.n]));
  return apps.map((a) => ({
    appId: a.id, name: a.name, createdAt: a.created_at, requests: usage.get(a.id) ?? 0,
    keys: keys.filter((k) => k.app_id === a.id).map((k) => ({ prefix: k.prefix, createdAt: k.created_at, revokedAt: k.revoked_at })),
  }));
}

/** Revokes the keys of an app (by app id) or one key (by its prefix); returns how many. */
export function revokeKeys(db: Catalogue, appIdOrPrefix: string, now: string): number {
  return db.prepare('UPDATE api_keys SET revoked_at = ? WHERE revoked_at IS NULL AND (app_id = ? OR prefix = ?)')
    .run(now, appIdOrPrefix, appIdOrPrefix).changes;
}

/** The hashes of the revoked keys of an app (by app id) or of one key (by its prefix), for the origins that share revocations (src/shared-state/revocations.ts). */
export function revokedHashes(db: Catalogue, appIdOrPrefix: string): string[] {
  return (db.prepare('SELECT key_hash FROM api_keys WHERE revoked_at IS NOT NULL AND (app_id = ? OR prefix = ?)').all(appIdOrPrefix, appIdOrPrefix) as { key_hash: string }[])
    .map((k) => k.key_hash);
}

export interface StoredKey {
  readonly hash: string;
  readonly prefix: string;
  readonly appId: string;
  readonly appName: string;
  readonly revoked: boolean;
}

export function readKeys(db: Catalogue): StoredKey[] {
  return (db.prepare('SELECT k.key_hash, k.prefix, k.app_id, a.name, k.revoked_at FROM api_keys k JOIN apps a ON a.id = k.app_id').all() as
    { key_hash: string; prefix: string; app_id: string; name: string; revoked_at: string | null }[])
    .map((k) => ({ hash: k.key_hash, prefix: k.prefix, appId: k.app_id, appName: k.name, revoked: k.revoked_at !== null }));
}

export interface UsageRow {
  readonly appId: string;
  readonly day: string;
  readonly endpoint: string;
  readonly requests: number;
}

/** Adds counts to the stored usage, in one transaction. */
export function addUsage(db: Catalogue, rows: readonly UsageRow[]): void {
  const upsert = db.prepare(`INSERT INTO api_usage (app_id, day, endpoint, requests) VALUES (?, ?, ?, ?)
    ON CONFLICT (app_id, day, endpoint) DO UPDATE SET requests = requests + excluded.requests`);
  db.transaction(() => { for (const r of rows) upsert.run(r.appId, r.day, r.endpoint, r.requests); })();
}

export function readUsage(db: Catalogue, appId: string): UsageRow[] {
  return (db.prepare('SELECT day, endpoint, requests FROM api_usage WHERE app_id = ? ORDER BY day, endpoint').all(appId) as
    { day: string; endpoint: string; requests: number }[]).map((r) => ({ appId, ...r }));
}
