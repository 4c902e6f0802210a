// GET /v1/channels/{username}: one channel with its counts.
import { ChannelResponse } from '../schemas.ts';
import { findChannel } from './lookup.ts';
import { defineSingleResource } from './single-resource.ts';

export const getChannel = defineSingleResource({
  name: 'get-channel',
  path: '/v1/channels/:username',
  kind: 'channel',
  response: ChannelResponse,
  find: (model, username) => ({ data: findChannel(model, username).resource, unlisted: false }),
});
