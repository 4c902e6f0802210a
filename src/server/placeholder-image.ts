// Generated SVG images for videos and channels the catalogue gives no picture for: a colour from
// the name's hash and up to two initials. Deterministic, so ETags only change with the name.
import { createHash } from 'node:crypto';
import { escapeMarkup } from '../lib/markup.ts';
import { placeholderPng } from '../site/png.ts';

function hue(name: string): number {
  return createHash('sha256').update(name).digest().readUInt16BE(0) % 360;
}

function initials(text: string): string {
  const words = text.split(/[\s_.-]+/).filter(Boolean);
  return words.slice(0, 2).map((w) => [...w][0]!.toUpperCase()).join('') || '?';
}

export function thumbnailSvg(id: string, title: string): string {
  const h = hue(id);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720" viewBox="0 0 1280 720"><rect width="1280" height="720" fill="hsl(${h} 45% 35%)"/><circle cx="640" cy="360" r="96" fill="hsl(${h} 45% 85%)"/><path d="M610 305v110l95-55z" fill="hsl(${h} 45% 35%)"/><text x="640" y="610" font-family="system-ui,sans-serif" font-size="44" fill="#fff" text-anchor="middle">${escapeMarkup(title.slice(0, 48))}</text></svg>`;
}

export function avatarSvg(name: string): string {
  const h = hue(name);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256"><rect width="256" height="256" rx="128" fill="hsl(${h} 50% 45%)"/><text x="128" y="150" font-family="system-ui,sans-serif" font-size="96" fill="#fff" text-anchor="middle">${escapeMarkup(initials(name))}</text></svg>`;
}

/** Recently drawn PNG placeholders: a page of cards asks for many, a crawler for the same again. */
const drawn = new Map<string, Buffer>();
const DRAWN_BYTES = 16 * 1024 * 1024;
let drawnBytes = 0;

/**
 * The raster twin of thumbnailSvg at one size (no text: the hue and a play sign), for sites that
 * render no SVG (Open Graph, Twitter cards, video sitemaps).
 */
export function thumbnailPng(id: string, width: number, height: number): Buffer {
  const key = `${width}x${height}/${id}`;
  const known = drawn.get(key);
  if (known) return known;
  const png = placeholderPng(hue(id), width, height);
  while (drawnBytes + png.length > DRAWN_BYTES && drawn.size > 0) {
    const [oldest, bytes] = drawn.entries().next().value!;
    drawn.delete(oldest);
    drawnBytes -= bytes.length;
  }
  drawn.set(key, png);
  drawnBytes += png.length;
  return png;
}
