// GET /v1/videos/{id}/comments: published top-level threads, newest first, with their replies.
import { toThread } from '../../model/resources.ts';
import { CommentPage } from '../../model/schemas.ts';
import { findVideo } from './lookup.ts';
import { defineNestedList } from './nested-list.ts';

export const videoComments = defineNestedList({
  name: 'video-comments',
  path: '/v1/videos/:id/comments',
  kind: 'video',
  response: CommentPage,
  docs: {
    summary: "A video's comments",
    description: 'Published top-level comments on a public or unlisted video, newest first, each with its published replies. An unlisted video\'s comments answer with `X-Robots-Tag: noindex`, as the video does.',
    tag: 'Videos',
  },
  items: (model, id) => findVideo(model, id).storedThreads,
  // only the page's threads are made into resources
  toItem: (thread, model, id) => toThread(id, thread, model.urls),
  unlisted: (model, id) => findVideo(model, id).video.privacy === 'unlisted',
});
