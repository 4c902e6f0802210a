// Every endpoint of the API, and the matcher from a URL path to one of them. More specific paths
// come first (`/v1/videos/batch` before `/v1/videos/:id`).
import { batchVideos } from './handlers/batch-videos.ts';
import { channelPlaylists } from './handlers/channel-playlists.ts';
import { channelVideos } from './handlers/channel-videos.ts';
import { discovery } from './handlers/discovery.ts';
import { getChannel } from './handlers/get-channel.ts';
import { getPlaylist } from './handlers/get-playlist.ts';
import { getVideo } from './handlers/get-video.ts';
import { health } from './handlers/health.ts';
import { listCategories } from './handlers/list-categories.ts';
import { listChannels } from './handlers/list-channels.ts';
import { listLive } from './handlers/list-live.ts';
import { listVideos } from './handlers/list-videos.ts';
import { partner } from './handlers/partner.ts';
import { oembed } from './handlers/oembed.ts';
import { playlistVideos } from './handlers/playlist-videos.ts';
import { search } from './handlers/search.ts';
import { status } from './handlers/status.ts';
import { videoComments } from './handlers/video-comments.ts';
import { videoPlayback } from './handlers/video-playback.ts';
import { videoRelated } from './handlers/video-related.ts';
import type { Endpoint } from './endpoint.ts';

export const ENDPOINTS: readonly Endpoint<any>[] = [
  listVideos, batchVideos, getVideo, videoPlayback, videoRelated, videoComments,
  listChannels, getChannel, channelVideos, channelPlaylists, getPlaylist, playlistVideos,
  discovery, listCategories, listLive, search, health, status, partner, oembed,
];

export interface RouteMatch {
  readonly endpoint: Endpoint<any>;
  readonly params: Record<string, string>;
}

const compiled = ENDPOINTS.map((endpoint) => ({ endpoint, segments: endpoint.path.split('/').slice(1) }));

/** The endpoint for a raw (still percent-encoded) path, or undefined. */
export function matchRoute(rawPath: string): RouteMatch | undefined {
  const parts = rawPath.split('/').slice(1);
  for (const { endpoint, segments } of compiled) {
    if (segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let matched = true;
    for (let i = 0; i < segments.length && matched; i++) {
      const segment = segments[i]!;
      const part = parts[i]!;
      if (segment.startsWith(':')) {
        try {
          params[segment.slice(1)] = decodeURIComponent(part);
        } catch {
          matched = false;
        }
        matched &&= part !== '';
      } else {
        matched = segment === part;
      }
    }
    if (matched) return { endpoint, params };
  }
  return undefined;
}
