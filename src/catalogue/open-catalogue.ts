// The only module that opens the catalogue database (better-sqlite3).
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { SCHEMA_SQL, SCHEMA_VERSION } from './schema.ts';

export type Catalogue = Database.Database;

/** Opens (creating if needed) a catalogue file, or `:memory:`, with the schema in place. */
export function openCatalogue(path: string, options: { readonly?: boolean } = {}): Catalogue {
  if (path !== ':memory:' && !options.readonly) mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  if (!options.readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(SCHEMA_SQL);
    db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run('schema_version', String(SCHEMA_VERSION));
  }
  db.pragma('busy_timeout = 5000');
  return db;
}
