// The only module that opens the catalogue database (better-sqlite3), and the one that sets its
// journal and durability: `openCatalogue` for every ordinary use, `openCatalogueForBulkLoad` and
// `finishBulkLoad` for writing a new file whole (docs/catalogue.md, "Bulk loading").
import Database from 'better-sqlite3';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { SCHEMA_SQL, SCHEMA_VERSION } from './schema.ts';
import { openChangeLog, suspendChangeLog } from './change-log.ts';

export type Catalogue = Database.Database;

/**
 * Brings a catalogue made by an older version up to SCHEMA_VERSION: columns added since (2: caption
 * files), and the change log (4: its table, triggers and id; the records written before it are in
 * no build's mark, so the first build after it makes everything: change-log.ts).
 */
function migrate(db: Catalogue): void {
  const columns = (db.prepare('PRAGMA table_info(video_captions)').all() as { name: string }[]).map((c) => c.name);
  if (!columns.includes('url')) db.exec('ALTER TABLE video_captions ADD COLUMN url TEXT');
  openChangeLog(db);
}

/** The schema version a catalogue records (`meta.schema_version`); undefined when it records none. */
export function readSchemaVersion(db: Catalogue): number | undefined {
  const value = Number(db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get() ?? Number.NaN);
  return Number.isInteger(value) ? value : undefined;
}

/** How long a write waits for another writer (an import) before SQLITE_BUSY ("database is locked"). */
const BUSY_TIMEOUT_MS = 5000;

/**
 * Whether another writer holds the catalogue file at `path`: waits as every write does (the busy
 * timeout) for its write lock, takes it and lets it go at once, writing nothing. Throws SQLite's
 * SQLITE_BUSY when a writer kept it for the whole wait, so a command that would replace the file
 * (the seed) refuses as every other write does. A missing file, or one that is no SQLite catalogue,
 * has no writer: nothing is thrown for it.
 */
export function checkNoOtherWriter(path: string): void {
  let db: Catalogue;
  try {
    db = new Database(path, { fileMustExist: true });
  } catch {
    return;
  }
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.exec('BEGIN IMMEDIATE');
    db.exec('ROLLBACK');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') throw error;
  } finally {
    db.close();
  }
}

/** Opens (creating if needed) a catalogue file, or `:memory:`, with the schema in place. */
export function openCatalogue(path: string, options: { readonly?: boolean } = {}): Catalogue {
  if (path !== ':memory:' && !options.readonly) mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  // before any write: a migration waits for another writer (an import) as every later write does
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  if (!options.readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(SCHEMA_SQL);
    migrate(db);
    db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run('schema_version', String(SCHEMA_VERSION));
  }
  return db;
}

/** A bulk load's page cache, in KiB (128 MiB). */
const BULK_LOAD_CACHE_KIB = 131_072;

/**
 * Opens a new catalogue file for a bulk load (docs/catalogue.md, "Bulk loading"): the caller writes
 * every record in one transaction, calls `finishBulkLoad`, closes it and renames it into place, so
 * until then the file is a throwaway. It never syncs (a crash leaves a file that is deleted anyway),
 * has a 128 MiB page cache, and its secondary indexes (and the change log's triggers) are dropped, to be rebuilt by `finishBulkLoad`
 * with one sort each (cheaper than a million scattered inserts). It keeps openCatalogue's WAL:
 * better-sqlite3 opens connections in SQLite's defensive mode, which refuses `journal_mode = OFF`.
 * Refuses a path where a file exists: these settings are only safe on a file nobody else has.
 */
export function openCatalogueForBulkLoad(path: string): Catalogue {
  if (path === ':memory:' || existsSync(path)) throw new Error(`a bulk load writes a new catalogue file, and ${path} ${path === ':memory:' ? 'is not one' : 'exists'}`);
  const db = openCatalogue(path);
  db.pragma('synchronous = OFF');
  db.pragma(`cache_size = -${BULK_LOAD_CACHE_KIB}`);
  const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL").pluck().all() as string[];
  for (const name of indexes) db.exec(`DROP INDEX "${name}"`);
  // a new file's records are all new: its log (started empty, under an id of its own) need not list them
  suspendChangeLog(db);
  return db;
}

/**
 * Ends a bulk load once its records are written: rebuilds the secondary indexes from the schema (and
 * the change log's triggers) and
 * checkpoints the WAL into the file, returning it to the rollback journal, so that, closed and
 * renamed into place, it is one self-contained file like any other catalogue (openCatalogue turns on
 * WAL again when it is next opened).
 */
export function finishBulkLoad(db: Catalogue): void {
  db.exec(SCHEMA_SQL);
  // the log's triggers again, for every later writer
  openChangeLog(db);
  db.pragma('journal_mode = DELETE');
}
