// GET /v1/videos/{id}/comments: published top-level threads, newest first, with their replies.
import { defineEndpoint } from '../endpoint.ts';
import { canonicalPage, paginate, readPageSpec, type PageSpec } from '../paging.ts';
import { PagingQuery } from '../params.ts';
import { parseQuery } from '../query.ts';
import { CommentPage } from '../schemas.ts';
import { findVideo, readVideoId } from './video-lookup.ts';

export const videoComments = defineEndpoint<{ id: string; page: PageSpec }>({
  name: 'video-comments',
  path: '/v1/videos/:id/comments',
  response: CommentPage,
  cache: 'snapshot',
  parse(path, search) {
    const id = readVideoId(path);
    return { id, page: readPageSpec(`/v1/videos/${encodeURIComponent(id)}/comments`, {}, parseQuery(PagingQuery, search)) };
  },
  canonical: ({ page }) => canonicalPage(page),
  handle({ id, page }, { model }) {
    return paginate(findVideo(model, id).threads, page, (thread) => thread);
  },
});
