// The catalogue's SQLite schema (documented in docs/catalogue.md). Keys are the public ids; lists
// keep their order in a `position` column. Privacy and comment state are stored as given: the
// one place that drops what must not be served is read-catalogue.ts.
export const SCHEMA_VERSION = 4;

export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;

CREATE TABLE IF NOT EXISTS categories (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS channels (
  username TEXT PRIMARY KEY,
  display_name TEXT NOT NULL,
  description TEXT,
  avatar_url TEXT,
  banner_url TEXT,
  subscribers INTEGER,
  created_at TEXT
) STRICT;

CREATE TABLE IF NOT EXISTS videos (
  id TEXT PRIMARY KEY,
  channel TEXT NOT NULL,
  title TEXT NOT NULL,
  description TEXT,
  category TEXT,
  duration INTEGER,
  views INTEGER,
  likes INTEGER,
  published_at TEXT NOT NULL,
  updated_at TEXT,
  privacy TEXT NOT NULL CHECK (privacy IN ('public', 'unlisted', 'private')),
  feature_3d INTEGER NOT NULL DEFAULT 0,
  feature_calm INTEGER NOT NULL DEFAULT 0,
  feature_restricted INTEGER NOT NULL DEFAULT 0,
  feature_captions INTEGER NOT NULL DEFAULT 0,
  thumbnail_url TEXT,
  language TEXT
) STRICT;
CREATE INDEX IF NOT EXISTS videos_by_channel ON videos (channel);

CREATE TABLE IF NOT EXISTS video_tags (
  video_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  tag TEXT NOT NULL,
  PRIMARY KEY (video_id, position)
) STRICT, WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS video_sources (
  video_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  url TEXT NOT NULL,
  type TEXT NOT NULL,
  height INTEGER NOT NULL,
  PRIMARY KEY (video_id, position)
) STRICT, WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS video_captions (
  video_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  lang TEXT NOT NULL,
  label TEXT NOT NULL,
  url TEXT,
  PRIMARY KEY (video_id, position)
) STRICT, WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS video_chapters (
  video_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  start INTEGER NOT NULL,
  title TEXT NOT NULL,
  PRIMARY KEY (video_id, position)
) STRICT, WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS playlists (
  id TEXT PRIMARY KEY,
  channel TEXT NOT NULL,
  title TEXT NOT NULL,
  description TEXT,
  privacy TEXT NOT NULL CHECK (privacy IN ('public', 'unlisted', 'private')),
  created_at TEXT,
  updated_at TEXT
) STRICT;

CREATE TABLE IF NOT EXISTS playlist_items (
  playlist_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  video_id TEXT NOT NULL,
  PRIMARY KEY (playlist_id, position)
) STRICT, WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS comments (
  id TEXT PRIMARY KEY,
  video_id TEXT NOT NULL,
  parent_id TEXT,
  text TEXT NOT NULL,
  published_at TEXT NOT NULL,
  author_display_name TEXT NOT NULL,
  author_username TEXT,
  author_avatar_url TEXT,
  likes INTEGER,
  state TEXT NOT NULL CHECK (state IN ('published', 'held', 'removed', 'spam'))
) STRICT;
CREATE INDEX IF NOT EXISTS comments_by_video ON comments (video_id);

CREATE TABLE IF NOT EXISTS live_streams (
  channel TEXT PRIMARY KEY,
  state TEXT NOT NULL CHECK (state IN ('live', 'upcoming', 'offline')),
  title TEXT,
  started_at TEXT,
  scheduled_for TEXT,
  viewers INTEGER
) STRICT;

CREATE TABLE IF NOT EXISTS alerts (
  id TEXT PRIMARY KEY,
  severity TEXT NOT NULL CHECK (severity IN ('info', 'minor', 'major', 'critical')),
  title TEXT NOT NULL,
  message TEXT NOT NULL,
  starts_at TEXT NOT NULL,
  ends_at TEXT,
  components TEXT NOT NULL DEFAULT '[]'
) STRICT;

CREATE TABLE IF NOT EXISTS apps (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  lane TEXT NOT NULL DEFAULT 'key',
  created_at TEXT NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS api_keys (
  key_hash TEXT PRIMARY KEY,
  app_id TEXT NOT NULL,
  prefix TEXT NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT
) STRICT;
CREATE INDEX IF NOT EXISTS api_keys_by_app ON api_keys (app_id);

CREATE TABLE IF NOT EXISTS api_usage (
  app_id TEXT NOT NULL,
  day TEXT NOT NULL,
  endpoint TEXT NOT NULL,
  requests INTEGER NOT NULL,
  PRIMARY KEY (app_id, day, endpoint)
) STRICT, WITHOUT ROWID;
`;

/**
 * The records the build reads, by the tables that hold them: a row written in a table names the
 * record(s) of each kind given, by the column given (docs/catalogue.md, "The change log"). A
 * video's tags, sources, captions and chapters are the video's; a playlist's items the playlist's;
 * a comment is its own record and a part of its video's pages (their input key holds it: `comments_on`
 * the video).
 */
export const LOGGED_TABLES: Readonly<Record<string, readonly (readonly [kind: ChangeKind, column: string])[]>> = {
  categories: [['category', 'id']],
  channels: [['channel', 'username']],
  videos: [['video', 'id']],
  video_tags: [['video', 'video_id']],
  video_sources: [['video', 'video_id']],
  video_captions: [['video', 'video_id']],
  video_chapters: [['video', 'video_id']],
  playlists: [['playlist', 'id']],
  playlist_items: [['playlist', 'playlist_id']],
  comments: [['comment', 'id'], ['comments_on', 'video_id']],
  live_streams: [['live', 'channel']],
};

/** `comments_on`: a video whose comments changed (its pages' inputs did; its own record did not). */
export const CHANGE_KINDS = ['category', 'channel', 'video', 'comments_on', 'playlist', 'comment', 'live'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/**
 * The statements of a trigger that log `row`'s (NEW or OLD) record of `kind`: its previous entry
 * replaced by one with the next sequence number, and the digest the import kept of the record
 * forgotten (a record changed by any writer is written again by the next import that brings it:
 * write-records.ts, docs/catalogue.md "Records an import leaves as they are").
 */
const logRow = (kind: ChangeKind, column: string, row: 'NEW' | 'OLD', when = '') =>
  `DELETE FROM change_log WHERE kind = '${kind}' AND id = ${row}.${column}${when ? ` AND ${when}` : ''};
  INSERT INTO change_log (kind, id) SELECT '${kind}', ${row}.${column}${when ? ` WHERE ${when}` : ''};${kind === 'comments_on' ? '' : `
  DELETE FROM record_digests WHERE kind = '${kind}' AND id = ${row}.${column}${when ? ` AND ${when}` : ''};`}`;

/**
 * The row an `INSERT OR REPLACE` (or `UPDATE OR REPLACE` of its key) would remove is deleted without
 * the delete trigger (SQLite fires it only with `recursive_triggers`, a setting of the writer's own
 * connection that a hand edit in the sqlite3 shell does not have). Where that row's logged columns
 * are its key's, the insert's own trigger names the same records; these are the tables where one is
 * not: a comment's video. Their BEFORE triggers log the record of the row that holds the key now, if
 * any: a comment moved to another video by the import's `INSERT OR REPLACE` names the video it left
 * (docs/catalogue.md, "The change log").
 */
const REPLACED_ROWS: Readonly<Record<string, { readonly key: string; readonly logged: readonly (readonly [kind: ChangeKind, column: string])[] }>> = {
  comments: { key: 'id', logged: [['comments_on', 'video_id']] },
};

/** The statements that log `kind` of the row of `table` whose `key` is NEW's (the row a REPLACE would remove), if there is one. */
const logReplaced = (table: string, key: string, kind: ChangeKind, column: string) =>
  `DELETE FROM change_log WHERE kind = '${kind}' AND id = (SELECT ${column} FROM ${table} WHERE ${key} = NEW.${key});
  INSERT INTO change_log (kind, id) SELECT '${kind}', ${column} FROM ${table} WHERE ${key} = NEW.${key};`;

/**
 * The change log (docs/catalogue.md, "The change log"): one row a record that changed, with the
 * sequence number of its last change (AUTOINCREMENT: never given twice, even once rows are pruned),
 * written by triggers, so that every writer is caught (the import, the seed, a hand edit in the
 * sqlite3 shell). A delete then an insert, not INSERT OR REPLACE: the statement that fires a trigger
 * imposes its own conflict policy on the trigger's statements (an outer INSERT OR IGNORE would make
 * the log's REPLACE an IGNORE, and the change would keep its old number). Made by openCatalogue
 * after SCHEMA_SQL (kept apart from it: SCHEMA_SQL's tables are those a served catalogue must have,
 * src/server/catalogue-connection.ts, and a catalogue older than the log is still one).
 */
export const CHANGE_LOG_SQL = `
CREATE TABLE IF NOT EXISTS change_log (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL,
  id TEXT NOT NULL,
  UNIQUE (kind, id)
) STRICT;
CREATE TABLE IF NOT EXISTS record_digests (
  kind TEXT NOT NULL,
  id TEXT NOT NULL,
  digest BLOB NOT NULL,
  PRIMARY KEY (kind, id)
) STRICT, WITHOUT ROWID;
${Object.entries(LOGGED_TABLES).map(([table, logged]) => `
CREATE TRIGGER IF NOT EXISTS change_log_${table}_insert AFTER INSERT ON ${table} BEGIN
  ${logged.map(([kind, column]) => logRow(kind, column, 'NEW')).join('\n  ')}
END;
CREATE TRIGGER IF NOT EXISTS change_log_${table}_delete AFTER DELETE ON ${table} BEGIN
  ${logged.map(([kind, column]) => logRow(kind, column, 'OLD')).join('\n  ')}
END;
CREATE TRIGGER IF NOT EXISTS change_log_${table}_update AFTER UPDATE ON ${table} BEGIN
  ${logged.map(([kind, column]) => `${logRow(kind, column, 'OLD')}\n  ${logRow(kind, column, 'NEW', `NEW.${column} IS NOT OLD.${column}`)}`).join('\n  ')}
END;`).join('')}
${Object.entries(REPLACED_ROWS).map(([table, { key, logged }]) => `
CREATE TRIGGER IF NOT EXISTS change_log_${table}_replace_insert BEFORE INSERT ON ${table} BEGIN
  ${logged.map(([kind, column]) => logReplaced(table, key, kind, column)).join('\n  ')}
END;
CREATE TRIGGER IF NOT EXISTS change_log_${table}_replace_update BEFORE UPDATE OF ${key} ON ${table} WHEN NEW.${key} IS NOT OLD.${key} BEGIN
  ${logged.map(([kind, column]) => logReplaced(table, key, kind, column)).join('\n  ')}
END;`).join('')}
`;

/** The names of the change log's triggers (CHANGE_LOG_SQL). */
export const CHANGE_LOG_TRIGGERS: readonly string[] = [
  ...Object.keys(LOGGED_TABLES).flatMap((table) => ['insert', 'delete', 'update'].map((event) => `change_log_${table}_${event}`)),
  ...Object.keys(REPLACED_ROWS).flatMap((table) => [`change_log_${table}_replace_insert`, `change_log_${table}_replace_update`]),
];

/** Tables emptied by `import --replace`: the catalogue's content, not its operators' apps and keys. */
export const CONTENT_TABLES = [
  'categories', 'channels', 'videos', 'video_tags', 'video_sources', 'video_captions', 'video_chapters',
  'playlists', 'playlist_items', 'comments', 'live_streams', 'alerts',
] as const;
