// GET /v1/channels/{username}/playlists: the channel's public playlists, most recently updated first.
import { PlaylistPage } from '../../model/schemas.ts';
import { findChannel } from './lookup.ts';
import { defineNestedList } from './nested-list.ts';

export const channelPlaylists = defineNestedList({
  name: 'channel-playlists',
  path: '/v1/channels/:username/playlists',
  kind: 'channel',
  response: PlaylistPage,
  docs: {
    summary: "A channel's playlists",
    description: "The channel's public playlists, most recently updated first. Unlisted and private playlists are never listed.",
    tag: 'Channels',
  },
  items: (model, username) => findChannel(model, username).playlists,
  toItem: (entry) => entry.resource,
});
