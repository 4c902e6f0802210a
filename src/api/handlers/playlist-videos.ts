// GET /v1/playlists/{id}/videos: a public or unlisted playlist's visible videos, in playlist order.
import { VideoPage } from '../../model/schemas.ts';
import { findPlaylist } from './lookup.ts';
import { defineNestedList } from './nested-list.ts';

export const playlistVideos = defineNestedList({
  name: 'playlist-videos',
  path: '/v1/playlists/:id/videos',
  kind: 'playlist',
  response: VideoPage,
  docs: {
    summary: "A playlist's videos",
    description: 'The public and unlisted videos of a public or unlisted playlist, in playlist order; private entries are skipped.',
    tag: 'Playlists',
  },
  items: (model, id) => findPlaylist(model, id).videos,
  toItem: (entry) => entry.resource,
  writeItem: (entry, out) => entry.writeJson(out),
});
