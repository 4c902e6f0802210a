// A dependency-free PNG writer (RFC 2083: signature, IHDR, one zlib IDAT, IEND) and the pictures
// the site draws with it: placeholder thumbnails social sites can render (they refuse SVG) and the
// favicon. RGB, 8 bits a channel, no interlace; deterministic bytes for the same input.
import { deflateSync } from 'node:zlib';

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(parts: readonly Uint8Array[]): number {
  let c = 0xffffffff;
  for (const bytes of parts) for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32([head.subarray(4), data]), 0);
  return Buffer.concat([head, data, crc]);
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Draws one pixel: its RGB (or RGBA with `alpha`) into `out` at `offset`. */
export type Painter = (x: number, y: number, out: Uint8Array, offset: number) => void;

/** Encodes a picture of `width` × `height` pixels painted by `paint` (RGB, or RGBA with `alpha`). */
export function encodePng(width: number, height: number, paint: Painter, options: { alpha?: boolean } = {}): Buffer {
  const channels = options.alpha ? 4 : 3;
  const stride = width * channels + 1;
  const raw = new Uint8Array(stride * height);
  const row = new Uint8Array(stride);
  const above = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) paint(x, y, row, 1 + x * channels);
    // filter "Up" (each byte less the one above): smooth pictures become runs zlib packs fast
    const at = y * stride;
    raw[at] = 2;
    for (let i = 1; i < stride; i++) raw[at + i] = (row[i]! - above[i]!) & 0xff;
    above.set(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = options.alpha ? 6 : 2; // colour type: RGBA or RGB
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(raw, { level: 6 })), chunk('IEND', new Uint8Array(0))]);
}

/** HSL (h in degrees, s and l from 0 to 1) to RGB bytes. */
export function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

/** Whether (x, y) lies in the play triangle centred on (cx, cy) with half-height r. */
function inPlayTriangle(x: number, y: number, cx: number, cy: number, r: number): boolean {
  const left = cx - r * 0.55;
  const right = cx + r * 0.75;
  if (x < left || x > right) return false;
  const half = r * (right - x) / (right - left);
  return Math.abs(y - cy) <= half;
}

/**
 * A placeholder thumbnail (no text): a diagonal gradient of the video's hue and a light disc with a
 * play triangle, the raster twin of the SVG placeholder (src/server/placeholder-image.ts).
 */
export function placeholderPng(hue: number, width: number, height: number): Buffer {
  const top = hslToRgb(hue, 0.45, 0.42);
  const bottom = hslToRgb((hue + 40) % 360, 0.45, 0.24);
  const disc = hslToRgb(hue, 0.45, 0.85);
  const cx = width / 2;
  const cy = height / 2;
  const r = Math.min(width, height) * 0.133;
  const span = width + height;
  return encodePng(width, height, (x, y, out, o) => {
    const dx = x + 0.5 - cx;
    const dy = y + 0.5 - cy;
    let colour: readonly number[];
    if (dx * dx + dy * dy <= r * r) colour = inPlayTriangle(x + 0.5, y + 0.5, cx, cy, r * 0.6) ? top : disc;
    else {
      const t = (x + y) / span;
      colour = [top[0] + (bottom[0] - top[0]) * t, top[1] + (bottom[1] - top[1]) * t, top[2] + (bottom[2] - top[2]) * t];
    }
    out[o] = colour[0]!;
    out[o + 1] = colour[1]!;
    out[o + 2] = colour[2]!;
  });
}

/** The site's icon (blue rounded square, white play triangle) as an RGBA PNG of `size` pixels. */
export function iconPng(size: number): Buffer {
  const radius = size * 7 / 32;
  return encodePng(size, size, (x, y, out, o) => {
    const px = x + 0.5;
    const py = y + 0.5;
    const qx = Math.max(radius - px, 0, px - (size - radius));
    const qy = Math.max(radius - py, 0, py - (size - radius));
    const inside = qx * qx + qy * qy <= radius * radius;
    const play = px >= size * 12 / 32 && px <= size * 23 / 32 && Math.abs(py - size / 2) <= (size * 23 / 32 - px) * 7 / 11;
    const [r, g, b] = play ? [255, 255, 255] : [0x34, 0x51, 0xb2];
    out[o] = r; out[o + 1] = g; out[o + 2] = b; out[o + 3] = inside ? 255 : 0;
  }, { alpha: true });
}

/** A .ico file holding PNG images (Windows Vista's format, read by every browser). */
export function icoOf(pngs: readonly { size: number; png: Buffer }[]): Buffer {
  const head = Buffer.alloc(6 + 16 * pngs.length);
  head.writeUInt16LE(0, 0);
  head.writeUInt16LE(1, 2); // type: icon
  head.writeUInt16LE(pngs.length, 4);
  let offset = head.length;
  pngs.forEach(({ size, png }, i) => {
    const at = 6 + 16 * i;
    head[at] = size >= 256 ? 0 : size;
    head[at + 1] = size >= 256 ? 0 : size;
    head.writeUInt16LE(1, at + 4); // colour planes
    head.writeUInt16LE(32, at + 6); // bits per pixel
    head.writeUInt32LE(png.length, at + 8);
    head.writeUInt32LE(offset, at + 12);
    offset += png.length;
  });
  return Buffer.concat([head, ...pngs.map((p) => p.png)]);
}
