// A video's chapters as a WebVTT `kind="chapters"` track (/embed/{id}/chapters.vtt), beside its
// player, which loads it; 404 for a video that is unknown, private or without chapters.
import type { APIRoute } from 'astro';
import { writeChaptersVtt } from '../../../player/chapters.ts';
import { finishDocument, notFoundResponse } from '../../../server/astro-routes.ts';

export const GET: APIRoute = ({ params, request, locals }) => {
  const entry = locals.context.model.videos.get(params.id ?? '');
  const chapters = entry?.video.chapters ?? [];
  if (!entry || chapters.length === 0) return notFoundResponse(request, locals);
  return finishDocument(Buffer.from(writeChaptersVtt(chapters, entry.video.duration)), 'text/vtt; charset=utf-8', request);
};
