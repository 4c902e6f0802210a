// The privacy choke point. Private videos and playlists, unpublished comments, replies to comments
// that are not served, and anything attached to a private video are dropped here, once; nothing
// downstream (pages, index, counts, related, search) can leak what it never received.
import type { PublicCatalogue, PublicChannel, PublicComment, PublicPlaylist, PublicVideo } from './public-catalogue.ts';
import { readLiveStreams } from './read-live.ts';
import type { Catalogue } from './open-catalogue.ts';
import type { CaptionTrack, Chapter, MediaSource } from './records.ts';

interface VideoRow {
  id: string; channel: string; title: string; description: string | null; category: string | null;
  duration: number | null; views: number | null; likes: number | null; published_at: string; updated_at: string | null;
  privacy: 'public' | 'unlisted'; feature_3d: number; feature_calm: number; feature_restricted: number;
  feature_captions: number; thumbnail_url: string | null; language: string | null;
}

/** Groups child rows (ordered by owner, position) under their owner's id. */
function groupBy<T>(rows: Iterable<unknown>, ownerOf: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows as Iterable<T>) {
    const owner = ownerOf(row);
    const list = groups.get(owner);
    if (list) list.push(row);
    else groups.set(owner, [row]);
  }
  return groups;
}

const present = <T>(value: T | null): T | undefined => (value === null ? undefined : value);

export function readCatalogue(db: Catalogue): PublicCatalogue {
  const categories = db.prepare('SELECT id, name FROM categories ORDER BY id').all() as { id: string; name: string }[];

  const channels: PublicChannel[] = (db.prepare('SELECT * FROM channels ORDER BY username').all() as {
    username: string; display_name: string; description: string | null; avatar_url: string | null;
    banner_url: string | null; subscribers: number | null; created_at: string | null;
  }[]).map((c) => ({
    username: c.username,
    displayName: c.display_name,
    description: c.description ?? '',
    avatarUrl: present(c.avatar_url),
    bannerUrl: present(c.banner_url),
    subscribers: c.subscribers ?? 0,
    createdAt: present(c.created_at),
  }));

  const visible = "SELECT id FROM videos WHERE privacy IN ('public', 'unlisted')";
  const tags = groupBy<{ video_id: string; tag: string }>(
    db.prepare(`SELECT video_id, tag FROM video_tags WHERE video_id IN (${visible}) ORDER BY video_id, position`).iterate(),
    (r) => r.video_id);
  const sources = groupBy<MediaSource & { video_id: string }>(
    db.prepare(`SELECT video_id, url, type, height FROM video_sources WHERE video_id IN (${visible}) ORDER BY video_id, position`).iterate(),
    (r) => r.video_id);
  // a catalogue of schema 1 (read-only here, so not migrated) has no caption files
  const captionUrl = (db.prepare('PRAGMA table_info(video_captions)').all() as { name: string }[]).some((c) => c.name === 'url') ? 'url' : 'NULL AS url';
  const captions = groupBy<{ video_id: string; lang: string; label: string; url: string | null }>(
    db.prepare(`SELECT video_id, lang, label, ${captionUrl} FROM video_captions WHERE video_id IN (${visible}) ORDER BY video_id, position`).iterate(),
    (r) => r.video_id);
  // a catalogue older than schema 3 (read-only here, so not migrated) has no chapters
  const hasChapters = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'video_chapters'").get() !== undefined;
  const chapters = hasChapters
    ? groupBy<Chapter & { video_id: string }>(
      db.prepare(`SELECT video_id, start, title FROM video_chapters WHERE video_id IN (${visible}) ORDER BY video_id, position`).iterate(),
      (r) => r.video_id)
    : new Map<string, (Chapter & { video_id: string })[]>();

  const videos: PublicVideo[] = [];
  for (const row of db.prepare(`SELECT * FROM videos WHERE privacy IN ('public', 'unlisted') ORDER BY id`).iterate()) {
    const v = row as VideoRow;
    videos.push({
      id: v.id,
      channel: v.channel,
      title: v.title,
      description: v.description === null || v.description === '' ? undefined : v.description,
      category: present(v.category),
      tags: (tags.get(v.id) ?? []).map((t) => t.tag),
      duration: present(v.duration),
      views: v.views ?? 0,
      likes: v.likes ?? 0,
      publishedAt: v.published_at,
      updatedAt: present(v.updated_at),
      privacy: v.privacy,
      features: { '3d': v.feature_3d === 1, calm: v.feature_calm === 1, restricted: v.feature_restricted === 1, captions: v.feature_captions === 1 },
      thumbnailUrl: present(v.thumbnail_url),
      sources: (sources.get(v.id) ?? []).map(({ url, type, height }) => ({ url, type, height })),
      captions: (captions.get(v.id) ?? []).map(({ lang, label, url }): CaptionTrack => (url === null ? { lang, label } : { lang, label, url })),
      language: present(v.language),
      ...(chapters.has(v.id) && { chapters: chapters.get(v.id)!.map(({ start, title }) => ({ start, title })) }),
    });
  }

  const items = groupBy<{ playlist_id: string; video_id: string }>(
    db.prepare(`SELECT playlist_id, video_id FROM playlist_items WHERE video_id IN (${visible}) ORDER BY playlist_id, position`).iterate(),
    (r) => r.playlist_id);
  const playlists: PublicPlaylist[] = (db.prepare(
    "SELECT * FROM playlists WHERE privacy IN ('public', 'unlisted') ORDER BY id").all() as {
    id: string; channel: string; title: string; description: string | null; privacy: 'public' | 'unlisted';
    created_at: string | null; updated_at: string | null;
  }[]).map((p) => ({
    id: p.id,
    channel: p.channel,
    title: p.title,
    description: p.description ?? '',
    privacy: p.privacy,
    videoIds: (items.get(p.id) ?? []).map((i) => i.video_id),
    createdAt: present(p.created_at),
    updatedAt: present(p.updated_at),
  }));

  // Published comments on visible videos; replies only under a published top-level comment.
  const comments: PublicComment[] = [];
  const served = new Set<string>();
  const commentRows = db.prepare(`
    SELECT c.* FROM comments c
    WHERE c.state = 'published' AND c.video_id IN (${visible})
      AND (c.parent_id IS NULL OR EXISTS (
        SELECT 1 FROM comments p WHERE p.id = c.parent_id AND p.state = 'published' AND p.parent_id IS NULL AND p.video_id = c.video_id))
    ORDER BY c.parent_id IS NOT NULL, c.id`).iterate();
  for (const row of commentRows) {
    const c = row as {
      id: string; video_id: string; parent_id: string | null; text: string; published_at: string;
      author_display_name: string; author_username: string | null; author_avatar_url: string | null; likes: number | null;
    };
    if (c.parent_id !== null && !served.has(c.parent_id)) continue;
    served.add(c.id);
    comments.push({
      id: c.id,
      videoId: c.video_id,
      parentId: c.parent_id,
      text: c.text,
      publishedAt: c.published_at,
      author: { displayName: c.author_display_name, username: present(c.author_username), avatarUrl: present(c.author_avatar_url) },
      likes: c.likes ?? 0,
    });
  }

  return { categories, channels, videos, playlists, comments, live: readLiveStreams(db) };
}
