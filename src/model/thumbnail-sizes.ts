// The named sizes of the pictures this service generates for videos without a catalogue thumbnail
// (docs/decisions.md, "Thumbnails at named sizes"): YouTube's names and sizes, so clients written
// for one read the other. Each is a PNG (social sites and search engines render no SVG) drawn by
// src/site/png.ts and served at /thumbnails/{id}.{width}x{height}.png.
import type { Urls } from './urls.ts';

export const THUMBNAIL_SIZES = {
  default: { width: 120, height: 90 },
  medium: { width: 320, height: 180 },
  high: { width: 480, height: 360 },
  standard: { width: 640, height: 480 },
  maxres: { width: 1280, height: 720 },
} as const satisfies Record<string, { width: number; height: number }>;

export type ThumbnailSize = keyof typeof THUMBNAIL_SIZES;
export const THUMBNAIL_SIZE_NAMES = Object.keys(THUMBNAIL_SIZES) as ThumbnailSize[];

export interface SizedThumbnail {
  readonly url: string;
  readonly width: number;
  readonly height: number;
}

/** The generated picture of a video at one named size. */
export function thumbnailAt(urls: Urls, videoId: string, size: ThumbnailSize): SizedThumbnail {
  const { width, height } = THUMBNAIL_SIZES[size];
  return { url: `${urls.base}/thumbnails/${encodeURIComponent(videoId)}.${width}x${height}.png`, width, height };
}

/** Every named size of a generated thumbnail, smallest first. */
export function thumbnailsOf(urls: Urls, videoId: string): Record<ThumbnailSize, SizedThumbnail> {
  return Object.fromEntries(THUMBNAIL_SIZE_NAMES.map((size) => [size, thumbnailAt(urls, videoId, size)])) as Record<ThumbnailSize, SizedThumbnail>;
}

/** The size named by a file name's `{width}x{height}`, if it is one of the named sizes. */
export function sizeNamed(width: number, height: number): ThumbnailSize | undefined {
  return THUMBNAIL_SIZE_NAMES.find((size) => THUMBNAIL_SIZES[size].width === width && THUMBNAIL_SIZES[size].height === height);
}
