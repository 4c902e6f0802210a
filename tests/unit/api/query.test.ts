// src/api/query.ts (parseQuery, canonicalUrl) with the schemas of src/api/params.ts.
import { problemOf } from '../support/handlers.ts';
import { describe, expect, it } from 'vitest';
import { BatchQuery, DEFAULT_LIMIT, DurationFilter, FeatureFilter, Limit, ListVideosQuery, MAX_LIMIT, MAX_OFFSET, NoQuery, Offset, PagingQuery, Text, VideoSort } from '../../../src/api/params.ts';
import { ProblemError } from '../../../src/api/problems.ts';
import { canonicalUrl, parseQuery } from '../../../src/api/query.ts';
import { VIDEO_SORTS } from '../../../src/model/build-model.ts';

const q = (text: string) => new URLSearchParams(text);


const invalidNames = (error: ProblemError) => (error.errors ?? []).map((e) => e.parameter).sort();

describe('parseQuery with ListVideosQuery', () => {
  it('leaves every parameter absent when none is given (defaults are filled later)', () => {
    const parsed = parseQuery(ListVideosQuery, q(''));
    for (const name of ['sort', 'category', 'creator', 'duration', 'feature', 'q', 'limit', 'offset', 'cursor'] as const) {
      expect(parsed[name]).toBeUndefined();
    }
  });

  it('reads every valid parameter into its type', () => {
    const parsed = parseQuery(ListVideosQuery, q('sort=views&category=music&creator=alice&duration=long&feature=3d&q=cats&limit=5&offset=10'));
    expect(parsed).toEqual({ sort: 'views', category: 'music', creator: 'alice', duration: 'long', feature: '3d', q: 'cats', limit: 5, offset: 10 });
  });

  it.each(['latest', 'trending', 'views', 'likes'])('accepts sort=%s', (sort) => {
    expect(parseQuery(ListVideosQuery, q(`sort=${sort}`)).sort).toBe(sort);
  });

  it.each(['short', 'medium', 'long'])('accepts duration=%s', (duration) => {
    expect(parseQuery(ListVideosQuery, q(`duration=${duration}`)).duration).toBe(duration);
  });

  it.each(['3d', 'calm', 'restricted', 'captions'])('accepts feature=%s', (feature) => {
    expect(parseQuery(ListVideosQuery, q(`feature=${feature}`)).feature).toBe(feature);
  });

  it('accepts limit at both bounds, 1 and 50', () => {
    expect(parseQuery(ListVideosQuery, q('limit=1')).limit).toBe(1);
    expect(parseQuery(ListVideosQuery, q(`limit=${MAX_LIMIT}`)).limit).toBe(MAX_LIMIT);
    expect(MAX_LIMIT).toBe(50);
    expect(DEFAULT_LIMIT).toBe(20);
  });

  it.each(['0', '51', '1000', '-1'])('answers 400 when limit is %s', (limit) => {
    const error = problemOf(() => parseQuery(ListVideosQuery, q(`limit=${limit}`)));
    expect(error.status).toBe(400);
    expect(error.slug).toBe('invalid-parameter');
    expect(invalidNames(error)).toEqual(['limit']);
    expect(error.errors?.[0]?.detail).toMatch(/1 to 50/);
  });

  it('accepts offset 0 and large offsets', () => {
    expect(parseQuery(ListVideosQuery, q('offset=0')).offset).toBe(0);
    expect(parseQuery(ListVideosQuery, q('offset=1000000')).offset).toBe(1_000_000);
  });

  it('answers 400 when offset is negative', () => {
    expect(invalidNames(problemOf(() => parseQuery(ListVideosQuery, q('offset=-1'))))).toEqual(['offset']);
  });

  it.each(['1.5', '2.0', '1e1', '0x10', 'ten', ' 5', '5 ', '+5', '5a', 'Infinity', 'NaN', '1,000'])(
    'answers 400 when limit or offset is the non-integer %j', (value) => {
      const encoded = encodeURIComponent(value);
      expect(invalidNames(problemOf(() => parseQuery(ListVideosQuery, q(`limit=${encoded}`))))).toEqual(['limit']);
      expect(invalidNames(problemOf(() => parseQuery(ListVideosQuery, q(`offset=${encoded}`))))).toEqual(['offset']);
    });

  it.each(['sort', 'category', 'creator', 'duration', 'feature', 'q', 'limit', 'offset', 'cursor'])(
    'answers 400 when %s is given empty', (name) => {
      const error = problemOf(() => parseQuery(ListVideosQuery, q(`${name}=`)));
      expect(invalidNames(error)).toEqual([name]);
    });

  it('answers 400 for a value outside the allowed ones, listing them', () => {
    const error = problemOf(() => parseQuery(ListVideosQuery, q('sort=oldest')));
    expect(invalidNames(error)).toEqual(['sort']);
    expect(error.errors?.[0]?.detail).toMatch(/latest, trending, views, likes/);
  });

  it('matches enumerated values exactly, not case-insensitively', () => {
    expect(invalidNames(problemOf(() => parseQuery(ListVideosQuery, q('sort=Latest'))))).toEqual(['sort']);
  });

  it('trims q and accepts 1 to 200 characters', () => {
    expect(parseQuery(ListVideosQuery, q('q=%20%20cats%20')).q).toBe('cats');
    expect(parseQuery(ListVideosQuery, q(`q=${'a'.repeat(200)}`)).q).toBe('a'.repeat(200));
    expect(invalidNames(problemOf(() => parseQuery(ListVideosQuery, q(`q=${'a'.repeat(201)}`))))).toEqual(['q']);
    expect(invalidNames(problemOf(() => parseQuery(ListVideosQuery, q('q=%20%20%20'))))).toEqual(['q']);
  });

  it('refuses a repeated parameter, even with the same value twice', () => {
    const error = problemOf(() => parseQuery(ListVideosQuery, q('limit=5&limit=5')));
    expect(invalidNames(error)).toEqual(['limit']);
    expect(error.errors?.[0]?.detail).toMatch(/2 times/);
  });

  it('ignores unknown parameters, repeated or not', () => {
    expect(parseQuery(ListVideosQuery, q('foo=bar&limit=5&foo=baz&LIMIT=99&utm_source=x'))).toEqual({ limit: 5 });
  });

  it('reports every invalid parameter together in one problem', () => {
    const error = problemOf(() => parseQuery(ListVideosQuery, q('limit=0&offset=-1&sort=nope&duration=x&feature=4d&q=&category=')));
    expect(error.status).toBe(400);
    expect(invalidNames(error)).toEqual(['category', 'duration', 'feature', 'limit', 'offset', 'q', 'sort']);
    for (const e of error.errors ?? []) expect(e.detail.length).toBeGreaterThan(0);
    for (const name of invalidNames(error)) expect(error.message).toContain(name);
  });

  it('reports a repeated parameter together with the invalid ones', () => {
    const error = problemOf(() => parseQuery(ListVideosQuery, q('creator=a&creator=b&sort=x')));
    expect(invalidNames(error)).toEqual(['creator', 'sort']);
  });

  it('answers 400 when cursor and offset are both given', () => {
    const error = problemOf(() => parseQuery(ListVideosQuery, q('cursor=abc&offset=5')));
    expect(invalidNames(error)).toEqual(['cursor']);
    expect(error.errors?.[0]?.detail).toMatch(/offset/);
  });

  it('reports the cursor and offset conflict together with other invalid parameters', () => {
    const error = problemOf(() => parseQuery(ListVideosQuery, q('cursor=abc&offset=5&limit=0')));
    expect(invalidNames(error)).toEqual(['cursor', 'limit']);
  });

  it('accepts offset=0 alone, and cursor alone', () => {
    expect(parseQuery(ListVideosQuery, q('cursor=abc'))).toEqual({ cursor: 'abc' });
    expect(parseQuery(ListVideosQuery, q('offset=0'))).toEqual({ offset: 0 });
  });
});

describe('parseQuery with PagingQuery', () => {
  it('leaves limit, offset and cursor absent when none is given', () => {
    expect(parseQuery(PagingQuery, q(''))).toEqual({});
  });

  it('applies the same bounds as the video list', () => {
    expect(parseQuery(PagingQuery, q('limit=50&offset=0'))).toEqual({ limit: 50, offset: 0 });
    expect(invalidNames(problemOf(() => parseQuery(PagingQuery, q('limit=51&offset=-2'))))).toEqual(['limit', 'offset']);
  });

  it('ignores filters it does not know, such as sort', () => {
    expect(parseQuery(PagingQuery, q('sort=nonsense&limit=3'))).toEqual({ limit: 3 });
  });

  it('answers 400 when cursor and offset are both given', () => {
    expect(invalidNames(problemOf(() => parseQuery(PagingQuery, q('cursor=x&offset=0'))))).toEqual(['cursor']);
  });
});

describe('parseQuery with BatchQuery', () => {
  it('reads ids as given', () => {
    expect(parseQuery(BatchQuery, q('ids=a,b,c'))).toEqual({ ids: 'a,b,c' });
  });

  it('answers 400 naming ids when ids is missing', () => {
    const error = problemOf(() => parseQuery(BatchQuery, q('other=1')));
    expect(invalidNames(error)).toEqual(['ids']);
    expect(error.errors?.[0]?.detail).toMatch(/required/);
  });

  it('answers 400 when ids is repeated', () => {
    expect(invalidNames(problemOf(() => parseQuery(BatchQuery, q('ids=a&ids=b'))))).toEqual(['ids']);
  });
});

describe('parseQuery with NoQuery', () => {
  it('accepts any unknown parameters', () => {
    expect(parseQuery(NoQuery, q('a=1&a=2&b='))).toEqual({});
  });
});

describe('canonicalUrl', () => {
  it('sorts parameters by name', () => {
    const url = canonicalUrl('/v1/videos', { sort: 'latest', limit: 20, category: 'music', creator: 'bob' });
    const names = [...new URL(url, 'http://x.invalid').searchParams.keys()];
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(['category', 'creator', 'limit', 'sort']);
  });

  it('gives the same URL whatever order the parameters come in', () => {
    expect(canonicalUrl('/p', { b: '2', a: '1', c: 3 })).toBe(canonicalUrl('/p', { c: 3, a: '1', b: '2' }));
  });

  it('leaves out undefined parameters, and the ? when there are none', () => {
    expect(canonicalUrl('/v1/videos', { limit: 20, cursor: undefined })).toBe('/v1/videos?limit=20');
    expect(canonicalUrl('/v1/categories', {})).toBe('/v1/categories');
    expect(canonicalUrl('/v1/categories', { cursor: undefined })).toBe('/v1/categories');
  });

  it('percent-encodes values so they read back unchanged', () => {
    const values = { a: 'x y', b: 'a&b=c', c: '100%', d: 'caf\u00e9', e: 'a+b', f: 'a/b?c#d', g: '\u{1F600}' };
    const url = canonicalUrl('/p', values);
    const query = url.slice(url.indexOf('?') + 1);
    expect(query).not.toMatch(/[ #+?/]|&(?![a-g]=)/);
    const read = new URLSearchParams(query);
    for (const [name, value] of Object.entries(values)) expect(read.get(name)).toBe(value);
  });

  it('writes numbers in decimal', () => {
    expect(canonicalUrl('/p', { offset: 40 })).toBe('/p?offset=40');
  });

  it('keeps the empty string as a present, empty value', () => {
    expect(canonicalUrl('/p', { a: '' })).toBe('/p?a=');
  });
});

describe('parameter schemas', () => {
  it('offers exactly the sorts the model orders videos by', () => {
    expect(VideoSort.options).toEqual([...VIDEO_SORTS]);
    expect([...VIDEO_SORTS].sort()).toEqual(['latest', 'likes', 'trending', 'views']);
  });

  it('offers the three duration classes and the four feature flags', () => {
    expect([...DurationFilter.options].sort()).toEqual(['long', 'medium', 'short']);
    expect([...FeatureFilter.options].sort()).toEqual(['3d', 'calm', 'captions', 'restricted']);
  });

  it('turns a limit string into a number and leaves an absent one absent', () => {
    expect(Limit.parse('7')).toBe(7);
    expect(Limit.parse(undefined)).toBeUndefined();
  });

  it('accepts leading zeros as the same integer', () => {
    expect(Limit.parse('007')).toBe(7);
  });

  it('accepts offsets up to its maximum and refuses one more', () => {
    expect(Offset.parse(String(MAX_OFFSET))).toBe(MAX_OFFSET);
    expect(Offset.safeParse(String(MAX_OFFSET + 1)).success).toBe(false);
  });

  it('refuses a number where a string is expected', () => {
    expect(Limit.safeParse(5).success).toBe(false);
  });

  it('trims free text before checking its length', () => {
    expect(Text.parse('  two words  ')).toBe('two words');
    expect(Text.safeParse(' '.repeat(5)).success).toBe(false);
    expect(Text.safeParse(` ${'x'.repeat(200)} `).success).toBe(true);
  });
});
