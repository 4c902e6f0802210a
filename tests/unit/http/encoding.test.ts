// src/http/encoding.ts: which content coding a client gets, and the compression behind it.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chooseEncoding, compress } from '../../../src/http/encoding.ts';

describe('chooseEncoding', () => {
  it('sends identity when Accept-Encoding is absent or empty', () => {
    expect(chooseEncoding(undefined)).toBeUndefined();
    expect(chooseEncoding('')).toBeUndefined();
  });

  it('picks the one encoding the client names', () => {
    expect(chooseEncoding('gzip')).toBe('gzip');
    expect(chooseEncoding('br')).toBe('br');
  });

  it('prefers br over gzip when both are equally acceptable, in either order', () => {
    expect(chooseEncoding('gzip, deflate, br')).toBe('br');
    expect(chooseEncoding('br, gzip')).toBe('br');
    expect(chooseEncoding('gzip;q=0.8, br;q=0.8')).toBe('br');
  });

  it('follows q-values when the client prefers gzip', () => {
    expect(chooseEncoding('br;q=0.5, gzip')).toBe('gzip');
    expect(chooseEncoding('br;q=0.1, gzip;q=0.2')).toBe('gzip');
  });

  it('never picks an encoding the client refuses with q=0', () => {
    expect(chooseEncoding('gzip;q=0')).toBeUndefined();
    expect(chooseEncoding('br;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0')).toBeUndefined();
    expect(chooseEncoding('br;q=0.000, gzip;q=0.0')).toBeUndefined();
  });

  it('treats * as every encoding not named', () => {
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('br;q=0, *')).toBe('gzip');
    expect(chooseEncoding('*;q=0')).toBeUndefined();
    expect(chooseEncoding('gzip, *;q=0')).toBe('gzip');
  });

  it('sends identity when the client accepts only identity or encodings it does not offer', () => {
    expect(chooseEncoding('identity')).toBeUndefined();
    expect(chooseEncoding('deflate, compress')).toBeUndefined();
    expect(chooseEncoding('zstd')).toBeUndefined();
  });

  it('treats x-gzip as gzip', () => {
    expect(chooseEncoding('x-gzip')).toBe('gzip');
    expect(chooseEncoding('x-gzip;q=0.5, br;q=0.4')).toBe('gzip');
  });

  it('reads names and parameters case-insensitively, with spaces around them', () => {
    expect(chooseEncoding('GZIP')).toBe('gzip');
    expect(chooseEncoding(' br ; Q=0 , gzip ; q=0.3 ')).toBe('gzip');
  });

  it('picks a small but positive q-value over nothing', () => {
    expect(chooseEncoding('gzip;q=0.001')).toBe('gzip');
  });
});

describe('compress', () => {
  const json = Buffer.from(JSON.stringify({ data: Array.from({ length: 200 }, (_, i) => ({ id: `video-${i}`, title: 'A title that repeats', views: i * 37 })) }));

  it.each(['build', 'request'] as const)('round-trips br and gzip at %s effort', (effort) => {
    expect(brotliDecompressSync(compress(json, 'br', effort)).equals(json)).toBe(true);
    expect(gunzipSync(compress(json, 'gzip', effort)).equals(json)).toBe(true);
  });

  it('makes repetitive JSON smaller', () => {
    expect(compress(json, 'br', 'build').length).toBeLessThan(json.length / 4);
    expect(compress(json, 'gzip', 'build').length).toBeLessThan(json.length / 4);
  });

  it('round-trips an empty body and a one-byte body', () => {
    for (const body of [Buffer.alloc(0), Buffer.from('x')]) {
      expect(brotliDecompressSync(compress(body, 'br', 'build')).equals(body)).toBe(true);
      expect(gunzipSync(compress(body, 'gzip', 'request')).equals(body)).toBe(true);
    }
  });

  it('compresses the same body to the same bytes every time', () => {
    expect(compress(json, 'br', 'build').equals(compress(json, 'br', 'build'))).toBe(true);
    expect(compress(json, 'gzip', 'build').equals(compress(json, 'gzip', 'build'))).toBe(true);
  });
});
