// The PNG writer (src/site/png.ts): files a decoder accepts (signature, chunk CRCs, IHDR, the
// inflated image size), the pixels painted, and the .ico container.
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { encodePng, icoOf, iconPng, placeholderPng } from '../../../src/site/png.ts';

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

/** Reads a PNG's chunks, checking each CRC; returns IHDR's facts and the unfiltered rows. */
function decode(png: Buffer): { width: number; height: number; colourType: number; pixels: Uint8Array } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  let at = 8;
  let width = 0, height = 0, colourType = 0;
  const idat: Buffer[] = [];
  const types: string[] = [];
  while (at < png.length) {
    const length = png.readUInt32BE(at);
    const type = png.subarray(at + 4, at + 8).toString('latin1');
    const data = png.subarray(at + 8, at + 8 + length);
    expect(png.readUInt32BE(at + 8 + length), type).toBe(crc32(png.subarray(at + 4, at + 8 + length)));
    types.push(type);
    if (type === 'IHDR') { width = data.readUInt32BE(0); height = data.readUInt32BE(4); colourType = data[9]!; expect(data[8]).toBe(8); }
    if (type === 'IDAT') idat.push(data);
    at += 12 + length;
  }
  expect(types[0]).toBe('IHDR');
  expect(types.at(-1)).toBe('IEND');
  const raw = inflateSync(Buffer.concat(idat));
  const channels = colourType === 6 ? 4 : 3;
  const stride = width * channels + 1;
  expect(raw.length).toBe(stride * height);
  // undo the filters (this writer uses None or Up)
  const pixels = new Uint8Array(width * channels * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * stride]!;
    expect([0, 2]).toContain(filter);
    for (let i = 0; i < width * channels; i++) {
      const above = y > 0 ? pixels[(y - 1) * width * channels + i]! : 0;
      pixels[y * width * channels + i] = (raw[y * stride + 1 + i]! + (filter === 2 ? above : 0)) & 0xff;
    }
  }
  return { width, height, colourType, pixels };
}

describe('encodePng', () => {
  it('writes the pixels painted, losslessly', () => {
    const png = encodePng(7, 5, (x, y, out, o) => { out[o] = x * 30; out[o + 1] = y * 50; out[o + 2] = (x * y) % 256; });
    const { width, height, colourType, pixels } = decode(png);
    expect([width, height, colourType]).toEqual([7, 5, 2]);
    for (let y = 0; y < 5; y++) for (let x = 0; x < 7; x++) {
      const o = (y * 7 + x) * 3;
      expect([pixels[o], pixels[o + 1], pixels[o + 2]]).toEqual([x * 30, y * 50, (x * y) % 256]);
    }
  });

  it('draws placeholders at every named size, the same bytes for the same hue', () => {
    for (const [w, h] of [[120, 90], [320, 180], [480, 360], [640, 480], [1280, 720]] as const) {
      const png = placeholderPng(200, w, h);
      expect(decode(png)).toMatchObject({ width: w, height: h, colourType: 2 });
      expect(png.equals(placeholderPng(200, w, h))).toBe(true);
    }
    expect(placeholderPng(10, 120, 90).equals(placeholderPng(200, 120, 90))).toBe(false);
  });

  it('the icon is RGBA with transparent corners, packed in an .ico', () => {
    const png = iconPng(32);
    const { colourType, pixels } = decode(png);
    expect(colourType).toBe(6);
    expect(pixels[3]).toBe(0); // top-left corner: transparent
    expect(pixels[(16 * 32 + 4) * 4 + 3]).toBe(255); // inside
    const ico = icoOf([{ size: 32, png }]);
    expect([ico.readUInt16LE(2), ico.readUInt16LE(4), ico[6], ico.readUInt32LE(14), ico.readUInt32LE(18)]).toEqual([1, 1, 32, png.length, 22]);
    expect(ico.subarray(22).equals(png)).toBe(true);
  });
});
