// Developer apps, keys and usage in the catalogue (src/catalogue/api-keys.ts): a key is shown once
// and only its hash and prefix are stored; revocation by app id or key prefix; usage adds up.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  addUsage, createApp, hashKey, KEY_PATTERN, listApps, prefixOf, readKeys, readUsage, revokeKeys,
} from '../../../src/catalogue/api-keys.ts';
import { openCatalogue, type Catalogue } from '../../../src/catalogue/open-catalogue.ts';
import { tempDirs } from '../support/fixtures.ts';

const T1 = '2026-03-01T10:00:00Z';
const T2 = '2026-03-02T10:00:00Z';

const dirs = tempDirs();
const opened: Catalogue[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
  dirs.cleanup();
});

function memory(): Catalogue {
  const db = openCatalogue(':memory:');
  opened.push(db);
  return db;
}

describe('hashKey and KEY_PATTERN', () => {
  it('hashes with SHA-256 in hex', () => {
    expect(hashKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('accepts vpk_ and 32 base64url characters, and nothing else', () => {
    expect(KEY_PATTERN.test(`vpk_${'aZ09-_'.repeat(5)}ab`)).toBe(true);
    for (const key of [`vpk_${'a'.repeat(31)}`, `vpk_${'a'.repeat(33)}`, `VPK_${'a'.repeat(32)}`, `vpk_${'a'.repeat(31)}=`, `vpk_${'a'.repeat(31)}+`, ` vpk_${'a'.repeat(32)}`]) {
      expect(KEY_PATTERN.test(key), key).toBe(false);
    }
  });
});

describe('createApp', () => {
  it('returns a new key that matches KEY_PATTERN, with its prefix, for a new app', () => {
    const db = memory();
    const created = createApp(db, 'Weather wall', T1);
    expect(created.key).toMatch(KEY_PATTERN);
    expect(created.prefix).toBe(created.key.slice(0, 12));
    expect(created.prefix).toBe(prefixOf(created.key));
    expect(created.appId).toMatch(/^app_[0-9a-f]{12}$/);
    expect(created.name).toBe('Weather wall');
    const again = createApp(db, 'Weather wall', T1);
    expect(again.key).not.toBe(created.key);
    expect(again.appId).not.toBe(created.appId);
  });

  it('stores the hash and prefix of the key, never the key itself', () => {
    const db = memory();
    const created = createApp(db, 'App', T1);
    expect(readKeys(db)).toEqual([{ hash: hashKey(created.key), prefix: created.prefix, appId: created.appId, appName: 'App', revoked: false }]);
    const cells = db.prepare('SELECT * FROM api_keys').raw().all().flat().concat(db.prepare('SELECT * FROM apps').raw().all().flat());
    expect(cells).not.toContain(created.key);
  });

  it('leaves no trace of the key text in the bytes of the database files', () => {
    const dir = dirs.make();
    const db = openCatalogue(join(dir, 'catalogue.db'));
    const keys = [createApp(db, 'One', T1), createApp(db, 'Two', T1)];
    db.close();
    const bytes = Buffer.concat(readdirSync(dir).map((name) => readFileSync(join(dir, name))));
    for (const { key, prefix } of keys) {
      // the hash is there, so these are the bytes the key would be in
      expect(bytes.includes(hashKey(key))).toBe(true);
      expect(bytes.includes(prefix)).toBe(true);
      expect(bytes.includes(key)).toBe(false);
      expect(bytes.includes(key.slice(prefix.length))).toBe(false);
    }
  });
});

describe('revokeKeys', () => {
  /** Gives an app a second key, as a later version of the keys command might. */
  const addKey = (db: Catalogue, appId: string, key: string) =>
    db.prepare('INSERT INTO api_keys (key_hash, app_id, prefix, created_at) VALUES (?, ?, ?, ?)').run(hashKey(key), appId, prefixOf(key), T1);

  it('revokes every key of an app by its id, and no other app\'s', () => {
    const db = memory();
    const a = createApp(db, 'A', T1);
    const b = createApp(db, 'B', T1);
    addKey(db, a.appId, `vpk_${'x'.repeat(32)}`);
    expect(revokeKeys(db, a.appId, T2)).toBe(2);
    const revoked = (appId: string) => readKeys(db).filter((k) => k.appId === appId).map((k) => k.revoked);
    expect(revoked(a.appId)).toEqual([true, true]);
    expect(revoked(b.appId)).toEqual([false]);
  });

  it('revokes one key by its prefix, leaving the app\'s other keys', () => {
    const db = memory();
    const a = createApp(db, 'A', T1);
    const second = `vpk_${'y'.repeat(32)}`;
    addKey(db, a.appId, second);
    expect(revokeKeys(db, a.prefix, T2)).toBe(1);
    expect(readKeys(db).find((k) => k.prefix === a.prefix)?.revoked).toBe(true);
    expect(readKeys(db).find((k) => k.prefix === prefixOf(second))?.revoked).toBe(false);
  });

  it('revokes nothing for an unknown id or prefix, or a key already revoked, and keeps the first revocation time', () => {
    const db = memory();
    const a = createApp(db, 'A', T1);
    expect(revokeKeys(db, 'app_000000000000', T2)).toBe(0);
    expect(revokeKeys(db, a.key, T2)).toBe(0);
    expect(revokeKeys(db, a.appId, T1)).toBe(1);
    expect(revokeKeys(db, a.appId, T2)).toBe(0);
    expect(listApps(db)[0]?.keys[0]?.revokedAt).toBe(T1);
  });
});

describe('listApps', () => {
  it('lists apps oldest first with their keys and total requests', () => {
    const db = memory();
    const later = createApp(db, 'Later', T2);
    const earlier = createApp(db, 'Earlier', T1);
    addUsage(db, [
      { appId: earlier.appId, day: '2026-03-01', endpoint: '/v1/videos', requests: 3 },
      { appId: earlier.appId, day: '2026-03-02', endpoint: '/v1/videos/{id}', requests: 4 },
    ]);
    revokeKeys(db, later.prefix, T2);
    expect(listApps(db)).toEqual([
      { appId: earlier.appId, name: 'Earlier', createdAt: T1, requests: 7, keys: [{ prefix: earlier.prefix, createdAt: T1, revokedAt: null }] },
      { appId: later.appId, name: 'Later', createdAt: T2, requests: 0, keys: [{ prefix: later.prefix, createdAt: T2, revokedAt: T2 }] },
    ]);
  });

  it('lists nothing in a catalogue without apps', () => {
    expect(listApps(memory())).toEqual([]);
  });
});

describe('addUsage and readUsage', () => {
  it('adds counts to the stored ones per app, day and endpoint, and reads them in day and endpoint order', () => {
    const db = memory();
    addUsage(db, [
      { appId: 'app_a', day: '2026-03-02', endpoint: '/v1/videos', requests: 2 },
      { appId: 'app_a', day: '2026-03-01', endpoint: '/v1/videos/{id}', requests: 1 },
      { appId: 'app_b', day: '2026-03-01', endpoint: '/v1/videos', requests: 9 },
    ]);
    addUsage(db, [
      { appId: 'app_a', day: '2026-03-02', endpoint: '/v1/videos', requests: 5 },
      { appId: 'app_a', day: '2026-03-01', endpoint: '/v1/categories', requests: 1 },
    ]);
    expect(readUsage(db, 'app_a')).toEqual([
      { appId: 'app_a', day: '2026-03-01', endpoint: '/v1/categories', requests: 1 },
      { appId: 'app_a', day: '2026-03-01', endpoint: '/v1/videos/{id}', requests: 1 },
      { appId: 'app_a', day: '2026-03-02', endpoint: '/v1/videos', requests: 7 },
    ]);
    expect(readUsage(db, 'app_c')).toEqual([]);
  });

  it('writes all rows or none', () => {
    const db = memory();
    addUsage(db, [{ appId: 'app_a', day: '2026-03-01', endpoint: '/v1/videos', requests: 1 }]);
    expect(() => addUsage(db, [
      { appId: 'app_a', day: '2026-03-01', endpoint: '/v1/videos', requests: 1 },
      { appId: 'app_a', day: '2026-03-01', endpoint: '/v1/categories', requests: 'many' as unknown as number },
    ])).toThrow();
    expect(readUsage(db, 'app_a')).toEqual([{ appId: 'app_a', day: '2026-03-01', endpoint: '/v1/videos', requests: 1 }]);
  });
});
