// Generated pictures (`/thumbnails/live/{username}.svg`) for live-channel records.
import type { APIRoute } from 'astro';
import { finishDocument, notFoundResponse } from '../../../server/astro-routes.ts';
import { thumbnailSvg } from '../../../server/placeholder-image.ts';

export const GET: APIRoute = ({ params, request, locals }) => {
  const username = params.file?.endsWith('.svg') ? params.file.slice(0, -4) : undefined;
  const entry = username === undefined ? undefined : locals.context.model.channels.get(username);
  if (!entry) return notFoundResponse(request, locals);
  return finishDocument(Buffer.from(thumbnailSvg(`live:${entry.channel.username}`, `${entry.channel.displayName}: live`)), 'image/svg+xml', request);
};
