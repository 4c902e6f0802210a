// What the rest of the system may know of the catalogue: public and unlisted records only, with
// every reference resolved. read-catalogue.ts is the only producer; the snapshot stores it as is.
import type { CaptionTrack, Chapter, FeatureFlags, MediaSource } from './records.ts';

export interface PublicCategory {
  readonly id: string;
  readonly name: string;
}

export interface PublicChannel {
  readonly username: string;
  readonly displayName: string;
  readonly description: string;
  readonly avatarUrl?: string | undefined;
  readonly bannerUrl?: string | undefined;
  readonly subscribers: number;
  readonly createdAt?: string | undefined;
}

export interface PublicVideo {
  readonly id: string;
  readonly channel: string;
  readonly title: string;
  readonly description?: string | undefined;
  readonly category?: string | undefined;
  readonly tags: readonly string[];
  readonly duration?: number | undefined;
  readonly views: number;
  readonly likes: number;
  readonly publishedAt: string;
  readonly updatedAt?: string | undefined;
  readonly privacy: 'public' | 'unlisted';
  readonly features: FeatureFlags;
  readonly thumbnailUrl?: string | undefined;
  readonly sources: readonly MediaSource[];
  readonly captions: readonly CaptionTrack[];
  readonly language?: string | undefined;
  /** sorted by start, inside the duration (validated on import); absent without chapters */
  readonly chapters?: readonly Chapter[] | undefined;
}

export interface PublicPlaylist {
  readonly id: string;
  readonly channel: string;
  readonly title: string;
  readonly description: string;
  readonly privacy: 'public' | 'unlisted';
  /** Visible (public or unlisted) videos only, in playlist order. */
  readonly videoIds: readonly string[];
  readonly createdAt?: string | undefined;
  readonly updatedAt?: string | undefined;
}

export interface PublicComment {
  readonly id: string;
  readonly videoId: string;
  readonly parentId: string | null;
  readonly text: string;
  readonly publishedAt: string;
  readonly author: { readonly displayName: string; readonly username?: string | undefined; readonly avatarUrl?: string | undefined };
  readonly likes: number;
}

export interface PublicLiveStream {
  readonly channel: string;
  readonly state: 'live' | 'upcoming' | 'offline';
  readonly title: string;
  readonly startedAt?: string | undefined;
  readonly scheduledFor?: string | undefined;
  readonly viewers?: number | undefined;
}

export interface PublicCatalogue {
  readonly categories: readonly PublicCategory[];
  readonly channels: readonly PublicChannel[];
  readonly videos: readonly PublicVideo[];
  readonly playlists: readonly PublicPlaylist[];
  readonly comments: readonly PublicComment[];
  /** live-stream records as of the build; the server reads fresh ones at request time */
  readonly live: readonly PublicLiveStream[];
}
