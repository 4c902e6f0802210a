// GET /v1/videos/{id}/related: related public videos, computed at build time.
import { defineEndpoint } from '../endpoint.ts';
import { canonicalPage, paginate, readPageSpec, type PageSpec } from '../paging.ts';
import { PagingQuery } from '../params.ts';
import { parseQuery } from '../query.ts';
import { VideoPage } from '../schemas.ts';
import { findVideo, readVideoId } from './video-lookup.ts';

export const videoRelated = defineEndpoint<{ id: string; page: PageSpec }>({
  name: 'video-related',
  path: '/v1/videos/:id/related',
  response: VideoPage,
  cache: 'snapshot',
  parse(path, search) {
    const id = readVideoId(path);
    return { id, page: readPageSpec(`/v1/videos/${encodeURIComponent(id)}/related`, {}, parseQuery(PagingQuery, search)) };
  },
  canonical: ({ page }) => canonicalPage(page),
  handle({ id, page }, { model }) {
    const entry = findVideo(model, id);
    return paginate(Array.from(entry.related), page, (j) => model.entries[j]!.resource);
  },
});
