// The privacy choke point. Private videos and playlists, unpublished comments, replies to comments
// that are not served, and anything attached to a private video are dropped here, once; nothing
// downstream (pages, index, counts, related, search) can leak what it never received.
//
// Each table is read in one scan (docs/performance.md, "Reading the catalogue"): SQLite keeps only
// public and unlisted videos and playlists and published comments; a video's tags, sources, captions
// and chapters reach a record only through a video SQLite returned, and playlist items and comments
// are kept only when their video's id is among those read (an allow-list).
// A subquery such as `video_id IN (SELECT id FROM videos WHERE ...)` would scan the videos table,
// long descriptions and all, once per table, and `ORDER BY id` would walk the id index with one table
// lookup a row; so rows come in storage order, and videos and comments are put in the order of their
// id's index as they come (key-order.ts: the index's rowids read alone, no sort), the few channels
// and playlists sorted here in the same BINARY order.
import type { PublicCatalogue, PublicChannel, PublicComment, PublicPlaylist, PublicVideo } from './public-catalogue.ts';
import { readLiveStreams } from './read-live.ts';
import type { Catalogue } from './open-catalogue.ts';
import type { CaptionTrack, Chapter, MediaSource } from './records.ts';
import { sortBinary } from './binary-order.ts';
import { keyOrder } from './key-order.ts';

const present = <T>(value: T | null): T | undefined => (value === null ? undefined : value);

const VISIBLE = "privacy IN ('public', 'unlisted')";

type Row = unknown[];

/**
 * One string for each distinct value of a column that repeats (a video's channel, category,
 * language, tags, its sources' media types, its captions' languages and labels), not one a row: the
 * model and the pages look videos up by them in maps, and a string's hash is computed once
 * (docs/performance.md, "The catalogue read and the model's records"); and the build holds the
 * records to its end, so each string a row would be kept, and moved by the collector, for nothing
 * (at a million seeded videos, about 6.4 million strings: docs/performance.md, "Repeated child
 * values one string each"). Which string a value is cannot be seen from JavaScript, so no test
 * pins it: a sharer kept across reads, or none, shows only in `npm run bench:rebuild`'s memory.
 */
function sharedValues(): <T extends string | null>(value: T) => T {
  const seen = new Map<string, string>();
  return (value) => {
    if (value === null) return value;
    const known = seen.get(value);
    if (known !== undefined) return known as typeof value;
    seen.set(value, value);
    return value;
  };
}

/** The rows of a query as arrays (better-sqlite3's raw mode: no object a row). */
const rowsOf = (db: Catalogue, sql: string, parameters: readonly unknown[] = []): Iterable<Row> => db.prepare(sql).raw().iterate(...parameters) as Iterable<Row>;

/**
 * Child rows grouped by their owner (a video, a playlist): `sql` yields the owner's id first and
 * comes in (owner, position) order, the table's primary key, so each list keeps its order. Only the
 * lists of owners that are read reach a record. Each owner's rows come in one run, so its list is
 * looked up once a run, not once a row: at a million videos, 4 million tag rows looked up one by one in a map of a
 * million cost more than their scan (docs/performance.md, "The catalogue read and the model's records").
 * Rows `keep` refuses are left out before any list is made for them.
 */
function childrenOf<T>(db: Catalogue, sql: string, toItem: (row: Row) => T, keep?: (row: Row) => boolean, parameters: readonly unknown[] = []): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  let owner: string | undefined;
  let list: T[] = [];
  for (const row of rowsOf(db, sql, parameters)) {
    if (keep !== undefined && !keep(row)) continue;
    if (row[0] !== owner) {
      owner = row[0] as string;
      const known = groups.get(owner);
      if (known === undefined) groups.set(owner, (list = []));
      else list = known;
    }
    list.push(toItem(row));
  }
  return groups;
}

function readChannels(db: Catalogue): PublicChannel[] {
  const rows = [...rowsOf(db, 'SELECT username, display_name, description, avatar_url, banner_url, subscribers, created_at FROM channels')];
  return sortBinary(rows, (r) => r[0] as string).map((c) => ({
    username: c[0] as string,
    displayName: c[1] as string,
    description: (c[2] as string | null) ?? '',
    avatarUrl: present(c[3] as string | null),
    bannerUrl: present(c[4] as string | null),
    subscribers: (c[5] as number | null) ?? 0,
    createdAt: present(c[6] as string | null),
  }));
}

/** Every video's tags, in order, by video id, each distinct tag one string (sharedValues). */
const tagsByVideo = (db: Catalogue, shared = sharedValues()): Map<string, string[]> =>
  childrenOf(db, 'SELECT video_id, tag FROM video_tags ORDER BY video_id, position', (r) => shared(r[1] as string));

function readVideos(db: Catalogue, keep: (record: PublicVideo) => PublicVideo): PublicVideo[] {
  const shared = sharedValues();
  const tags = tagsByVideo(db, shared);
  const sources = childrenOf(db, 'SELECT video_id, url, type, height FROM video_sources ORDER BY video_id, position',
    (r): MediaSource => ({ url: r[1] as string, type: shared(r[2] as string), height: r[3] as number }));
  // a catalogue of schema 1 (read-only here, so not migrated) has no caption files
  const captionUrl = (db.prepare('PRAGMA table_info(video_captions)').all() as { name: string }[]).some((c) => c.name === 'url') ? 'url' : 'NULL AS url';
  const captions = childrenOf(db, `SELECT video_id, lang, label, ${captionUrl} FROM video_captions ORDER BY video_id, position`,
    (r): CaptionTrack => (r[3] === null
      ? { lang: shared(r[1] as string), label: shared(r[2] as string) }
      : { lang: shared(r[1] as string), label: shared(r[2] as string), url: r[3] as string }));
  // a catalogue older than schema 3 (read-only here, so not migrated) has no chapters
  const hasChapters = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'video_chapters'").get() !== undefined;
  const chapters = hasChapters
    ? childrenOf(db, 'SELECT video_id, start, title FROM video_chapters ORDER BY video_id, position', (r): Chapter => ({ start: r[1] as number, title: r[2] as string }))
    : new Map<string, Chapter[]>();

  // each record made as its row comes, and put in its place (a row kept until later would be copied
  // by every young-generation collection)
  const videos = keyOrder<PublicVideo>(db, 'videos', 'id');
  for (const v of rowsOf(db, `
    SELECT rowid, id, channel, title, description, category, duration, views, likes, published_at, updated_at, privacy,
      feature_3d, feature_calm, feature_restricted, feature_captions, thumbnail_url, language
    FROM videos WHERE ${VISIBLE}`)) {
    const id = v[1] as string;
    const description = v[4] as string | null;
    const video: PublicVideo & { chapters?: readonly Chapter[] } = {
      id,
      channel: shared(v[2] as string),
      title: v[3] as string,
      description: description === null || description === '' ? undefined : description,
      category: present(shared(v[5] as string | null)),
      tags: tags.get(id) ?? [],
      duration: present(v[6] as number | null),
      views: (v[7] as number | null) ?? 0,
      likes: (v[8] as number | null) ?? 0,
      publishedAt: v[9] as string,
      updatedAt: present(v[10] as string | null),
      // a string a row here (the query keeps only these two values); the build's store makes it one of two literals (model/build-model.ts storeVideo)
      privacy: v[11] as 'public' | 'unlisted',
      features: { '3d': v[12] === 1, calm: v[13] === 1, restricted: v[14] === 1, captions: v[15] === 1 },
      thumbnailUrl: present(v[16] as string | null),
      sources: sources.get(id) ?? [],
      captions: captions.get(id) ?? [],
      language: present(shared(v[17] as string | null)),
    };
    const ofVideo = chapters.get(id);
    if (ofVideo) video.chapters = ofVideo;
    const kept = keep(video);
    // the ids kept decide which playlist items and comments are read (readCatalogue's allow-list), a
    // privacy where the video is listed: each checked against the row (keep may have changed the record it was given)
    if (kept.id !== v[1] || kept.privacy !== v[11]) throw new Error(`keepVideo changed video "${id}"'s id or privacy: it may change how a record is kept, never which record it is`);
    videos.put(v[0] as number, kept);
  }
  return videos.items();
}

/** What trending, related and the sort orders are computed from, of one visible video (snapshot/derive-on-worker.ts). */
export type DeriveRecord = Pick<PublicVideo, 'id' | 'privacy' | 'tags' | 'channel' | 'category' | 'views' | 'likes' | 'publishedAt'>;

/**
 * Those fields of the visible videos, in readCatalogue's order, each exactly as readVideos makes it
 * (tests/unit/catalogue/read-catalogue.test.ts holds the two equal): read without the videos'
 * other columns, about a quarter of the time of the whole read, so that the build's worker computes
 * trending and related while the main thread reads the rest (derive-on-worker.ts).
 */
export function readDeriveFields(db: Catalogue): DeriveRecord[] {
  const tags = tagsByVideo(db);
  const videos = keyOrder<DeriveRecord>(db, 'videos', 'id');
  for (const v of rowsOf(db, `${DERIVE_COLUMNS} FROM videos WHERE ${VISIBLE}`)) videos.put(v[0] as number, deriveRecordOf(v, tags));
  return videos.items();
}

const DERIVE_COLUMNS = 'SELECT rowid, id, channel, category, views, likes, published_at, privacy';

/** A derive record from its row (DERIVE_COLUMNS) and the tags of its video: one function for both reads. */
const deriveRecordOf = (v: Row, tags: ReadonlyMap<string, string[]>): DeriveRecord => {
  const id = v[1] as string;
  return {
    id,
    channel: v[2] as string,
    category: present(v[3] as string | null),
    tags: tags.get(id) ?? [],
    views: (v[4] as number | null) ?? 0,
    likes: (v[5] as number | null) ?? 0,
    publishedAt: v[6] as string,
    privacy: v[7] as 'public' | 'unlisted',
  };
};

/**
 * readDeriveFields of the videos named by `ids` alone (each looked up by its key: ids of videos that
 * are not visible, or not in the catalogue, give nothing), in no particular order: each record is
 * the one readDeriveFields gives for that video (tests/unit/catalogue/read-catalogue.test.ts). The
 * build's worker reads these for the videos the change log names since the served snapshot
 * (snapshot/derive-worker.ts), instead of every video's.
 */
export function readDeriveFieldsOf(db: Catalogue, ids: readonly string[]): DeriveRecord[] {
  const named = JSON.stringify(ids);
  // the few records the change log names, read and dropped: their tags are not shared (sharedValues)
  const tags = childrenOf(db, 'SELECT video_id, tag FROM video_tags WHERE video_id IN (SELECT value FROM json_each(?)) ORDER BY video_id, position',
    (r) => r[1] as string, undefined, [named]);
  const records: DeriveRecord[] = [];
  for (const v of rowsOf(db, `${DERIVE_COLUMNS} FROM videos WHERE id IN (SELECT value FROM json_each(?)) AND ${VISIBLE}`, [named])) records.push(deriveRecordOf(v, tags));
  return records;
}

function readPlaylists(db: Catalogue, visible: ReadonlySet<string>): PublicPlaylist[] {
  // items are (playlist, video): keyed by playlist, kept when the video is visible
  const items = childrenOf(db, 'SELECT playlist_id, video_id FROM playlist_items ORDER BY playlist_id, position',
    (r) => r[1] as string, (r) => visible.has(r[1] as string));
  const rows = [...rowsOf(db, `SELECT id, channel, title, description, privacy, created_at, updated_at FROM playlists WHERE ${VISIBLE}`)];
  return sortBinary(rows, (r) => r[0] as string).map((p) => ({
    id: p[0] as string,
    channel: p[1] as string,
    title: p[2] as string,
    description: (p[3] as string | null) ?? '',
    privacy: p[4] as 'public' | 'unlisted',
    videoIds: items.get(p[0] as string) ?? [],
    createdAt: present(p[5] as string | null),
    updatedAt: present(p[6] as string | null),
  }));
}

/**
 * Published comments on visible videos; replies only under a published top-level comment of the
 * same video. Top-level comments first, then replies, each by id.
 */
function readComments(db: Catalogue, visible: ReadonlySet<string>): PublicComment[] {
  const read = keyOrder<PublicComment>(db, 'comments', 'id');
  for (const c of rowsOf(db, `
    SELECT rowid, id, video_id, parent_id, text, published_at, author_display_name, author_username, author_avatar_url, likes
    FROM comments WHERE state = 'published'`)) {
    if (!visible.has(c[2] as string)) continue;
    read.put(c[0] as number, {
      id: c[1] as string,
      videoId: c[2] as string,
      parentId: c[3] as string | null,
      text: c[4] as string,
      publishedAt: c[5] as string,
      author: { displayName: c[6] as string, username: present(c[7] as string | null), avatarUrl: present(c[8] as string | null) },
      likes: (c[9] as number | null) ?? 0,
    });
  }
  // each by id (the order they were put in), top-level comments first
  const topLevel: PublicComment[] = [];
  const replies: PublicComment[] = [];
  for (const comment of read.items()) (comment.parentId === null ? topLevel : replies).push(comment);
  // the video of every served top-level comment: a reply is served under one of the same video
  const served = new Map(topLevel.map((c) => [c.id, c.videoId]));
  for (const r of replies) if (served.get(r.parentId!) === r.videoId) topLevel.push(r);
  return topLevel;
}

export interface ReadOptions {
  /**
   * How each video is kept once read (by default, the record as made): the build passes the model's
   * own form of a video (model/stored-video.ts), so that its description, the longest text of a
   * video, is kept once, as UTF-8 off the JS heap, from the moment it is read, not held as a string
   * to the build's end beside the model's copy (docs/performance.md, "Descriptions kept once from
   * the read"). It is given only the records read here, and must keep each one's id and privacy
   * (readCatalogue refuses one that does not: the ids decide which playlist items and comments are
   * read, a privacy where a video is listed), so the choke point stays this module.
   */
  readonly keepVideo?: (record: PublicVideo) => PublicVideo;
}

export function readCatalogue(db: Catalogue, options: ReadOptions = {}): PublicCatalogue {
  const categories = sortBinary(db.prepare('SELECT id, name FROM categories').all() as { id: string; name: string }[], (c) => c.id);
  const channels = readChannels(db);
  const videos = readVideos(db, options.keepVideo ?? ((record) => record));
  const visible = new Set(videos.map((v) => v.id));
  return { categories, channels, videos, playlists: readPlaylists(db, visible), comments: readComments(db, visible), live: readLiveStreams(db) };
}
