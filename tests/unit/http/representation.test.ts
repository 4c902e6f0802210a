// The representation layer every sender shares: variant choice from metadata, variant ETags, and the
// header sets of a 200 and of a 304.
import { describe, expect, it } from 'vitest';
import { etagOf } from '../../../src/http/etag.ts';
import { chooseEncoding, headerLines, headerSet, variantEtag, type ResourceHeaders } from '../../../src/http/representation.ts';

const body = Buffer.from('x'.repeat(3000));
const resource: ResourceHeaders = { etag: etagOf(body), contentType: 'application/json; charset=utf-8', varies: true, fields: ['cache-control', 'public, max-age=60', 'link', '<https://x/next>; rel="next"'] };
const asMap = (flat: readonly string[]) => new Map(flat.flatMap((v, i) => (i % 2 === 0 ? [[v, flat[i + 1]!] as const] : [])));

describe('chooseEncoding', () => {
  it('picks the most preferred encoding the resource has, br before gzip at equal weight', () => {
    expect(chooseEncoding({ br: 1, gzip: 1 }, 'gzip, br')).toBe('br');
    expect(chooseEncoding({ br: 1, gzip: 1 }, 'br;q=0.5, gzip')).toBe('gzip');
    expect(chooseEncoding({ gzip: 1 }, 'br')).toBeUndefined();
    expect(chooseEncoding({ gzip: 1 }, 'br, gzip;q=0.1')).toBe('gzip');
    expect(chooseEncoding({ br: 1, gzip: 1 }, 'gzip;q=0, br;q=0')).toBeUndefined();
  });

  it('sends the identity when the resource has no variants or the client accepts none', () => {
    expect(chooseEncoding({}, 'br, gzip')).toBeUndefined();
    expect(chooseEncoding({ br: 1, gzip: 1 }, undefined)).toBeUndefined();
  });
});

describe('variantEtag', () => {
  it('keeps the identity ETag for the identity and gives each variant the same stamp with its own length', () => {
    expect(variantEtag(resource.etag, undefined, body.length)).toBe(resource.etag);
    const br = variantEtag(resource.etag, 'br', 42);
    expect(br).toMatch(/-2a"$/);
    expect(br.slice(0, br.lastIndexOf('-'))).toBe(resource.etag.slice(0, resource.etag.lastIndexOf('-')));
  });
});

describe('headerSet', () => {
  it('gives a 200 its CORS, validator, fields, Vary, type, length and encoding', () => {
    const ok = asMap(headerSet(resource, 'gzip', 100, false));
    expect(ok.get('access-control-allow-origin')).toBe('*');
    expect(ok.get('etag')).toBe(variantEtag(resource.etag, 'gzip', 100));
    expect(ok.get('cache-control')).toBe('public, max-age=60');
    expect(ok.get('link')).toBe('<https://x/next>; rel="next"');
    expect(ok.get('vary')).toBe('Accept-Encoding');
    expect(ok.get('content-type')).toBe(resource.contentType);
    expect(ok.get('content-length')).toBe('100');
    expect(ok.get('content-encoding')).toBe('gzip');
  });

  it('gives a 304 the same set without type, length and encoding', () => {
    const ok = asMap(headerSet(resource, 'br', 80, false));
    const notModified = asMap(headerSet(resource, 'br', 80, true));
    expect([...notModified.keys()].sort()).toEqual([...ok.keys()].filter((k) => !['content-type', 'content-length', 'content-encoding'].includes(k)).sort());
    expect(notModified.get('etag')).toBe(ok.get('etag'));
  });

  it('says nothing of Vary or encoding for a resource without variants', () => {
    const ok = asMap(headerSet({ ...resource, varies: false }, undefined, body.length, false));
    expect(ok.has('vary')).toBe(false);
    expect(ok.has('content-encoding')).toBe(false);
    expect(ok.get('etag')).toBe(resource.etag);
  });
});

describe('headerLines', () => {
  it('writes the lines of a raw head, the lines before first, ending with the blank line', () => {
    expect(headerLines(['etag', '"1-2"'], [['cache-tag', 'api']], 'keep-alive: timeout=65\r\n').toString('latin1'))
      .toBe('cache-tag: api\r\netag: "1-2"\r\nkeep-alive: timeout=65\r\n\r\n');
  });

  it('owns its bytes: kept with a page or answer, they never hold a 64 KB slice of the shared buffer pool alive', () => {
    const lines = headerLines(['etag', '"1-2"', 'content-type', 'application/json; charset=utf-8']);
    expect(lines.byteOffset).toBe(0);
    expect(lines.buffer.byteLength).toBe(lines.length);
    // a second set is not a neighbour in the same allocation
    expect(headerLines(['etag', '"3-4"']).buffer).not.toBe(lines.buffer);
  });
});
