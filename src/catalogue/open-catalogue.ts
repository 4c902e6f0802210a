// The only module that opens the catalogue database (better-sqlite3).
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { SCHEMA_SQL, SCHEMA_VERSION } from './schema.ts';

export type Catalogue = Database.Database;

/** Brings a catalogue made by an older version up to SCHEMA_VERSION: columns added since. */
function migrate(db: Catalogue): void {
  const columns = (db.prepare('PRAGMA table_info(video_captions)').all() as { name: string }[]).map((c) => c.name);
  if (!columns.includes('url')) db.exec('ALTER TABLE video_captions ADD COLUMN url TEXT');
}

/** Opens (creating if needed) a catalogue file, or `:memory:`, with the schema in place. */
export function openCatalogue(path: string, options: { readonly?: boolean } = {}): Catalogue {
  if (path !== ':memory:' && !options.readonly) mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  if (!options.readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(SCHEMA_SQL);
    migrate(db);
    db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run('schema_version', String(SCHEMA_VERSION));
  }
  db.pragma('busy_timeout = 5000');
  return db;
}
