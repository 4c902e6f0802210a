// The catalogue's SQLite schema (documented in docs/catalogue.md). Keys are the public ids; lists
// keep their order in a `position` column. Privacy and comment state are stored as given: the
// one place that drops what must not be served is read-catalogue.ts.
export const SCHEMA_VERSION = 3;

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

/** Tables emptied by `import --replace`: the catalogue's content, not its operators' apps and keys. */
export const CONTENT_TABLES = [
  'categories', 'channels', 'videos', 'video_tags', 'video_sources', 'video_captions', 'video_chapters',
  'playlists', 'playlist_items', 'comments', 'live_streams', 'alerts',
] as const;
