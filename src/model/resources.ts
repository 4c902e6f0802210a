// Turns public catalogue records into API resources (docs/api-contract.md §2). Keys are written in the order
// of docs/api-contract.md §2; optional fields without a value are left out, never null.
import type { Category, Channel, CommentThread, Creator, LiveChannel, Playback, Playlist, Reply, Video, VideoChapter } from './schemas.ts';
import { durationText } from './durations.ts';
import type { PublicChannel, PublicComment, PublicLiveStream, PublicPlaylist, PublicVideo } from '../catalogue/public-catalogue.ts';
import { avatarNameFor, type Urls } from './urls.ts';
import { thumbnailsOf } from './thumbnail-sizes.ts';
import type { StoredComment, StoredThread } from './stored-comments.ts';

export function toCreator(channel: PublicChannel, urls: Urls): Creator {
  return {
    username: channel.username,
    displayName: channel.displayName,
    avatarUrl: channel.avatarUrl ?? urls.avatar(channel.username),
    channelUrl: urls.channel(channel.username),
  };
}

/** What a channel's counts and dates are derived from (docs/api-contract.md §2 defaults). */
export interface ChannelFacts {
  readonly views: number;
  readonly videos: number;
  readonly playlists: number;
  /** earliest publishedAt of its public videos, when it has any */
  readonly firstPublishedAt: string | undefined;
}

/** A channel without its live state, which is only known at request time (model/live.ts). */
export type ChannelProfile = Omit<Channel, 'isLive'>;

export const EPOCH = '1970-01-01T00:00:00Z';

export function toChannel(channel: PublicChannel, facts: ChannelFacts, urls: Urls): ChannelProfile {
  return {
    username: channel.username,
    displayName: channel.displayName,
    description: channel.description,
    avatarUrl: channel.avatarUrl ?? urls.avatar(channel.username),
    ...(channel.bannerUrl !== undefined && { bannerUrl: channel.bannerUrl }),
    channelUrl: urls.channel(channel.username),
    subscribers: channel.subscribers,
    views: facts.views,
    videos: facts.videos,
    playlists: facts.playlists,
    createdAt: channel.createdAt ?? facts.firstPublishedAt ?? EPOCH,
  };
}

/**
 * A playlist: `videoCount` counts its visible entries; its picture is its first public video's,
 * else a generated one; missing dates default to the latest publishedAt of its videos.
 */
export function toPlaylist(p: PublicPlaylist, videos: readonly PublicVideo[], cover: Video | undefined, creator: Creator, urls: Urls): Playlist {
  let latest: string | undefined;
  for (const v of videos) if (latest === undefined || v.publishedAt > latest) latest = v.publishedAt;
  return {
    id: p.id,
    title: p.title,
    description: p.description,
    privacy: p.privacy,
    videoCount: videos.length,
    thumbnailUrl: cover?.thumbnailUrl ?? urls.playlistThumbnail(p.id),
    creator,
    createdAt: p.createdAt ?? latest ?? EPOCH,
    updatedAt: p.updatedAt ?? latest ?? EPOCH,
  };
}

export function toLiveChannel(stream: PublicLiveStream, channel: PublicChannel, urls: Urls): LiveChannel {
  return {
    channel: {
      username: channel.username,
      displayName: channel.displayName,
      avatarUrl: channel.avatarUrl ?? urls.avatar(channel.username),
      channelUrl: urls.channel(channel.username),
    },
    state: stream.state,
    title: stream.title,
    ...(stream.startedAt !== undefined && { startedAt: stream.startedAt }),
    ...(stream.scheduledFor !== undefined && { scheduledFor: stream.scheduledFor }),
    ...(stream.viewers !== undefined && { viewers: stream.viewers }),
    watchUrl: urls.live(channel.username),
    embedUrl: urls.liveEmbed(channel.username),
    thumbnailUrl: urls.liveThumbnail(channel.username),
  };
}

/** The 16 possible features objects, shared by every video that has the same flags. */
const FEATURE_SETS = Array.from({ length: 16 }, (_, bits) => Object.freeze({ '3d': (bits & 1) !== 0, calm: (bits & 2) !== 0, restricted: (bits & 4) !== 0, captions: (bits & 8) !== 0 }));
const featuresOf = (f: PublicVideo['features']): Video['features'] & object =>
  FEATURE_SETS[(f['3d'] ? 1 : 0) | (f.calm ? 2 : 0) | (f.restricted ? 4 : 0) | (f.captions ? 8 : 0)]!;

/**
 * The video resource, its optional fields set only when they have a value, in the order of
 * docs/api-contract.md §2 (a property's place is the order it was set in). Set one by one rather
 * than spread from `cond && { ... }`: each spread made an object of its own to copy from, five a
 * video, so a first list page of 27 videos made some 135 objects only to drop them
 * (docs/performance.md, "The serving process's memory and its first list answers").
 */
export function toVideo(v: PublicVideo, creator: Creator, comments: number, urls: Urls): Video {
  const video = { id: v.id, title: v.title } as Video;
  const description = v.description;
  if (description !== undefined) video.description = description;
  if (v.category !== undefined) video.category = v.category;
  video.tags = v.tags as string[]; // shared with the record, never mutated
  if (v.duration !== undefined) {
    video.duration = v.duration;
    video.durationText = durationText(v.duration);
  }
  video.views = v.views;
  video.likes = v.likes;
  video.comments = comments;
  video.publishedAt = v.publishedAt;
  if (v.updatedAt !== undefined) video.updatedAt = v.updatedAt;
  video.privacy = v.privacy;
  video.thumbnailUrl = v.thumbnailUrl ?? urls.thumbnail(v.id);
  video.watchUrl = urls.watch(v.id);
  video.embedUrl = urls.embed(v.id);
  video.features = featuresOf(v.features);
  video.creator = creator;
  if (v.chapters !== undefined && v.chapters.length > 0) video.chapters = v.chapters as VideoChapter[]; // shared, never mutated
  // Generated pictures at named sizes (src/model/thumbnail-sizes.ts), last in the object. The
  // resource is made when asked (src/model/entries.ts), so they are not held between answers.
  if (v.thumbnailUrl === undefined) video.thumbnails = thumbnailsOf(urls, v.id);
  return video;
}

/** The features object of these flags: one of 16 frozen objects, shared by every video with the same flags. */
export const sharedFeatures = featuresOf as (f: PublicVideo['features']) => PublicVideo['features'];

/** A commenter as the API shows them, from the catalogue's author of a comment. */
export function toAuthor(author: PublicComment['author'], urls: Urls): CommentThread['author'] {
  const shown: CommentThread['author'] = {
    displayName: author.displayName,
    avatarUrl: author.avatarUrl ?? urls.avatar(author.username ?? avatarNameFor(author.displayName)),
  };
  if (author.username !== undefined) shown.username = author.username;
  return shown;
}

/** A published comment as the model keeps it. `author`: the catalogue's (the model shares one object per distinct author; never mutated). */
export function toStoredComment(c: PublicComment, author: PublicComment['author']): StoredComment {
  return { id: c.id, author, text: c.text, likes: c.likes, publishedAt: c.publishedAt };
}

/** A reply as the API shows it, from the stored comment, its video's id and its thread's. */
export function toReply(videoId: string, parentId: string, c: StoredComment, urls: Urls): Reply {
  return { id: c.id, videoId, parentId, author: toAuthor(c.author, urls), text: c.text, likes: c.likes, publishedAt: c.publishedAt };
}

/** A top-level comment as the API shows it, with its replies oldest first. */
export function toThread(videoId: string, t: StoredThread, urls: Urls): CommentThread {
  return {
    id: t.id, videoId, parentId: null, author: toAuthor(t.author, urls),
    text: t.text, likes: t.likes, publishedAt: t.publishedAt,
    replyCount: t.replies.length, replies: t.replies.map((r) => toReply(videoId, t.id, r, urls)),
  };
}

export function toCategory(id: string, name: string, videoCount: number): Category {
  return { id, name, videoCount };
}

const PREFERRED_HEIGHT = 720;

/** Playback capabilities: qualities best first; the default is the best at or under 720p. */
export function toPlayback(v: PublicVideo, urls: Urls): Playback {
  const sources = [...v.sources].sort((a, b) => b.height - a.height || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  const qualities = [...new Set(sources.map((s) => s.height))].map((height) => ({ label: `${height}p`, height }));
  const preferred = qualities.find((q) => q.height <= PREFERRED_HEIGHT) ?? qualities[qualities.length - 1];
  return {
    videoId: v.id,
    modes: ['inline', 'theater', 'fullscreen', 'pip'],
    qualities,
    ...(preferred && { defaultQuality: preferred.label }),
    sources: sources.map((s) => ({ url: urls.media(s.url), type: s.type, quality: `${s.height}p`, height: s.height })),
    captions: v.captions.map((c) => (c.url === undefined ? { lang: c.lang, label: c.label } : { lang: c.lang, label: c.label, url: urls.media(c.url) })),
    '3d': v.features['3d'] ? { available: true, layout: 'side-by-side' } : { available: false },
    calmAudio: { available: v.features.calm },
    restrictedMode: { available: v.features.restricted },
  };
}
