// Ground truth for the contract suite, read straight from the catalogue database (read-only) and
// turned into expectations by the rules of docs/api-contract.md — never by the service's code.
import { openCatalogue } from '../../src/catalogue/open-catalogue.ts';

export type Privacy = 'public' | 'unlisted' | 'private';
export type FeatureName = '3d' | 'calm' | 'restricted' | 'captions';
export const FEATURES: readonly FeatureName[] = ['3d', 'calm', 'restricted', 'captions'];
export const DURATIONS = ['short', 'medium', 'long'] as const;
export type DurationName = (typeof DURATIONS)[number];

export interface TruthVideo {
  readonly id: string;
  readonly channel: string;
  readonly title: string;
  readonly description: string | null;
  readonly category: string | null;
  readonly duration: number | null;
  /** 0 when the catalogue has none (docs/api-contract.md §2) */
  readonly views: number;
  readonly likes: number;
  readonly publishedAt: string;
  readonly updatedAt: string | null;
  readonly privacy: Privacy;
  readonly features: Readonly<Record<FeatureName, boolean>>;
  readonly thumbnailUrl: string | null;
  readonly tags: readonly string[];
  readonly sources: readonly { url: string; type: string; height: number }[];
  /** `url` (the WebVTT file) as the catalogue has it: absolute, or a path on the deployment */
  readonly captions: readonly { lang: string; label: string; url: string | null }[];
}

export interface TruthComment {
  readonly id: string;
  readonly videoId: string;
  readonly parentId: string | null;
  readonly text: string;
  readonly publishedAt: string;
  readonly authorDisplayName: string;
  readonly authorUsername: string | null;
  readonly authorAvatarUrl: string | null;
  readonly likes: number;
  readonly state: 'published' | 'held' | 'removed' | 'spam';
}

export interface TruthChannel {
  readonly username: string;
  readonly displayName: string;
  readonly avatarUrl: string | null;
  readonly bannerUrl: string | null;
  readonly description: string | null;
  /** 0 when the catalogue has none (docs/api-contract.md §2) */
  readonly subscribers: number;
  readonly createdAt: string | null;
}

export interface TruthPlaylist {
  readonly id: string;
  readonly channel: string;
  readonly title: string;
  readonly description: string | null;
  readonly privacy: Privacy;
  /** every entry in order, private videos included */
  readonly videoIds: readonly string[];
  readonly createdAt: string | null;
  readonly updatedAt: string | null;
}

export interface TruthLive {
  readonly channel: string;
  readonly state: 'live' | 'upcoming' | 'offline';
  readonly title: string | null;
  readonly startedAt: string | null;
  readonly scheduledFor: string | null;
  readonly viewers: number | null;
}

export interface Truth {
  readonly videos: ReadonlyMap<string, TruthVideo>;
  /** public videos: the only ones lists, related and counts may hold */
  readonly publicVideos: readonly TruthVideo[];
  readonly unlistedIds: readonly string[];
  readonly privateIds: readonly string[];
  readonly channels: ReadonlyMap<string, TruthChannel>;
  readonly playlists: ReadonlyMap<string, TruthPlaylist>;
  readonly live: readonly TruthLive[];
  readonly categories: readonly { id: string; name: string }[];
  readonly comments: readonly TruthComment[];
  /** per visible video: its published top-level comments (the threads that may be served) */
  readonly threads: ReadonlyMap<string, readonly TruthComment[]>;
  /** per served thread id: its published replies */
  readonly replies: ReadonlyMap<string, readonly TruthComment[]>;
  /** ids of comments that must never be served: not published, a reply to one not served, or on a private video */
  readonly hiddenCommentIds: readonly string[];
}

interface VideoRow {
  id: string; channel: string; title: string; description: string | null; category: string | null;
  duration: number | null; views: number | null; likes: number | null; published_at: string;
  updated_at: string | null; privacy: Privacy; feature_3d: number; feature_calm: number;
  feature_restricted: number; feature_captions: number; thumbnail_url: string | null;
}

interface CommentRow {
  id: string; video_id: string; parent_id: string | null; text: string; published_at: string;
  author_display_name: string; author_username: string | null; author_avatar_url: string | null;
  likes: number | null; state: TruthComment['state'];
}

function grouped<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    const list = map.get(key(row));
    if (list) list.push(row);
    else map.set(key(row), [row]);
  }
  return map;
}

export function readTruth(path: string): Truth {
  const db = openCatalogue(path, { readonly: true });
  try {
    const tags = grouped(db.prepare('SELECT video_id, tag FROM video_tags ORDER BY video_id, position').all() as { video_id: string; tag: string }[], (r) => r.video_id);
    const sources = grouped(db.prepare('SELECT video_id, url, type, height FROM video_sources ORDER BY video_id, position').all() as
      { video_id: string; url: string; type: string; height: number }[], (r) => r.video_id);
    const captions = grouped(db.prepare('SELECT video_id, lang, label, url FROM video_captions ORDER BY video_id, position').all() as
      { video_id: string; lang: string; label: string; url: string | null }[], (r) => r.video_id);
    const videos = new Map<string, TruthVideo>();
    for (const row of db.prepare('SELECT * FROM videos').all() as VideoRow[]) {
      videos.set(row.id, {
        id: row.id, channel: row.channel, title: row.title, description: row.description, category: row.category,
        duration: row.duration, views: row.views ?? 0, likes: row.likes ?? 0, publishedAt: row.published_at,
        updatedAt: row.updated_at, privacy: row.privacy,
        features: { '3d': row.feature_3d === 1, calm: row.feature_calm === 1, restricted: row.feature_restricted === 1, captions: row.feature_captions === 1 },
        thumbnailUrl: row.thumbnail_url,
        tags: (tags.get(row.id) ?? []).map((t) => t.tag),
        sources: (sources.get(row.id) ?? []).map(({ url, type, height }) => ({ url, type, height })),
        captions: (captions.get(row.id) ?? []).map(({ lang, label, url }) => ({ lang, label, url })),
      });
    }
    const channels = new Map((db.prepare('SELECT * FROM channels').all() as {
      username: string; display_name: string; avatar_url: string | null; banner_url: string | null;
      description: string | null; subscribers: number | null; created_at: string | null;
    }[]).map((c) => [c.username, {
      username: c.username, displayName: c.display_name, avatarUrl: c.avatar_url, bannerUrl: c.banner_url,
      description: c.description, subscribers: c.subscribers ?? 0, createdAt: c.created_at,
    }] as const));
    const items = grouped(db.prepare('SELECT playlist_id, video_id FROM playlist_items ORDER BY playlist_id, position').all() as
      { playlist_id: string; video_id: string }[], (r) => r.playlist_id);
    const playlists = new Map((db.prepare('SELECT * FROM playlists').all() as {
      id: string; channel: string; title: string; description: string | null; privacy: Privacy;
      created_at: string | null; updated_at: string | null;
    }[]).map((p) => [p.id, {
      id: p.id, channel: p.channel, title: p.title, description: p.description, privacy: p.privacy,
      videoIds: (items.get(p.id) ?? []).map((i) => i.video_id), createdAt: p.created_at, updatedAt: p.updated_at,
    }] as const));
    const live = (db.prepare('SELECT * FROM live_streams').all() as {
      channel: string; state: TruthLive['state']; title: string | null; started_at: string | null;
      scheduled_for: string | null; viewers: number | null;
    }[]).map((l) => ({
      channel: l.channel, state: l.state, title: l.title, startedAt: l.started_at, scheduledFor: l.scheduled_for, viewers: l.viewers,
    }));
    const categories = db.prepare('SELECT id, name FROM categories').all() as { id: string; name: string }[];
    const comments: TruthComment[] = (db.prepare('SELECT * FROM comments').all() as CommentRow[]).map((c) => ({
      id: c.id, videoId: c.video_id, parentId: c.parent_id, text: c.text, publishedAt: c.published_at,
      authorDisplayName: c.author_display_name, authorUsername: c.author_username, authorAvatarUrl: c.author_avatar_url,
      likes: c.likes ?? 0, state: c.state,
    }));

    // docs/api-contract.md §2: published comments on a served video; replies only under a served top-level comment.
    const visible = (videoId: string) => { const v = videos.get(videoId); return v !== undefined && v.privacy !== 'private'; };
    const threads = new Map<string, TruthComment[]>();
    const servedThreads = new Set<string>();
    for (const c of comments) {
      if (c.parentId === null && c.state === 'published' && visible(c.videoId)) {
        servedThreads.add(c.id);
        const list = threads.get(c.videoId);
        if (list) list.push(c);
        else threads.set(c.videoId, [c]);
      }
    }
    const replies = new Map<string, TruthComment[]>();
    const served = new Set(servedThreads);
    for (const c of comments) {
      if (c.parentId !== null && c.state === 'published' && servedThreads.has(c.parentId)) {
        served.add(c.id);
        const list = replies.get(c.parentId);
        if (list) list.push(c);
        else replies.set(c.parentId, [c]);
      }
    }
    const all = [...videos.values()];
    return {
      videos,
      publicVideos: all.filter((v) => v.privacy === 'public'),
      unlistedIds: all.filter((v) => v.privacy === 'unlisted').map((v) => v.id),
      privateIds: all.filter((v) => v.privacy === 'private').map((v) => v.id),
      channels,
      playlists,
      live,
      categories,
      comments,
      threads,
      replies,
      hiddenCommentIds: comments.filter((c) => !served.has(c.id)).map((c) => c.id),
    };
  } finally {
    db.close();
  }
}

/** Plain string (UTF-16 code unit) order, the tie-break rule of docs/api-contract.md §3. */
export const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export const instant = (text: string): number => Date.parse(text);

export type ExpectedSort = 'latest' | 'views' | 'likes';

/** The order docs/api-contract.md §3 prescribes for a sort: highest (newest) first, ties by id ascending. */
export function sortedIds(videos: readonly TruthVideo[], sort: ExpectedSort): string[] {
  const key = (v: TruthVideo): number => (sort === 'latest' ? instant(v.publishedAt) : sort === 'views' ? v.views : v.likes);
  return [...videos].sort((a, b) => key(b) - key(a) || byCodeUnits(a.id, b.id)).map((v) => v.id);
}

/** docs/api-contract.md §3: short under 240 s, medium 240–1200 s inclusive, long over 1200 s. */
export function durationBucket(seconds: number | null): DurationName | undefined {
  if (seconds === null) return undefined;
  if (seconds < 240) return 'short';
  return seconds <= 1200 ? 'medium' : 'long';
}

export interface VideoFilter {
  readonly category?: string;
  readonly creator?: string;
  readonly duration?: DurationName;
  readonly feature?: FeatureName;
}

/** The public videos a combination of filters keeps (docs/api-contract.md §3: filters combine with AND). */
export function filtered(truth: Truth, f: VideoFilter): TruthVideo[] {
  return truth.publicVideos.filter((v) =>
    (f.category === undefined || v.category === f.category) &&
    (f.creator === undefined || v.channel === f.creator) &&
    (f.duration === undefined || durationBucket(v.duration) === f.duration) &&
    (f.feature === undefined || v.features[f.feature]));
}
