// GET /v1/videos/{id}/playback: player modes, qualities, sources and feature availability.
import { toPlayback } from '../../model/resources.ts';
import { defineEndpoint } from '../endpoint.ts';
import { NoQuery } from '../params.ts';
import { parseQuery } from '../query.ts';
import { PlaybackResponse } from '../schemas.ts';
import { findVideo, readVideoId } from './video-lookup.ts';

export const videoPlayback = defineEndpoint<{ id: string }>({
  name: 'video-playback',
  path: '/v1/videos/:id/playback',
  response: PlaybackResponse,
  cache: 'snapshot',
  parse(path, search) {
    const id = readVideoId(path);
    parseQuery(NoQuery, search);
    return { id };
  },
  canonical: ({ id }) => `/v1/videos/${encodeURIComponent(id)}/playback`,
  handle({ id }, { model }) {
    const entry = findVideo(model, id);
    return { body: { data: toPlayback(entry.video) }, noindex: entry.video.privacy === 'unlisted' };
  },
});
