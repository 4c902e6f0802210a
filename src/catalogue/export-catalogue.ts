// `npm run export -- FILE`: the catalogue written back as import records (docs/catalogue.md), one a
// line, in an order that imports as it is (what a record refers to comes before it). Everything
// the import format holds is exported, private records and unpublished comments included: the
// file is the catalogue of record in another form, not something to publish. Developer apps, keys
// and usage are not catalogue content and are not exported. Rows are streamed: memory stays flat.
import type { Catalogue } from './open-catalogue.ts';
import type { CatalogueRecord, CaptionTrack, MediaSource } from './records.ts';

const omitNull = <T extends object>(o: T): T => {
  for (const key of Object.keys(o) as (keyof T)[]) if (o[key] === null || o[key] === undefined) delete o[key];
  return o;
};

/**
 * Rows of a child table, ordered by owner then position, handed out owner by owner alongside the
 * parent rows. `open` collects the statement's iterator, for exportRecords to close when it ends early.
 */
function childCursor<T extends { owner: string }>(rows: IterableIterator<unknown>, open: IterableIterator<unknown>[]) {
  open.push(rows);
  let next = rows.next();
  return (owner: string): T[] => {
    const out: T[] = [];
    // parents and children are both ordered by key, so children of skipped owners never exist
    while (!next.done && (next.value as T).owner < owner) next = rows.next();
    while (!next.done && (next.value as T).owner === owner) { out.push(next.value as T); next = rows.next(); }
    return out;
  };
}

/** Every record of the catalogue, as the import format writes it. */
export function* exportRecords(db: Catalogue): Generator<CatalogueRecord> {
  // Separate connections are not needed: better-sqlite3 allows several iterators on one connection
  // as long as nothing writes meanwhile. A reader that stops early (a write that failed on a full
  // disk) closes the child tables' iterators here: one left open keeps the connection busy, and
  // the caller's COMMIT then failed with "This database connection is busy executing a query",
  // hiding the cause.
  const open: IterableIterator<unknown>[] = [];
  try {
    yield* records(db, open);
  } finally {
    for (const rows of open) rows.return?.();
  }
}

function* records(db: Catalogue, open: IterableIterator<unknown>[]): Generator<CatalogueRecord> {
  for (const c of db.prepare('SELECT id, name FROM categories ORDER BY id').iterate()) {
    const r = c as { id: string; name: string };
    yield { kind: 'category', id: r.id, name: r.name };
  }
  for (const row of db.prepare('SELECT * FROM channels ORDER BY username').iterate()) {
    const c = row as { username: string; display_name: string; description: string | null; avatar_url: string | null; banner_url: string | null; subscribers: number | null; created_at: string | null };
    yield omitNull({
      kind: 'channel', username: c.username, displayName: c.display_name, description: c.description, avatarUrl: c.avatar_url,
      bannerUrl: c.banner_url, subscribers: c.subscribers, createdAt: c.created_at,
    } as unknown as CatalogueRecord);
  }

  const byId = 'ORDER BY owner, position';
  const tags = childCursor<{ owner: string; tag: string }>(db.prepare(`SELECT video_id AS owner, tag FROM video_tags ${byId}`).iterate(), open);
  const sources = childCursor<{ owner: string } & MediaSource>(db.prepare(`SELECT video_id AS owner, url, type, height FROM video_sources ${byId}`).iterate(), open);
  const captions = childCursor<{ owner: string; lang: string; label: string; url: string | null }>(
    db.prepare(`SELECT video_id AS owner, lang, label, url FROM video_captions ${byId}`).iterate(), open);
  // a catalogue older than schema 3, opened read-only, has no chapters table
  const hasChapters = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'video_chapters'").get() !== undefined;
  const chapters = hasChapters
    ? childCursor<{ owner: string; start: number; title: string }>(db.prepare(`SELECT video_id AS owner, start, title FROM video_chapters ${byId}`).iterate(), open)
    : () => [];
  for (const row of db.prepare('SELECT * FROM videos ORDER BY id').iterate()) {
    const v = row as {
      id: string; channel: string; title: string; description: string | null; category: string | null; duration: number | null;
      views: number | null; likes: number | null; published_at: string; updated_at: string | null; privacy: string;
      feature_3d: number; feature_calm: number; feature_restricted: number; feature_captions: number; thumbnail_url: string | null; language: string | null;
    };
    const features = { '3d': v.feature_3d === 1, calm: v.feature_calm === 1, restricted: v.feature_restricted === 1, captions: v.feature_captions === 1 };
    const t = tags(v.id).map((x) => x.tag);
    const s = sources(v.id).map(({ url, type, height }): MediaSource => ({ url, type, height }));
    const c = captions(v.id).map(({ lang, label, url }): CaptionTrack => omitNull({ lang, label, url } as CaptionTrack));
    yield omitNull({
      kind: 'video', id: v.id, channel: v.channel, title: v.title, publishedAt: v.published_at, privacy: v.privacy,
      description: v.description, category: v.category, tags: t.length > 0 ? t : null, duration: v.duration, views: v.views, likes: v.likes,
      updatedAt: v.updated_at, features: Object.values(features).some(Boolean) ? features : null, thumbnailUrl: v.thumbnail_url,
      sources: s.length > 0 ? s : null, captions: c.length > 0 ? c : null, language: v.language,
      chapters: ((ch) => (ch.length > 0 ? ch : null))(chapters(v.id).map(({ start, title }) => ({ start, title }))),
    } as unknown as CatalogueRecord);
  }

  const items = childCursor<{ owner: string; video: string }>(db.prepare(`SELECT playlist_id AS owner, video_id AS video FROM playlist_items ${byId}`).iterate(), open);
  for (const row of db.prepare('SELECT * FROM playlists ORDER BY id').iterate()) {
    const p = row as { id: string; channel: string; title: string; description: string | null; privacy: string; created_at: string | null; updated_at: string | null };
    yield omitNull({
      kind: 'playlist', id: p.id, channel: p.channel, title: p.title, privacy: p.privacy, videos: items(p.id).map((i) => i.video),
      description: p.description, createdAt: p.created_at, updatedAt: p.updated_at,
    } as unknown as CatalogueRecord);
  }

  // top-level comments first, so a reply's parent comes before it
  for (const row of db.prepare('SELECT * FROM comments ORDER BY parent_id IS NOT NULL, id').iterate()) {
    const c = row as {
      id: string; video_id: string; parent_id: string | null; text: string; published_at: string; author_display_name: string;
      author_username: string | null; author_avatar_url: string | null; likes: number | null; state: string;
    };
    yield omitNull({
      kind: 'comment', id: c.id, videoId: c.video_id, text: c.text, publishedAt: c.published_at,
      author: omitNull({ displayName: c.author_display_name, username: c.author_username, avatarUrl: c.author_avatar_url }),
      parentId: c.parent_id, likes: c.likes, state: c.state,
    } as unknown as CatalogueRecord);
  }
  for (const row of db.prepare('SELECT * FROM live_streams ORDER BY channel').iterate()) {
    const l = row as { channel: string; state: string; title: string | null; started_at: string | null; scheduled_for: string | null; viewers: number | null };
    yield omitNull({
      kind: 'live', channel: l.channel, state: l.state, title: l.title, startedAt: l.started_at, scheduledFor: l.scheduled_for, viewers: l.viewers,
    } as unknown as CatalogueRecord);
  }
  for (const row of db.prepare('SELECT * FROM alerts ORDER BY id').iterate()) {
    const a = row as { id: string; severity: string; title: string; message: string; starts_at: string; ends_at: string | null; components: string };
    const components = JSON.parse(a.components) as string[];
    yield omitNull({
      kind: 'alert', id: a.id, severity: a.severity, title: a.title, message: a.message, startsAt: a.starts_at, endsAt: a.ends_at,
      components: components.length > 0 ? components : null,
    } as unknown as CatalogueRecord);
  }
}
