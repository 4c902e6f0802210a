// GET /v1/videos/{id}/related: related public videos, computed at build time.
import { VideoPage } from '../schemas.ts';
import { findVideo } from './lookup.ts';
import { defineNestedList } from './nested-list.ts';

export const videoRelated = defineNestedList({
  name: 'video-related',
  path: '/v1/videos/:id/related',
  kind: 'video',
  response: VideoPage,
  items: (model, id) => Array.from(findVideo(model, id).related),
  toItem: (index: number, model) => model.entries[index]!.resource,
});
