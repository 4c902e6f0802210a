// GET /v1/videos/{id}/related: related public videos, computed at build time.
import { VideoPage } from '../../model/schemas.ts';
import { findVideo } from './lookup.ts';
import { defineNestedList } from './nested-list.ts';

export const videoRelated = defineNestedList({
  name: 'video-related',
  path: '/v1/videos/:id/related',
  kind: 'video',
  response: VideoPage,
  docs: {
    summary: 'Related videos',
    description: 'Up to 100 public videos related to this one (same category, shared tags, same creator), best first, computed at build time. An unlisted video\'s list answers with `X-Robots-Tag: noindex`, as the video does.',
    tag: 'Videos',
  },
  items: (model, id) => Array.from(findVideo(model, id).related),
  toItem: (index: number, model) => model.entries[index]!.resource,
  unlisted: (model, id) => findVideo(model, id).video.privacy === 'unlisted',
});
