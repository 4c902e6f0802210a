// src/server/negotiate.ts and the encoding choice and compression it uses (src/api/encoding.ts).
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chooseEncoding, compress, MIN_COMPRESSIBLE } from '../../../src/api/encoding.ts';
import { contentStamp, etagOf } from '../../../src/api/respond.ts';
import { etagFor, matchesIfNoneMatch, negotiate } from '../../../src/server/negotiate.ts';

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

const ETAG = '"5e1f00d-7d0"';

describe('etagOf and etagFor', () => {
  it('writes "<stamp>-<length>" in hex, as nginx does for a file whose mtime is the stamp', () => {
    const body = Buffer.from('{"data":[1,2,3]}');
    const stamp = contentStamp(body);
    expect(etagOf(body)).toBe(`"${stamp.toString(16)}-${body.length.toString(16)}"`);
    expect(stamp).toBeGreaterThan(0);
    expect(stamp).toBeLessThan(2 ** 32);
    expect(etagOf(Buffer.from('{"data":[1,2,4]}'))).not.toBe(etagOf(body));
  });

  it('gives each representation its own strong ETag: the same stamp, its own length', () => {
    const br = etagFor(ETAG, 0x2a1);
    const gz = etagFor(ETAG, 0x2f3);
    expect([br, gz]).toEqual(['"5e1f00d-2a1"', '"5e1f00d-2f3"']);
    for (const tag of [br, gz]) expect(tag.startsWith('W/')).toBe(false);
  });
});

describe('matchesIfNoneMatch', () => {
  it('does not match without the header', () => {
    expect(matchesIfNoneMatch(undefined, ETAG)).toBe(false);
    expect(matchesIfNoneMatch('', ETAG)).toBe(false);
  });

  it('matches the same ETag', () => {
    expect(matchesIfNoneMatch(ETAG, ETAG)).toBe(true);
  });

  it('matches the weak form of the same ETag (If-None-Match compares weakly)', () => {
    expect(matchesIfNoneMatch(`W/${ETAG}`, ETAG)).toBe(true);
  });

  it('matches * whatever the ETag', () => {
    expect(matchesIfNoneMatch('*', ETAG)).toBe(true);
  });

  it('does not match the ETag of another representation of the same content (as nginx, which serves the same files)', () => {
    expect(matchesIfNoneMatch(etagFor(ETAG, 0x2a1), ETAG)).toBe(false);
    expect(matchesIfNoneMatch(`W/${etagFor(ETAG, 0x2f3)}`, ETAG)).toBe(false);
  });

  it('takes * only as the whole field', () => {
    expect(matchesIfNoneMatch(' * ', ETAG)).toBe(true);
    expect(matchesIfNoneMatch('"x", *', ETAG)).toBe(false);
  });

  it('matches when any member of a list matches', () => {
    expect(matchesIfNoneMatch(`"other", ${ETAG}`, ETAG)).toBe(true);
    expect(matchesIfNoneMatch(`"other",W/${ETAG} ,"third"`, ETAG)).toBe(true);
  });

  it('does not match other ETags, alone or in a list', () => {
    expect(matchesIfNoneMatch('"other"', ETAG)).toBe(false);
    expect(matchesIfNoneMatch('"5e1f00-7d0"', ETAG)).toBe(false);
    expect(matchesIfNoneMatch('"5e1f00d0-7d0"', ETAG)).toBe(false);
    expect(matchesIfNoneMatch('"x", W/"y", "15e1f00d-7d0"', ETAG)).toBe(false);
  });

  it('does not match an unquoted tag', () => {
    expect(matchesIfNoneMatch('5e1f00d-7d0', ETAG)).toBe(false);
  });
});

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
