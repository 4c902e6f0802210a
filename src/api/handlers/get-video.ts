// GET /v1/videos/{id}: one public or unlisted video.
import { VideoResponse } from '../../model/schemas.ts';
import { findVideo } from './lookup.ts';
import { defineSingleResource } from './single-resource.ts';

export const getVideo = defineSingleResource({
  name: 'get-video',
  path: '/v1/videos/:id',
  kind: 'video',
  response: VideoResponse,
  docs: {
    summary: 'One video',
    description: 'A public or unlisted video. Unlisted videos answer with `X-Robots-Tag: noindex`; private and unknown ids are 404.',
    tag: 'Videos',
    mayBeUnlisted: true,
  },
  find({ model }, id) {
    const entry = findVideo(model, id);
    return { data: entry.resource, unlisted: entry.video.privacy === 'unlisted' };
  },
});
