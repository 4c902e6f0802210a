// GET /v1/channels/{username}/videos: the channel's public videos, newest first.
import { VideoPage } from '../../model/schemas.ts';
import { findChannel } from './lookup.ts';
import { defineNestedList } from './nested-list.ts';

export const channelVideos = defineNestedList({
  name: 'channel-videos',
  path: '/v1/channels/:username/videos',
  kind: 'channel',
  response: VideoPage,
  docs: {
    summary: "A channel's videos",
    description: "The channel's public videos, newest first.",
    tag: 'Channels',
  },
  items: (model, username) => findChannel(model, username).videos,
  toItem: (entry) => entry.resource,
  writeItem: (entry, out) => entry.writeJson(out),
});
