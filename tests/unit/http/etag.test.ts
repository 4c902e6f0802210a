// src/http/etag.ts: ETags per representation and If-None-Match, the same rules as nginx's.
import { describe, expect, it } from 'vitest';
import { contentStamp, etagFor, etagOf, matchesIfNoneMatch } from '../../../src/http/etag.ts';


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
