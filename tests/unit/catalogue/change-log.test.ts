// The catalogue's change log (src/catalogue/change-log.ts, schema.ts CHANGE_LOG_SQL; docs/catalogue.md,
// "The change log"): triggers catch every writer, hand SQL included; a build is told what changed
// since its mark, or why the log cannot say; the schema 4 migration adds the log to an older file.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { changeLogTriggers, pruneChangeLog, readChangeLogMark, readChangesSince, resetChangeLog, type ChangeLogMark } from '../../../src/catalogue/change-log.ts';
import { finishBulkLoad, openCatalogue, openCatalogueForBulkLoad, type Catalogue } from '../../../src/catalogue/open-catalogue.ts';
import { SCHEMA_SQL, SCHEMA_VERSION } from '../../../src/catalogue/schema.ts';
import { importCatalogueFile } from '../../../src/catalogue/import-catalogue.ts';
import { rawChannel, rawVideo, tempDirs, writeNdjsonFile, writeRecords } from '../support/fixtures.ts';
import { smallCatalogue } from '../support/snapshots.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const catalogue = (): { db: Catalogue; file: string } => {
  const file = join(dirs.make(), 'catalogue.db');
  const db = openCatalogue(file);
  writeRecords(db, smallCatalogue());
  return { db, file };
};
const changedSince = (db: Catalogue, mark: ChangeLogMark) => {
  const since = readChangesSince(db, mark);
  if (since.changes === undefined) throw new Error(since.none);
  const { count, ...byKind } = since.changes;
  return { count, ...Object.fromEntries(Object.entries(byKind).filter(([, ids]) => ids.size > 0).map(([kind, ids]) => [kind, [...ids].sort()])) };
};

describe('the change log', () => {
  it('names each record written since a mark, whichever table of it was written, by plain hand SQL', () => {
    const { db } = catalogue();
    const mark = readChangeLogMark(db)!;
    expect(changedSince(db, mark)).toEqual({ count: 0 });
    db.exec("UPDATE videos SET title = 'New' WHERE id = 'v1'");
    db.exec("UPDATE channels SET display_name = 'Bobby' WHERE username = 'bob'");
    db.exec("INSERT INTO video_tags (video_id, position, tag) VALUES ('v2', 9, 'new')");
    db.exec("DELETE FROM video_sources WHERE video_id = 'v3'");
    db.exec("UPDATE categories SET name = 'Tunes' WHERE id = 'music'");
    const item = db.prepare("SELECT playlist_id FROM playlist_items LIMIT 1").pluck().get() as string;
    db.prepare("DELETE FROM playlist_items WHERE playlist_id = ?").run(item);
    expect(changedSince(db, mark)).toMatchObject({ video: ['v1', 'v2', 'v3'], channel: ['bob'], category: ['music'] });
    expect(changedSince(db, mark)).toHaveProperty("playlist", [item]);
    db.close();
  });

  it('logs a comment and the video it is on (before and after a move), and a record whose key changed under both keys', () => {
    const { db } = catalogue();
    const comment = db.prepare('SELECT id, video_id FROM comments LIMIT 1').get() as { id: string; video_id: string };
    const mark = readChangeLogMark(db)!;
    db.prepare("UPDATE comments SET text = 'edited', video_id = 'v3' WHERE id = ?").run(comment.id);
    expect(changedSince(db, mark)).toEqual({ count: 3, comment: [comment.id], comments_on: [...new Set([comment.video_id, 'v3'])].sort() });
    const second = readChangeLogMark(db)!;
    db.exec("UPDATE channels SET username = 'carol' WHERE username = 'bob'");
    expect(changedSince(db, second)).toEqual({ count: 2, channel: ['bob', 'carol'] });
    db.close();
  });

  it('numbers every change anew, whatever conflict policy the writing statement has, and never reuses a number', () => {
    const { db } = catalogue();
    db.exec("UPDATE videos SET title = 'One' WHERE id = 'v1'");
    const mark = readChangeLogMark(db)!;
    // the record is in the log already: an outer OR IGNORE must not keep its old number
    db.exec("INSERT OR IGNORE INTO categories (id, name) VALUES ('music', 'ignored')"); // no row written: nothing logged
    db.exec("UPDATE OR IGNORE videos SET title = 'Two' WHERE id = 'v1'");
    expect(changedSince(db, mark)).toEqual({ count: 1, video: ['v1'] });
    const next = readChangeLogMark(db)!;
    db.exec("INSERT OR REPLACE INTO categories (id, name) VALUES ('music', 'Replaced')");
    db.exec("INSERT INTO channels (username, display_name) VALUES ('alice', 'Upserted') ON CONFLICT (username) DO UPDATE SET display_name = excluded.display_name");
    expect(changedSince(db, next)).toEqual({ count: 2, category: ['music'], channel: ['alice'] });
    expect(readChangeLogMark(db)!.seq).toBeGreaterThan(next.seq);
    db.close();
  });

  it('logs nothing for what the build does not read: alerts, apps, keys, usage, meta', () => {
    const { db } = catalogue();
    const mark = readChangeLogMark(db)!;
    db.exec("INSERT INTO alerts (id, severity, title, message, starts_at) VALUES ('a1', 'info', 'T', 'M', '2026-01-01T00:00:00Z')");
    db.exec("INSERT INTO apps (id, name, created_at) VALUES ('app', 'App', '2026-01-01T00:00:00Z')");
    db.exec("INSERT INTO meta (key, value) VALUES ('x', 'y')");
    expect(changedSince(db, mark)).toEqual({ count: 0 });
    expect(readChangeLogMark(db)).toEqual(mark);
    db.close();
  });

  it('cannot say what changed after a reset, for another log, a log behind the mark, or a mark before what was pruned', () => {
    const { db, file } = catalogue();
    const mark = readChangeLogMark(db)!;
    db.exec("UPDATE videos SET title = 'x' WHERE id = 'v1'");
    expect(readChangesSince(db, { ...mark, log: 'another' }).none).toMatch(/not the one the served snapshot was built from/);
    expect(readChangesSince(db, { ...mark, seq: mark.seq + 100 }).none).toMatch(/behind/);
    // prune to at most 4 rows: the mark is before what was pruned
    for (let i = 0; i < 8; i++) db.prepare('UPDATE videos SET views = ? WHERE id = ?').run(i, `v${(i % 3) + 1}`);
    db.exec("UPDATE channels SET description = 'a' WHERE username = 'alice'");
    db.exec("UPDATE channels SET description = 'b' WHERE username = 'bob'");
    db.exec("UPDATE categories SET name = 'c' WHERE id = 'tech'");
    const rows = db.prepare('SELECT count(*) FROM change_log').pluck().get() as number;
    expect(pruneChangeLog(db, 4)).toBe(rows - 2);
    expect(readChangesSince(db, mark).none).toMatch(/pruned/);
    // a mark after the floor still reads the rows kept
    const kept = readChangeLogMark(db)!;
    db.exec("UPDATE videos SET title = 'y' WHERE id = 'v2'");
    expect(changedSince(db, kept)).toEqual({ count: 1, video: ['v2'] });
    resetChangeLog(db);
    expect(readChangesSince(db, kept).none).toMatch(/not the one/);
    db.exec('DROP TABLE change_log');
    expect(readChangesSince(db, kept).none).toMatch(/no change log/);
    expect(readChangeLogMark(db)).toBeUndefined();
    db.close();
    // a writer's open makes it again, under a new id
    const reopened = openCatalogue(file);
    expect(readChangeLogMark(reopened)).toMatchObject({ seq: expect.any(Number) });
    expect(readChangesSince(reopened, kept).none).toMatch(/not the one|behind/);
    reopened.close();
  });
});

describe('the schema 4 migration', () => {
  it('adds the change log to a catalogue of schema 3 the first time it is opened for writing, and logs from then on', () => {
    const file = join(dirs.make(), 'old.db');
    const old = new Database(file);
    old.exec(SCHEMA_SQL); // the tables of schema 3 are those of 4: the log is what is new
    old.exec("INSERT INTO meta (key, value) VALUES ('schema_version', '3')");
    old.exec("INSERT INTO categories (id, name) VALUES ('music', 'Music')");
    old.close();
    const readOnly = openCatalogue(file, { readonly: true });
    expect(readChangeLogMark(readOnly)).toBeUndefined();
    readOnly.close();

    const db = openCatalogue(file);
    expect(db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get()).toBe(String(SCHEMA_VERSION));
    expect(SCHEMA_VERSION).toBe(4);
    const mark = readChangeLogMark(db)!;
    expect(mark.seq).toBe(0); // the records written before are in no mark: the first build makes everything
    db.exec("UPDATE categories SET name = 'Tunes' WHERE id = 'music'");
    expect(changedSince(db, mark)).toEqual({ count: 1, category: ['music'] });
    db.close();
    // opened again, the log and its id are kept
    const again = openCatalogue(file);
    expect(readChangeLogMark(again)!.log).toBe(mark.log);
    again.close();
  });

  it('a bulk load logs none of its records and leaves the triggers in place for later writers', () => {
    const file = join(dirs.make(), 'bulk.db');
    const db = openCatalogueForBulkLoad(file);
    writeRecords(db, smallCatalogue());
    finishBulkLoad(db);
    const mark = readChangeLogMark(db)!;
    expect(mark.seq).toBe(0);
    expect(db.prepare('SELECT count(*) FROM change_log').pluck().get()).toBe(0);
    db.exec("UPDATE videos SET title = 'x' WHERE id = 'v1'");
    expect(changedSince(db, mark)).toEqual({ count: 1, video: ['v1'] });
    db.close();
  });

  it('an import into a new file logs none of its records, and an import into an existing one logs every record it writes; the triggers are in place after both', async () => {
    const dir = dirs.make();
    const path = join(dir, 'imported.db');
    await importCatalogueFile(path, writeNdjsonFile(dir, 'a.ndjson', [rawChannel('alice'), rawVideo('v1', { tags: ['x', 'y'] })]));
    const triggers = (db: Catalogue) => db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'change_log_%'").pluck().get();
    let db = openCatalogue(path, { readonly: true });
    const mark = readChangeLogMark(db)!;
    expect(mark.seq).toBe(0);
    expect(triggers(db)).toBe(changeLogTriggers().length);
    db.close();
    await importCatalogueFile(path, writeNdjsonFile(dir, 'b.ndjson', [rawVideo('v2', { channel: 'alice' })]));
    db = openCatalogue(path);
    expect(changedSince(db, mark)).toEqual({ count: 1, video: ['v2'] });
    expect(triggers(db)).toBe(changeLogTriggers().length);
    db.exec("UPDATE channels SET display_name = 'A' WHERE username = 'alice'");
    expect(changedSince(db, mark)).toMatchObject({ channel: ['alice'] });
    db.close();
  });
});
