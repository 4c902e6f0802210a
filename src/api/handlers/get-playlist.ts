// GET /v1/playlists/{id}: one public or unlisted playlist (unlisted ones are served by id only).
import { PlaylistResponse } from '../../model/schemas.ts';
import { findPlaylist } from './lookup.ts';
import { defineSingleResource } from './single-resource.ts';

export const getPlaylist = defineSingleResource({
  name: 'get-playlist',
  path: '/v1/playlists/:id',
  kind: 'playlist',
  response: PlaylistResponse,
  docs: {
    summary: 'One playlist',
    description: 'A public or unlisted playlist. Unlisted playlists answer with `X-Robots-Tag: noindex`.',
    tag: 'Playlists',
    mayBeUnlisted: true,
  },
  find({ model }, id) {
    const entry = findPlaylist(model, id);
    return { data: entry.resource, unlisted: entry.playlist.privacy === 'unlisted' };
  },
});
