// src/http/negotiate.ts: the representation (identity, br or gzip), its ETag and 304s.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compress, MIN_COMPRESSIBLE } from '../../../src/http/encoding.ts';
import { etagFor } from '../../../src/http/etag.ts';
import { negotiate } from '../../../src/http/negotiate.ts';


const ETAG = '"5e1f00d-7d0"';

describe('negotiate', () => {
  const identity = Buffer.from(JSON.stringify({ data: 'x'.repeat(4 * MIN_COMPRESSIBLE) }));
  const variants = { identity, br: compress(identity, 'br', 'build'), gzip: compress(identity, 'gzip', 'build') };

  it('sends the br variant, with its own ETag, to a client that accepts br', () => {
    const chosen = negotiate(variants, ETAG, 'gzip, br', undefined, false);
    expect(chosen).toMatchObject({ encoding: 'br', etag: etagFor(ETAG, variants.br.length), vary: true, notModified: false });
    expect(chosen.body).toBe(variants.br);
  });

  it('sends the gzip variant to a client that accepts only gzip', () => {
    const chosen = negotiate(variants, ETAG, 'gzip', undefined, false);
    expect(chosen).toMatchObject({ encoding: 'gzip', etag: etagFor(ETAG, variants.gzip.length) });
    expect(chosen.body).toBe(variants.gzip);
  });

  it('sends identity to a client that accepts no encoding, still varying on Accept-Encoding', () => {
    const chosen = negotiate(variants, ETAG, undefined, undefined, false);
    expect(chosen).toMatchObject({ encoding: undefined, etag: ETAG, vary: true });
    expect(chosen.body).toBe(identity);
  });

  it('falls back to the gzip variant when the client accepts gzip but no br variant exists', () => {
    const chosen = negotiate({ identity, gzip: variants.gzip }, ETAG, 'br, gzip', undefined, false);
    expect(chosen.encoding).toBe('gzip');
    expect(chosen.body).toBe(variants.gzip);
  });

  it('sends identity without Vary when a static page has no compressed variants', () => {
    const chosen = negotiate({ identity }, ETAG, 'br, gzip', undefined, false);
    expect(chosen).toMatchObject({ encoding: undefined, etag: ETAG, vary: false });
    expect(chosen.body).toBe(identity);
  });

  it('compresses a large dynamic body on demand', () => {
    const br = negotiate({ identity }, ETAG, 'br', undefined, true);
    expect(br).toMatchObject({ encoding: 'br', etag: etagFor(ETAG, br.body.length), vary: true });
    expect(brotliDecompressSync(br.body).equals(identity)).toBe(true);
    const gz = negotiate({ identity }, ETAG, 'gzip', undefined, true);
    expect(gunzipSync(gz.body).equals(identity)).toBe(true);
  });

  it('leaves a body under the compression threshold as it is', () => {
    const small = Buffer.from('{"data":1}');
    expect(small.length).toBeLessThan(MIN_COMPRESSIBLE);
    const chosen = negotiate({ identity: small }, ETAG, 'br', undefined, true);
    expect(chosen).toMatchObject({ encoding: undefined, vary: false, etag: ETAG });
    expect(chosen.body).toBe(small);
  });

  it('answers 304 when If-None-Match names the representation it would send', () => {
    expect(negotiate(variants, ETAG, 'br', etagFor(ETAG, variants.br.length), false).notModified).toBe(true);
    expect(negotiate(variants, ETAG, 'gzip', etagFor(ETAG, variants.gzip.length), false).notModified).toBe(true);
    expect(negotiate(variants, ETAG, undefined, ETAG, false).notModified).toBe(true);
    expect(negotiate(variants, ETAG, undefined, '*', false).notModified).toBe(true);
    // another representation's tag: the client has other bytes
    expect(negotiate(variants, ETAG, 'gzip', etagFor(ETAG, variants.br.length), false).notModified).toBe(false);
    expect(negotiate(variants, ETAG, 'br', ETAG, false).notModified).toBe(false);
  });

  it('answers 200 when If-None-Match names other content', () => {
    expect(negotiate(variants, ETAG, 'br', '"stale"', false).notModified).toBe(false);
  });
});
