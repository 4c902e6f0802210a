// GET /v1/videos/{id}: one public or unlisted video.
import { defineEndpoint } from '../endpoint.ts';
import { NoQuery } from '../params.ts';
import { parseQuery } from '../query.ts';
import { VideoResponse } from '../schemas.ts';
import { findVideo, readVideoId } from './video-lookup.ts';

export const getVideo = defineEndpoint<{ id: string }>({
  name: 'get-video',
  path: '/v1/videos/:id',
  response: VideoResponse,
  cache: 'snapshot',
  parse(path, search) {
    const id = readVideoId(path);
    parseQuery(NoQuery, search);
    return { id };
  },
  canonical: ({ id }) => `/v1/videos/${encodeURIComponent(id)}`,
  handle({ id }, { model }) {
    const entry = findVideo(model, id);
    return { body: { data: entry.resource }, noindex: entry.video.privacy === 'unlisted' };
  },
});
