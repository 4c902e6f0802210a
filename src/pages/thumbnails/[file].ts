// Generated thumbnails (`/thumbnails/{id}.svg`) for visible videos without a catalogue thumbnail.
import type { APIRoute } from 'astro';
import { finishDocument, notFoundResponse } from '../../server/astro-routes.ts';
import { thumbnailSvg } from '../../server/placeholder-image.ts';

export const GET: APIRoute = ({ params, request, locals }) => {
  const id = params.file?.endsWith('.svg') ? params.file.slice(0, -4) : undefined;
  const entry = id === undefined ? undefined : locals.context.model.videos.get(id);
  if (!entry) return notFoundResponse(request, locals);
  return finishDocument(Buffer.from(thumbnailSvg(entry.video.id, entry.video.title)), 'image/svg+xml', request);
};
