// Generated pictures (`/thumbnails/playlists/{id}.svg`) for playlists without a public video.
import type { APIRoute } from 'astro';
import { finishDocument, notFoundResponse } from '../../../server/astro-routes.ts';
import { thumbnailSvg } from '../../../server/placeholder-image.ts';

export const GET: APIRoute = ({ params, request, locals }) => {
  const id = params.file?.endsWith('.svg') ? params.file.slice(0, -4) : undefined;
  const entry = id === undefined ? undefined : locals.context.model.playlists.get(id);
  if (!entry) return notFoundResponse(request, locals);
  return finishDocument(Buffer.from(thumbnailSvg(`playlist:${entry.playlist.id}`, entry.playlist.title)), 'image/svg+xml', request);
};
