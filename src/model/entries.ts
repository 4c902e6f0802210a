// The model's entries: a public video, channel or playlist with the resource the API shows and
// what the model links it to. Declared apart from the modules that build them so those modules
// and the list indexes can name each other's entries without importing each other.
import type { PublicChannel, PublicPlaylist, PublicVideo } from '../catalogue/public-catalogue.ts';
import type { DurationClass } from './durations.ts';
import type { ChannelProfile } from './resources.ts';
import type { CommentThread, Playlist, Video } from './schemas.ts';

export const VIDEO_SORTS = ['latest', 'trending', 'views', 'likes'] as const;
export type VideoSort = (typeof VIDEO_SORTS)[number];

export interface VideoEntry {
  /** position in Model.entries (catalogue order) */
  readonly index: number;
  readonly video: PublicVideo;
  readonly resource: Video;
  readonly trending: number;
  /** related public videos, best first, as indexes into Model.entries */
  readonly related: ArrayLike<number>;
  readonly durationClass: DurationClass | undefined;
  readonly threads: readonly CommentThread[];
}

export const CHANNEL_SORTS = ['subscribers', 'views', 'videos'] as const;
export type ChannelSort = (typeof CHANNEL_SORTS)[number];

export interface ChannelEntry {
  readonly channel: PublicChannel;
  readonly resource: ChannelProfile;
  /** public videos, newest first */
  readonly videos: readonly VideoEntry[];
  /** public playlists, most recently updated first (ties by id) */
  readonly playlists: readonly PlaylistEntry[];
}

export interface PlaylistEntry {
  readonly playlist: PublicPlaylist;
  readonly resource: Playlist;
  /** visible videos in playlist order */
  readonly videos: readonly VideoEntry[];
}
