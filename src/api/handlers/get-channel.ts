// GET /v1/channels/{username}: one channel with its counts, and whether it is live now (read at
// request time, so the answer is not prerendered).
import { channelAsOf, liveNow } from '../../model/live.ts';
import { ChannelResponse } from '../../model/schemas.ts';
import { findChannel } from './lookup.ts';
import { defineSingleResource } from './single-resource.ts';

export const getChannel = defineSingleResource({
  name: 'get-channel',
  path: '/v1/channels/:username',
  kind: 'channel',
  response: ChannelResponse,
  docs: {
    summary: 'One channel',
    description: 'A public channel, with its counts and whether it is live now.',
    tag: 'Channels',
  },
  cache: 'live',
  find: ({ model, liveStreams }, username) => ({ data: channelAsOf(findChannel(model, username), liveNow(liveStreams())), unlisted: false }),
});
