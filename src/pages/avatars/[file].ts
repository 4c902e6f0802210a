// Generated avatars (`/avatars/{name}.svg`) for channels and commenters without a picture.
import type { APIRoute } from 'astro';
import { Key } from '../../catalogue/records.ts';
import { finishDocument, notFoundResponse } from '../../server/astro-routes.ts';
import { avatarSvg } from '../../server/placeholder-image.ts';

export const GET: APIRoute = ({ params, request, locals }) => {
  const name = params.file?.endsWith('.svg') ? params.file.slice(0, -4) : '';
  if (!Key.safeParse(name).success) return notFoundResponse(request, locals);
  const channel = locals.context.model.channels.get(name);
  return finishDocument(Buffer.from(avatarSvg(channel?.channel.displayName ?? name)), 'image/svg+xml', request);
};
