// Writes validated records into the catalogue. A record whose key exists replaces it, with its
// child rows (tags, sources, captions, chapters, playlist items), unless it is the very record
// written last time: each record written leaves a digest (SHA-256 of its JSON) in
// `record_digests`, and a record whose digest is the one kept is left as it is, so that importing
// a whole catalogue again writes, and logs as changed (change-log.ts), only the records that differ
// (docs/catalogue.md, "Records an import leaves as they are"). The change log's triggers forget a
// record's digest whenever any writer changes it (schema.ts), so a hand edit is written over by the
// next import that brings the record. Callers wrap calls in one transaction.
import { createHash } from 'node:crypto';
import type { Catalogue } from './open-catalogue.ts';
import type { CatalogueRecord } from './records.ts';
import { keyOf } from './validate-records.ts';

/** Writes a record; false when it was left as it is, being the record written last time. */
export type RecordWriter = (record: CatalogueRecord) => boolean;

/** A record's digest: the SHA-256 of its JSON, as validated (the same record gives the same JSON). */
export const recordDigest = (record: CatalogueRecord): Buffer => createHash('sha256').update(JSON.stringify(record)).digest();

const flag = (value: boolean | undefined): number => (value ? 1 : 0);

export interface WriterOptions {
  /**
   * The caller knows no video or playlist of the records exists yet (an import into an empty
   * catalogue, whose file repeats no key): their child rows are not cleared first, and no digest
   * is looked up.
   */
  readonly fresh?: boolean;
  /**
   * Keep each record's digest and leave a record whose digest is kept as it is (default true; the
   * seed, whose records are its own, keeps none). Alerts, which no build reads, are always written.
   */
  readonly digests?: boolean;
}

export function createRecordWriter(db: Catalogue, options: WriterOptions = {}): RecordWriter {
  const fresh = options.fresh ?? false;
  const digests = options.digests ?? true;
  const kept = db.prepare('SELECT digest FROM record_digests WHERE kind = ? AND id = ?').pluck();
  const keep = db.prepare('INSERT OR REPLACE INTO record_digests (kind, id, digest) VALUES (?, ?, ?)');
  const s = {
    category: db.prepare('INSERT OR REPLACE INTO categories (id, name) VALUES (?, ?)'),
    channel: db.prepare(`INSERT OR REPLACE INTO channels
      (username, display_name, description, avatar_url, banner_url, subscribers, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`),
    video: db.prepare(`INSERT OR REPLACE INTO videos
      (id, channel, title, description, category, duration, views, likes, published_at, updated_at, privacy,
       feature_3d, feature_calm, feature_restricted, feature_captions, thumbnail_url, language)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    clearTags: db.prepare('DELETE FROM video_tags WHERE video_id = ?'),
    tag: db.prepare('INSERT INTO video_tags (video_id, position, tag) VALUES (?, ?, ?)'),
    clearSources: db.prepare('DELETE FROM video_sources WHERE video_id = ?'),
    source: db.prepare('INSERT INTO video_sources (video_id, position, url, type, height) VALUES (?, ?, ?, ?, ?)'),
    clearCaptions: db.prepare('DELETE FROM video_captions WHERE video_id = ?'),
    caption: db.prepare('INSERT INTO video_captions (video_id, position, lang, label, url) VALUES (?, ?, ?, ?, ?)'),
    clearChapters: db.prepare('DELETE FROM video_chapters WHERE video_id = ?'),
    chapter: db.prepare('INSERT INTO video_chapters (video_id, position, start, title) VALUES (?, ?, ?, ?)'),
    playlist: db.prepare(`INSERT OR REPLACE INTO playlists
      (id, channel, title, description, privacy, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`),
    clearItems: db.prepare('DELETE FROM playlist_items WHERE playlist_id = ?'),
    item: db.prepare('INSERT INTO playlist_items (playlist_id, position, video_id) VALUES (?, ?, ?)'),
    comment: db.prepare(`INSERT OR REPLACE INTO comments
      (id, video_id, parent_id, text, published_at, author_display_name, author_username, author_avatar_url, likes, state)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    live: db.prepare(`INSERT OR REPLACE INTO live_streams
      (channel, state, title, started_at, scheduled_for, viewers) VALUES (?, ?, ?, ?, ?, ?)`),
    alert: db.prepare(`INSERT OR REPLACE INTO alerts
      (id, severity, title, message, starts_at, ends_at, components) VALUES (?, ?, ?, ?, ?, ?, ?)`),
  };

  const write = (r: CatalogueRecord): void => {
    switch (r.kind) {
      case 'category':
        s.category.run(r.id, r.name);
        return;
      case 'channel':
        s.channel.run(r.username, r.displayName, r.description ?? null, r.avatarUrl ?? null, r.bannerUrl ?? null,
          r.subscribers ?? null, r.createdAt ?? null);
        return;
      case 'video': {
        const f = r.features ?? {};
        s.video.run(r.id, r.channel, r.title, r.description ?? null, r.category ?? null, r.duration ?? null,
          r.views ?? null, r.likes ?? null, r.publishedAt, r.updatedAt ?? null, r.privacy,
          flag(f['3d']), flag(f.calm), flag(f.restricted), flag(f.captions), r.thumbnailUrl ?? null, r.language ?? null);
        if (!fresh) s.clearTags.run(r.id);
        (r.tags ?? []).forEach((tag, i) => s.tag.run(r.id, i, tag));
        if (!fresh) s.clearSources.run(r.id);
        (r.sources ?? []).forEach((m, i) => s.source.run(r.id, i, m.url, m.type, m.height));
        if (!fresh) s.clearCaptions.run(r.id);
        (r.captions ?? []).forEach((c, i) => s.caption.run(r.id, i, c.lang, c.label, c.url ?? null));
        if (!fresh) s.clearChapters.run(r.id);
        (r.chapters ?? []).forEach((c, i) => s.chapter.run(r.id, i, c.start, c.title));
        return;
      }
      case 'playlist':
        s.playlist.run(r.id, r.channel, r.title, r.description ?? null, r.privacy, r.createdAt ?? null, r.updatedAt ?? null);
        if (!fresh) s.clearItems.run(r.id);
        r.videos.forEach((videoId, i) => s.item.run(r.id, i, videoId));
        return;
      case 'comment':
        s.comment.run(r.id, r.videoId, r.parentId ?? null, r.text, r.publishedAt, r.author.displayName,
          r.author.username ?? null, r.author.avatarUrl ?? null, r.likes ?? null, r.state);
        return;
      case 'live':
        s.live.run(r.channel, r.state, r.title ?? null, r.startedAt ?? null, r.scheduledFor ?? null, r.viewers ?? null);
        return;
      case 'alert':
        s.alert.run(r.id, r.severity, r.title, r.message, r.startsAt, r.endsAt ?? null, JSON.stringify(r.components ?? []));
        return;
    }
  };

  return (r) => {
    if (!digests || r.kind === 'alert') {
      write(r);
      return true;
    }
    const { key } = keyOf(r);
    const digest = recordDigest(r);
    if (!fresh) {
      const stored = kept.get(r.kind, key) as Buffer | undefined;
      if (stored !== undefined && digest.equals(stored)) return false;
    }
    // the record's rows first (their triggers forget its old digest), then its digest
    write(r);
    keep.run(r.kind, key, digest);
    return true;
  };
}
