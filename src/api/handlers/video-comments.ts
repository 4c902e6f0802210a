// GET /v1/videos/{id}/comments: published top-level threads, newest first, with their replies.
import { CommentPage } from '../schemas.ts';
import { findVideo } from './lookup.ts';
import { defineNestedList } from './nested-list.ts';

export const videoComments = defineNestedList({
  name: 'video-comments',
  path: '/v1/videos/:id/comments',
  kind: 'video',
  response: CommentPage,
  items: (model, id) => findVideo(model, id).threads,
  toItem: (thread) => thread,
});
