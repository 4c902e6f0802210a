// createFeed (reads of the catalogue in the background, the last good value served at once and while
// reads fail) and followCatalogue (a connection opened at first use that follows the file at its
// path when it is replaced, and never creates or migrates a catalogue).
import Database from 'better-sqlite3';
import { existsSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Catalogue } from '../../../src/catalogue/open-catalogue.ts';
import { openCatalogue } from '../../../src/catalogue/open-catalogue.ts';
import { SCHEMA_VERSION } from '../../../src/catalogue/schema.ts';
import { followCatalogue, REQUIRED_TABLES, type CatalogueConnection } from '../../../src/server/catalogue-connection.ts';
import { createFeed } from '../../../src/server/catalogue-feed.ts';
import { CatalogueOperationError } from '../../../src/server/catalogue-thread.ts';
import { tempDirs } from '../support/fixtures.ts';

const dirs = tempDirs();
const connections: CatalogueConnection[] = [];
const closers: (() => void)[] = [];
afterEach(() => {
  for (const c of connections.splice(0)) c.close();
  for (const close of closers.splice(0)) close();
  dirs.cleanup();
});

/** A read the test controls: its value, and whether it fails (with a failure kind). */
function fakeRead() {
  const state = { reads: 0, failing: undefined as string | undefined, value: 1 };
  const read = async () => {
    state.reads++;
    if (state.failing !== undefined) throw new CatalogueOperationError({ kind: 'unreadable', message: state.failing });
    return state.value;
  };
  return { read, state };
}

function feedOf() {
  const { read, state } = fakeRead();
  const logged: string[] = [];
  const feed = createFeed(read, { ttlMs: 1000, label: 'live state', log: (m) => logged.push(m), poll: false });
  return { feed, state, logged };
}

describe('createFeed', () => {
  it('answers from memory without reading: a request never waits for the database', async () => {
    const { feed, state } = feedOf();
    expect(feed.get(0)).toBe(0);
    await feed.refresh();
    state.value = 2;
    expect(feed.get(0)).toBe(1);
    expect(state.reads).toBe(1);
    await feed.refresh();
    expect(feed.get(0)).toBe(2);
  });

  it('joins a read in flight instead of starting another', async () => {
    const { feed, state } = feedOf();
    await Promise.all([feed.refresh(), feed.refresh(), feed.refresh()]);
    expect(state.reads).toBe(1);
  });

  it('reads in the background every ttlMs', async () => {
    const { read, state } = fakeRead();
    const feed = createFeed(read, { ttlMs: 20, label: 'live state', log: () => {} });
    closers.push(feed.close);
    await new Promise((r) => setTimeout(r, 110));
    expect(state.reads).toBeGreaterThanOrEqual(3);
    expect(feed.get(0)).toBe(1);
  });

  it('serves the fallback and keeps the failure while the catalogue has never been readable', async () => {
    const { feed, state } = feedOf();
    state.failing = 'unable to open database file';
    await feed.refresh();
    expect(feed.get(-1)).toBe(-1);
    expect(feed.failure).toEqual({ kind: 'unreadable', message: 'cannot read live state from the catalogue: unable to open database file' });
  });

  it('serves the last good value while reads fail', async () => {
    const { feed, state } = feedOf();
    await feed.refresh();
    state.value = 5;
    state.failing = 'database disk image is malformed';
    await feed.refresh();
    expect(feed.get(0)).toBe(1);
    expect(feed.failure?.message).toMatch(/malformed/);
  });

  it('logs a failure once while it repeats, and logs when the catalogue is readable again', async () => {
    const { feed, state, logged } = feedOf();
    await feed.refresh();
    state.failing = 'locked';
    for (let i = 0; i < 3; i++) await feed.refresh();
    expect(logged).toEqual(['[catalogue] cannot read live state from the catalogue: locked; serving the last known value']);
    state.failing = undefined;
    state.value = 9;
    await feed.refresh();
    expect(feed.get(0)).toBe(9);
    expect(feed.failure).toBeUndefined();
    expect(logged.at(-1)).toBe('[catalogue] live state is readable again');
  });
});

describe('followCatalogue', () => {
  const countAlerts = (db: Catalogue) => db.prepare('SELECT count(*) FROM alerts').pluck().get() as number;
  const addAlert = (path: string, id: string) => {
    const db = openCatalogue(path);
    db.prepare("INSERT INTO alerts (id, severity, title, message, starts_at) VALUES (?, 'info', 't', 'm', '2026-01-01T00:00:00Z')").run(id);
    db.close();
  };

  it('opens the file at first use, so it may be created after the connection', () => {
    const path = join(dirs.make(), 'catalogue.db');
    const connection = followCatalogue(path, { writable: false });
    connections.push(connection);
    expect(() => connection.use(countAlerts)).toThrow();
    addAlert(path, 'a');
    expect(connection.use(countAlerts)).toBe(1);
  });

  it('opens the new file when the catalogue is replaced at the same path', () => {
    const dir = dirs.make();
    const path = join(dir, 'catalogue.db');
    addAlert(path, 'a');
    const connection = followCatalogue(path, { writable: false });
    connections.push(connection);
    expect(connection.use(countAlerts)).toBe(1);
    const next = join(dir, 'next.db');
    addAlert(next, 'b');
    addAlert(next, 'c');
    renameSync(next, path);
    expect(connection.use(countAlerts)).toBe(2);
  });

  it('throws while the file is gone, and reads it again once it is back', () => {
    const dir = dirs.make();
    const path = join(dir, 'catalogue.db');
    addAlert(path, 'a');
    const connection = followCatalogue(path, { writable: false });
    connections.push(connection);
    connection.use(countAlerts);
    renameSync(path, join(dir, 'aside.db'));
    expect(() => connection.use(countAlerts)).toThrow(/ENOENT/);
    renameSync(join(dir, 'aside.db'), path);
    expect(connection.use(countAlerts)).toBe(1);
  });

  it('passes on what the work throws', () => {
    const path = join(dirs.make(), 'catalogue.db');
    addAlert(path, 'a');
    const connection = followCatalogue(path, { writable: false });
    connections.push(connection);
    expect(() => connection.use((db) => db.prepare('SELECT * FROM no_such_table').all())).toThrow(/no such table/);
    expect(connection.use(countAlerts)).toBe(1);
  });

  it('refuses an empty file as not a catalogue, and leaves it empty even with a writable connection', () => {
    const path = join(dirs.make(), 'catalogue.db');
    writeFileSync(path, '');
    for (const writable of [false, true]) {
      const connection = followCatalogue(path, { writable });
      connections.push(connection);
      expect(() => connection.use(countAlerts)).toThrow(expect.objectContaining({ kind: 'foreign' }));
    }
    expect(statSync(path).size).toBe(0);
  });

  it('never creates a missing file, even with a writable connection', () => {
    const path = join(dirs.make(), 'catalogue.db');
    const connection = followCatalogue(path, { writable: true });
    connections.push(connection);
    expect(() => connection.use(countAlerts)).toThrow(/ENOENT/);
    expect(existsSync(path)).toBe(false);
  });

  it('refuses an SQLite file without the catalogue tables, and adds none to it', () => {
    const path = join(dirs.make(), 'other.db');
    const other = new Database(path);
    other.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)');
    other.close();
    const connection = followCatalogue(path, { writable: true });
    connections.push(connection);
    expect(() => connection.use(countAlerts)).toThrow(expect.objectContaining({ kind: 'foreign' }));
    const after = new Database(path, { readonly: true });
    expect(after.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all()).toEqual(['notes']);
    after.close();
    expect(REQUIRED_TABLES).toContain('api_usage');
  });

  it('refuses a catalogue of an older schema version without migrating it', () => {
    const path = join(dirs.make(), 'catalogue.db');
    addAlert(path, 'a');
    const db = new Database(path);
    db.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(SCHEMA_VERSION - 1));
    db.close();
    const connection = followCatalogue(path, { writable: true });
    connections.push(connection);
    expect(() => connection.use(countAlerts)).toThrow(expect.objectContaining({ kind: 'outdated' }));
    const after = new Database(path, { readonly: true });
    expect(after.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get()).toBe(String(SCHEMA_VERSION - 1));
    after.close();
  });
});
