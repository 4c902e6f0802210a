// The server's connection to the catalogue database (run inside the catalogue thread,
// catalogue-thread.ts, never on the event loop). It follows the file: when the catalogue is replaced
// by a new file at the same path (seed, restore), the next use opens the new one.
//
// The server never creates or migrates a catalogue (docs/reliability.md, "Catalogue database and
// status"): it opens an existing file only (`fileMustExist`), checks that it holds this service's
// tables at this schema version before any read or write, and otherwise refuses it with a failure
// of a kind the status endpoint can name. Creating and migrating are the operator commands' work
// (open-catalogue.ts). That is why this module opens the file itself rather than through
// openCatalogue, which creates the schema on a writable connection.
import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { readSchemaVersion, type Catalogue } from '../catalogue/open-catalogue.ts';
import { SCHEMA_SQL, SCHEMA_VERSION } from '../catalogue/schema.ts';

/** Why the catalogue could not be used, in words the status endpoint can show without a path. */
export type FailureKind = 'missing' | 'foreign' | 'outdated' | 'newer' | 'locked' | 'unreadable';

export interface CatalogueFailure {
  readonly kind: FailureKind;
  /** for the server log: may name the file */
  readonly message: string;
}

export class CatalogueFileError extends Error {
  readonly kind: FailureKind;
  constructor(kind: FailureKind, message: string) {
    super(message);
    this.kind = kind;
  }
}

/** The tables of the schema (schema.ts), each of which a catalogue must have. */
export const REQUIRED_TABLES: readonly string[] = [...SCHEMA_SQL.matchAll(/CREATE TABLE IF NOT EXISTS (\w+)/g)].map((m) => m[1]!);

/** What went wrong, as a failure kind (SQLite codes and errno names). */
export function failureOf(error: unknown): CatalogueFailure {
  const e = error as { code?: unknown; message?: unknown };
  const message = String(e?.message ?? error);
  if (error instanceof CatalogueFileError) return { kind: error.kind, message };
  const code = typeof e?.code === 'string' ? e.code : '';
  if (code === 'ENOENT' || /does not exist/.test(message)) return { kind: 'missing', message };
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return { kind: 'locked', message: `${message} (${code})` };
  if (code === 'SQLITE_NOTADB') return { kind: 'foreign', message: `${message} (${code})` };
  return { kind: 'unreadable', message: code ? `${message} (${code})` : message };
}

/** Throws a CatalogueFileError unless `db` holds this service's catalogue at SCHEMA_VERSION. */
export function checkSchema(db: Catalogue, path: string): void {
  const tables = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]);
  const absent = REQUIRED_TABLES.filter((t) => !tables.has(t));
  if (absent.length === REQUIRED_TABLES.length) throw new CatalogueFileError('foreign', `${path} holds no catalogue (none of its tables): create one with npm run seed or npm run import`);
  if (absent.length > 0) throw new CatalogueFileError('foreign', `${path} is not a catalogue of this service (no ${absent.slice(0, 3).join(', ')} table)`);
  const version = readSchemaVersion(db);
  if (version === undefined) throw new CatalogueFileError('foreign', `${path} has no schema version`);
  if (version < SCHEMA_VERSION) throw new CatalogueFileError('outdated', `${path} has schema version ${version}, older than ${SCHEMA_VERSION}: an operator command (npm run keys -- list) migrates it`);
  if (version > SCHEMA_VERSION) throw new CatalogueFileError('newer', `${path} has schema version ${version}, newer than this server's ${SCHEMA_VERSION}`);
}

export interface CatalogueConnection {
  /** Runs `work` on the current file; throws (and drops the connection) when it cannot be used. */
  use<T>(work: (db: Catalogue) => T): T;
  close(): void;
}

export interface ConnectionOptions {
  /** a connection that may write (usage); reads use a read-only one */
  readonly writable: boolean;
  /** how long SQLite waits for another process's lock before giving up (the caller retries later) */
  readonly busyTimeoutMs?: number;
}

export function followCatalogue(path: string, options: ConnectionOptions): CatalogueConnection {
  let db: Catalogue | undefined;
  let inode: number | undefined;
  const drop = () => {
    try { db?.close(); } catch { /* already unusable */ }
    db = undefined;
  };
  return {
    use(work) {
      try {
        const stat = statSync(path);
        if (db && stat.ino !== inode) drop();
        if (!db) {
          if (stat.size === 0) throw new CatalogueFileError('foreign', `${path} is an empty file, not a catalogue: create one with npm run seed or npm run import`);
          const opened = new Database(path, { readonly: !options.writable, fileMustExist: true });
          try {
            opened.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 0}`);
            checkSchema(opened, path);
          } catch (error) {
            opened.close();
            throw error;
          }
          db = opened;
          inode = stat.ino;
        }
        return work(db);
      } catch (error) {
        drop();
        throw error;
      }
    },
    close: drop,
  };
}
