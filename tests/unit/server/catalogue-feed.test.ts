// createFeed (request-time reads of the catalogue kept for a TTL, the last good value served while
// reads fail) and followCatalogue (a connection opened at first use that follows the file at its
// path when it is replaced).
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Catalogue } from '../../../src/catalogue/open-catalogue.ts';
import { openCatalogue } from '../../../src/catalogue/open-catalogue.ts';
import { followCatalogue, type CatalogueConnection } from '../../../src/server/catalogue-connection.ts';
import { createFeed } from '../../../src/server/catalogue-feed.ts';
import { tempDirs } from '../support/fixtures.ts';

const dirs = tempDirs();
const connections: CatalogueConnection[] = [];
afterEach(() => {
  for (const c of connections.splice(0)) c.close();
  dirs.cleanup();
});

/** A connection that hands `work` a stand-in database and fails while `failing` says so. */
function fakeConnection() {
  const state = { uses: 0, failing: undefined as string | undefined, value: 1 };
  const connection: CatalogueConnection = {
    use(work) {
      state.uses++;
      if (state.failing !== undefined) throw new Error(state.failing);
      return work({} as Catalogue);
    },
    close() {},
  };
  return { connection, state };
}

function feedOf(ttlMs = 1000) {
  const { connection, state } = fakeConnection();
  const clock = { now: 10_000 };
  const logged: string[] = [];
  const feed = createFeed(connection, () => state.value, { ttlMs, label: 'live state', log: (m) => logged.push(m), now: () => clock.now });
  return { feed, state, clock, logged };
}

describe('createFeed', () => {
  it('reads once per TTL, and again once the TTL has passed', () => {
    const { feed, state, clock } = feedOf(1000);
    expect(feed.get(0)).toBe(1);
    state.value = 2;
    clock.now += 999;
    expect(feed.get(0)).toBe(1);
    expect(state.uses).toBe(1);
    clock.now += 1;
    expect(feed.get(0)).toBe(2);
    expect(state.uses).toBe(2);
  });

  it('serves the fallback and keeps the error while the catalogue has never been readable', () => {
    const { feed, state } = feedOf();
    state.failing = 'unable to open database file';
    expect(feed.get(-1)).toBe(-1);
    expect(feed.error).toBe('cannot read live state from the catalogue: unable to open database file');
  });

  it('serves the last good value while reads fail, trying again only once per TTL', () => {
    const { feed, state, clock } = feedOf(1000);
    feed.get(0);
    state.value = 5;
    state.failing = 'database disk image is malformed';
    clock.now += 1000;
    expect(feed.get(0)).toBe(1);
    expect(feed.error).toMatch(/malformed/);
    clock.now += 500;
    expect(feed.get(0)).toBe(1);
    expect(state.uses).toBe(2);
  });

  it('logs a failure once while it repeats, and logs when the catalogue is readable again', () => {
    const { feed, state, clock, logged } = feedOf(10);
    feed.get(0);
    state.failing = 'locked';
    for (let i = 0; i < 3; i++) {
      clock.now += 10;
      feed.get(0);
    }
    expect(logged).toEqual(['[catalogue] cannot read live state from the catalogue: locked; serving the last known value']);
    state.failing = undefined;
    state.value = 9;
    clock.now += 10;
    expect(feed.get(0)).toBe(9);
    expect(feed.error).toBeUndefined();
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
    const connection = followCatalogue(path, { readonly: true });
    connections.push(connection);
    expect(() => connection.use(countAlerts)).toThrow();
    addAlert(path, 'a');
    expect(connection.use(countAlerts)).toBe(1);
  });

  it('opens the new file when the catalogue is replaced at the same path', () => {
    const dir = dirs.make();
    const path = join(dir, 'catalogue.db');
    addAlert(path, 'a');
    const connection = followCatalogue(path, { readonly: true });
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
    const connection = followCatalogue(path, { readonly: true });
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
    const connection = followCatalogue(path, { readonly: true });
    connections.push(connection);
    expect(() => connection.use((db) => db.prepare('SELECT * FROM no_such_table').all())).toThrow(/no such table/);
    expect(connection.use(countAlerts)).toBe(1);
  });
});
