// Generated thumbnails for visible videos without a catalogue thumbnail: `/thumbnails/{id}.svg`
// (with the title) and the raster placeholders at the named sizes, `/thumbnails/{id}.{w}x{h}.png`
// (src/model/thumbnail-sizes.ts), which social sites and search engines render.
import type { APIRoute } from 'astro';
import { finishDocument, notFoundResponse } from '../../server/astro-routes.ts';
import { thumbnailPng, thumbnailSvg } from '../../server/placeholder-image.ts';
import { sizeNamed, THUMBNAIL_SIZES } from '../../model/thumbnail-sizes.ts';

export const GET: APIRoute = ({ params, request, locals }) => {
  const raster = /^(.+)\.(\d{2,4})x(\d{2,4})\.png$/.exec(params.file ?? '');
  if (raster) {
    const size = sizeNamed(Number(raster[2]), Number(raster[3]));
    const entry = size && locals.context.model.videos.get(raster[1]!);
    if (!size || !entry) return notFoundResponse(request, locals);
    const { width, height } = THUMBNAIL_SIZES[size];
    return finishDocument(thumbnailPng(entry.video.id, width, height), 'image/png', request);
  }
  const id = params.file?.endsWith('.svg') ? params.file.slice(0, -4) : undefined;
  const entry = id === undefined ? undefined : locals.context.model.videos.get(id);
  if (!entry) return notFoundResponse(request, locals);
  return finishDocument(Buffer.from(thumbnailSvg(entry.video.id, entry.video.title)), 'image/svg+xml', request);
};
