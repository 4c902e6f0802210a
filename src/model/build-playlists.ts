// Playlists as the API serves them: public and unlisted ones by id, each with its visible videos
// in playlist order (private entries were dropped when the catalogue was read).
import type { Creator } from './schemas.ts';
import { memoiseJson } from '../lib/serialise.ts';
import type { PublicPlaylist } from '../catalogue/public-catalogue.ts';
import { toPlaylist } from './resources.ts';
import type { Urls } from './urls.ts';
import type { PlaylistEntry, VideoEntry } from './entries.ts';
import { runSteps, STEP_ITEMS, type Steps } from './steps.ts';

export type { PlaylistEntry };


export function buildPlaylists(
  playlists: readonly PublicPlaylist[],
  videos: ReadonlyMap<string, VideoEntry>,
  creators: ReadonlyMap<string, Creator>,
  urls: Urls,
): Map<string, PlaylistEntry> {
  return runSteps(buildPlaylistsInSteps(playlists, videos, creators, urls));
}

/** buildPlaylists in steps (steps.ts), a pause every few playlists. */
export function* buildPlaylistsInSteps(
  playlists: readonly PublicPlaylist[],
  videos: ReadonlyMap<string, VideoEntry>,
  creators: ReadonlyMap<string, Creator>,
  urls: Urls,
): Steps<Map<string, PlaylistEntry>> {
  let done = 0;
  const entries = new Map<string, PlaylistEntry>();
  for (const playlist of playlists) {
    const creator = creators.get(playlist.channel);
    if (!creator) throw new Error(`catalogue: playlist "${playlist.id}" names channel "${playlist.channel}", which does not exist`);
    const items: VideoEntry[] = [];
    for (const id of playlist.videoIds) {
      const entry = videos.get(id);
      if (entry) items.push(entry);
    }
    const cover = items.find((e) => e.video.privacy === 'public')?.resource;
    const resource = memoiseJson(toPlaylist(playlist, items.map((e) => e.video), cover, creator, urls));
    entries.set(playlist.id, { playlist, resource, videos: items });
    // a playlist costs about as many items as it lists
    done += 1 + items.length;
    if (done >= STEP_ITEMS) {
      done = 0;
      yield;
    }
  }
  return entries;
}
