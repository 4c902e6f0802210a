// GET /v1/videos/batch?ids=a,b,c: up to 50 videos by id, in the order asked; the rest in `missing`.
import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { BatchQuery, MAX_BATCH } from '../params.ts';
import { invalidParameters } from '../problems.ts';
import { canonicalUrl, parseQuery } from '../query.ts';
import { VideoBatch } from '../../model/schemas.ts';

export { MAX_BATCH };

export const batchVideos = defineEndpoint<{ ids: string[] }>({
  name: 'batch-videos',
  path: '/v1/videos/batch',
  query: BatchQuery,
  response: VideoBatch,
  docs: {
    summary: 'Videos by id',
    description: `Up to ${MAX_BATCH} videos by id (comma-separated, duplicates and blanks ignored), in the order asked; ids that are unknown or private come back in \`missing\`.`,
    tag: 'Videos',
  },
  cache: 'snapshot',
  parse(_path, search) {
    const { ids: raw } = parseQuery(BatchQuery, search);
    const ids = [...new Set(raw.split(',').map((id) => id.trim()).filter((id) => id !== ''))];
    if (ids.length === 0) throw invalidParameters([{ parameter: 'ids', detail: `must name 1 to ${MAX_BATCH} comma-separated video ids` }]);
    if (ids.length > MAX_BATCH) {
      throw invalidParameters([{ parameter: 'ids', detail: `names ${ids.length} distinct ids; at most ${MAX_BATCH} are allowed per call` }]);
    }
    return { ids };
  },
  canonical: ({ ids }) => canonicalUrl('/v1/videos/batch', { ids: ids.join(',') }),
  handle({ ids }, { model }) {
    const data: unknown[] = [];
    const missing: string[] = [];
    for (const id of ids) {
      const entry = model.videos.get(id);
      if (entry) data.push(entry.resource);
      else missing.push(id);
    }
    return { body: { data, missing } };
  },
});

export type BatchBody = z.infer<typeof VideoBatch>;
