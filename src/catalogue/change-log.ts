// The catalogue's change log (docs/catalogue.md, "The change log"): triggers (schema.ts
// CHANGE_LOG_SQL) keep one row a record that changed, with the sequence number of its last change,
// so that a build can ask which records changed since the state a served snapshot was built from
// (docs/architecture.md, "Builds from the change log"). A log is named by an id of its own, kept in
// `meta`: a log started again (a new file, a bulk load) has another, and a build trusts a log only
// under the name and past the number it recorded.
import type Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { CHANGE_KINDS, CHANGE_LOG_SQL, CHANGE_LOG_TRIGGERS, type ChangeKind } from './schema.ts';

/** open-catalogue.ts's Catalogue (which opens the log: named here by its library's type, so the two modules import no cycle). */
type Catalogue = Database.Database;

/** `meta` keys: the log's id, and the sequence number up to which rows were pruned (a build from before it cannot be told what changed). */
const LOG_ID = 'change_log';
const LOG_FLOOR = 'change_log_floor';

/**
 * Rows the log keeps at most: beyond it, a writer's open prunes the oldest down to half of it (one
 * row a record, so only records deleted over time make it grow: a catalogue of a million videos and
 * their comments replaced whole fits). A build from before what was pruned makes the whole model data.
 */
export const CHANGE_LOG_CAP = 4_000_000;

/** Where a catalogue's log stood when it was read: recorded beside the snapshot built from that read (built-from.json). */
export interface ChangeLogMark {
  readonly log: string;
  readonly seq: number;
}

/** The records that changed since a mark, by kind (ids). */
export type Changes = Readonly<Record<ChangeKind, ReadonlySet<string>>> & { readonly count: number };

/** What a build may know of what changed since the served snapshot: the records, or why nothing can be trusted. */
export type ChangesSince = { readonly changes: Changes; readonly none?: undefined } | { readonly changes?: undefined; readonly none: string };

const metaValue = (db: Catalogue, key: string): string | undefined =>
  db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(key) as string | undefined;

const hasLog = (db: Catalogue): boolean =>
  db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'change_log'").get() !== undefined;

/**
 * Makes the log of a catalogue opened for writing, when it has none (a new file, or one older than
 * schema 4: its records so far are not in the log, and no build recorded a mark of it), and prunes
 * it to CHANGE_LOG_CAP.
 */
export function openChangeLog(db: Catalogue, cap = CHANGE_LOG_CAP): void {
  db.exec(CHANGE_LOG_SQL);
  db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run(LOG_ID, randomUUID());
  db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES (?, '0')").run(LOG_FLOOR);
  pruneChangeLog(db, cap);
}

/** Keeps the newest `cap / 2` rows once the log holds more than `cap`, raising the floor to the last number pruned. */
export function pruneChangeLog(db: Catalogue, cap = CHANGE_LOG_CAP): number {
  const rows = db.prepare('SELECT count(*) FROM change_log').pluck().get() as number;
  if (rows <= cap) return 0;
  const keep = Math.floor(cap / 2);
  return db.transaction(() => {
    const floor = db.prepare('SELECT seq FROM change_log ORDER BY seq DESC LIMIT 1 OFFSET ?').pluck().get(keep) as number;
    db.prepare("UPDATE meta SET value = ? WHERE key = 'change_log_floor'").run(String(Math.max(floor, Number(metaValue(db, LOG_FLOOR) ?? 0))));
    return db.prepare('DELETE FROM change_log WHERE seq <= ?').run(floor).changes;
  })();
}

/**
 * Starts the log again under a new id (no build's mark of the old one is trusted after it): for a
 * catalogue whose records were written without the triggers (a bulk load), and for operators.
 */
export function resetChangeLog(db: Catalogue): void {
  db.transaction(() => {
    db.exec('DELETE FROM change_log');
    db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(LOG_ID, randomUUID());
    db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, '0')").run(LOG_FLOOR);
  })();
}

/** The names of the log's triggers (a bulk load drops them while it writes a new file: openCatalogueForBulkLoad). */
export const changeLogTriggers = (): string[] => [...CHANGE_LOG_TRIGGERS];

/**
 * Drops the log's triggers while a new file is filled (its records are all new, and its log, under
 * an id of its own, is in no build's mark): each trigger costs about 3 µs a row written, which more
 * than doubled the import of a new pyvideo-100k catalogue (docs/performance.md, "A change log of the
 * catalogue"). `openChangeLog` makes them again, before the file is anyone else's.
 */
export function suspendChangeLog(db: Catalogue): void {
  for (const name of changeLogTriggers()) db.exec(`DROP TRIGGER IF EXISTS "${name}"`);
}

/** Where the log stands: its id and the last sequence number given; undefined when the catalogue has no log. */
export function readChangeLogMark(db: Catalogue): ChangeLogMark | undefined {
  if (!hasLog(db)) return undefined;
  const log = metaValue(db, LOG_ID);
  if (log === undefined) return undefined;
  // the high-water mark of AUTOINCREMENT: the last number given, even when its row was replaced or pruned
  const seq = (db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'change_log'").pluck().get() as number | undefined) ?? 0;
  return { log, seq };
}

/**
 * The records that changed after `since` (rows numbered above it), read in the caller's transaction
 * (the same one as the records it reads, so the two are of one state of the catalogue); or why the
 * log cannot say: no log, another log (another file, or the log started again), rows pruned past
 * the mark, or a log behind the mark (an older copy of the file).
 */
export function readChangesSince(db: Catalogue, since: ChangeLogMark): ChangesSince {
  const mark = readChangeLogMark(db);
  if (mark === undefined) return { none: 'the catalogue has no change log (its schema is older than 4: a writer\'s open, npm run keys -- list, adds it)' };
  if (mark.log !== since.log) return { none: 'the catalogue\'s change log is not the one the served snapshot was built from (another catalogue file, or its log was started again)' };
  if (since.seq > mark.seq) return { none: `the catalogue's change log is behind the served snapshot's mark (${mark.seq} < ${since.seq}: an older copy of the file?)` };
  const floor = Number(metaValue(db, LOG_FLOOR) ?? 0);
  if (since.seq < floor) return { none: `the change log was pruned past the served snapshot's mark (${since.seq} < ${floor})` };
  const changes = Object.fromEntries(CHANGE_KINDS.map((kind) => [kind, new Set<string>()])) as Record<ChangeKind, Set<string>>;
  let count = 0;
  for (const [kind, id] of db.prepare('SELECT kind, id FROM change_log WHERE seq > ?').raw().iterate(since.seq) as Iterable<[ChangeKind, string]>) {
    // a kind this code does not know (a newer writer's) is a change it cannot place
    if (changes[kind] === undefined) return { none: `the change log names a record of a kind this build does not know (${kind})` };
    changes[kind].add(id);
    count++;
  }
  return { changes: { ...changes, count } };
}
