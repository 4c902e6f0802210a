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
    description: 'The public and unlisted videos of a public or unlisted playlist, in playlist order; private entries are skipped. An unlisted playlist\'s list answers with `X-Robots-Tag: noindex`, as the playlist does.',
    tag: 'Playlists',
  },
  items: (model, id) => findPlaylist(model, id).videos,
  toItem: (entry) => entry.resource,
  writeItem: (entry, out) => entry.writeJson(out),
  unlisted: (model, id) => findPlaylist(model, id).playlist.privacy === 'unlisted',
});
