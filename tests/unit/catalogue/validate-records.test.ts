import { describe, expect, it } from 'vitest';
import type { NumberedLine } from '../../../src/catalogue/read-ndjson.ts';
import { validateRecords, type ExistingKeys, type LineError } from '../../../src/catalogue/validate-records.ts';
import { rawCategory, rawChannel, rawComment, rawPlaylist, rawVideo, type Raw } from '../support/fixtures.ts';

const NOTHING: ExistingKeys = { categories: new Set(), channels: new Set(), videos: new Set(), comments: new Map() };

const lines = (records: readonly (Raw | string)[]): NumberedLine[] =>
  records.map((r, i) => ({ line: i + 1, text: typeof r === 'string' ? r : JSON.stringify(r) }));

const validate = (records: readonly (Raw | string)[], existing: ExistingKeys = NOTHING) => validateRecords(lines(records), existing);

/** The only error, checked to be on `line` and `field`. */
function onlyError(errors: readonly LineError[], line: number, field: string): LineError {
  expect(errors.map((e) => [e.line, e.field])).toEqual([[line, field]]);
  return errors[0]!;
}

const base = [rawCategory('music'), rawChannel('alice')];

describe('validateRecords: valid input', () => {
  it('accepts a catalogue whose references resolve within the file, in any order', () => {
    const { records, errors } = validate([
      rawComment('r1', 'v1', { parentId: 'c1' }),
      rawComment('c1', 'v1'),
      rawPlaylist('p1', ['v1', 'v1']),
      rawVideo('v1', { category: 'music' }),
      { kind: 'live', channel: 'alice', state: 'live', startedAt: '2026-01-01T10:00:00Z' },
      ...base,
    ]);
    expect(errors).toEqual([]);
    expect(records.map((r) => r.kind)).toEqual(['comment', 'comment', 'playlist', 'video', 'live', 'category', 'channel']);
  });

  it('resolves references against keys already in the catalogue', () => {
    const existing: ExistingKeys = {
      categories: new Set(['music']), channels: new Set(['alice']), videos: new Set(['old-video']),
      comments: new Map([['old-comment', { videoId: 'old-video', parentId: null }]]),
    };
    const { errors } = validate([
      rawVideo('v1', { category: 'music' }),
      rawPlaylist('p1', ['old-video', 'v1']),
      rawComment('r1', 'old-video', { parentId: 'old-comment' }),
    ], existing);
    expect(errors).toEqual([]);
  });

  it('lets different kinds share a key', () => {
    expect(validate([...base, rawVideo('music'), rawPlaylist('music', [])]).errors).toEqual([]);
  });

  it('normalises dates to UTC with Z', () => {
    const { records, errors } = validate([...base, rawVideo('v1', { publishedAt: '2020-02-03T10:00:00+02:00' })]);
    expect(errors).toEqual([]);
    const v = records.find((r) => r.kind === 'video');
    expect(v?.kind === 'video' && v.publishedAt).toBe('2020-02-03T08:00:00Z');
  });

  it('fills defaults: a comment is published unless it says otherwise', () => {
    const { records } = validate([...base, rawVideo('v1'), rawComment('c1', 'v1')]);
    const c = records.find((r) => r.kind === 'comment');
    expect(c?.kind === 'comment' && c.state).toBe('published');
  });
});

describe('validateRecords: bad lines', () => {
  it('reports a line that is not JSON by its number', () => {
    const { errors } = validate([...base, '{"kind":"video",', rawVideo('v1')]);
    const e = onlyError(errors, 3, '(line)');
    expect(e.message).toMatch(/JSON/);
  });

  it('reports a field of the wrong shape by line and field path', () => {
    onlyError(validate([...base, rawVideo('v1', { publishedAt: 'yesterday' })]).errors, 3, 'publishedAt');
    onlyError(validate([...base, rawVideo('v1', { views: -1 })]).errors, 3, 'views');
    onlyError(validate([...base, rawVideo('v1', { duration: 1.5 })]).errors, 3, 'duration');
    onlyError(validate([...base, rawVideo('v1', { privacy: 'secret' })]).errors, 3, 'privacy');
    onlyError(validate([...base, rawVideo('bad id!')]).errors, 3, 'id');
  });

  it('reports nested fields by their full path', () => {
    onlyError(validate([...base, rawVideo('v1', { sources: [{ url: 'https://m.example/a.mp4', type: 'video/mp4', height: 720 }, { url: 'not a url', type: 'video/mp4', height: 720 }] })]).errors, 3, 'sources.1.url');
    onlyError(validate([...base, rawVideo('v1'), rawComment('c1', 'v1', { author: { displayName: '' } })]).errors, 4, 'author.displayName');
    onlyError(validate([...base, rawVideo('v1', { tags: ['ok', ''] })]).errors, 3, 'tags.1');
  });

  it('takes media and caption files as absolute URLs or as paths on this deployment, nothing else', () => {
    const media = (url: string) => rawVideo('v1', { sources: [{ url, type: 'video/webm', height: 480 }], captions: [{ lang: 'en', label: 'English', url: url.replace(/webm$/, 'vtt') }] });
    for (const url of ['/media/sample-480.webm', 'https://media.example/v1/480.webm', '/media/clips/a%20b.webm']) {
      expect(validate([...base, media(url)]).errors, url).toEqual([]);
    }
    for (const url of ['media/a.webm', '//evil.example/a.webm', '/media/../catalogue.webm', 'ftp://m.example/a.webm', '/media/a b.webm']) {
      const { errors } = validate([...base, media(url)]);
      expect(errors.map((e) => e.field), url).toEqual(['sources.0.url', 'captions.0.url']);
      expect(errors[0]!.message, url).toMatch(/absolute http\(s\) URL or a path on this deployment/);
    }
  });

  it('reports a missing required field', () => {
    const { title: _title, ...untitled } = rawVideo('v1');
    onlyError(validate([...base, untitled]).errors, 3, 'title');
  });

  it('reports every bad field of a line', () => {
    const { errors } = validate([...base, rawVideo('v1', { views: -1, likes: 'many', publishedAt: 'x' })]);
    expect(errors.map((e) => e.field).sort()).toEqual(['likes', 'publishedAt', 'views']);
    expect(errors.every((e) => e.line === 3)).toBe(true);
  });

  it('reports an unknown kind, naming the field kind', () => {
    const e = onlyError(validate([...base, { kind: 'podcast', id: 'x' }]).errors, 3, 'kind');
    expect(e.message).toMatch(/category, channel, video/);
  });

  it('reports a record without a kind', () => {
    onlyError(validate([...base, { id: 'x' }]).errors, 3, 'kind');
  });

  it('reports a JSON value that is not an object', () => {
    for (const text of ['[]', '42', 'null', '"video"']) {
      const { errors } = validate([...base, text]);
      expect(errors.map((e) => e.line)).toEqual([3]);
    }
  });

  it('refuses an impossible date such as 30 February', () => {
    const e = onlyError(validate([...base, rawVideo('v1', { publishedAt: '2021-02-30T10:00:00Z' })]).errors, 3, 'publishedAt');
    expect(e.message).toMatch(/date/);
  });

  it('reports a repeated key on the later line, naming the first', () => {
    const e = onlyError(validate([...base, rawVideo('v1'), rawVideo('v1', { title: 'again' })]).errors, 4, 'id');
    expect(e.message).toMatch(/line 3/);
    onlyError(validate([...base, rawChannel('alice')]).errors, 3, 'username');
  });

  it('numbers errors by file line, even with blank lines skipped', () => {
    const numbered: NumberedLine[] = [
      { line: 1, text: JSON.stringify(rawChannel('alice')) },
      { line: 7, text: JSON.stringify(rawVideo('v1', { views: -5 })) },
    ];
    onlyError(validateRecords(numbered, NOTHING).errors, 7, 'views');
  });

  it('lists errors in line order', () => {
    const { errors } = validate([rawVideo('v1', { channel: 'nobody' }), 'not json', rawChannel('alice'), rawVideo('v2', { views: -1 })]);
    expect(errors.map((e) => e.line)).toEqual([1, 2, 4]);
  });
});

describe('validateRecords: references', () => {
  it('reports a video whose channel is nowhere', () => {
    const e = onlyError(validate([...base, rawVideo('v1', { channel: 'nobody' })]).errors, 3, 'channel');
    expect(e.message).toContain('nobody');
  });

  it('reports a video whose category is nowhere', () => {
    onlyError(validate([...base, rawVideo('v1', { category: 'polka' })]).errors, 3, 'category');
  });

  it('reports each playlist video that is nowhere, by its position', () => {
    const { errors } = validate([...base, rawVideo('v1'), rawPlaylist('p1', ['v1', 'gone', 'v1', 'lost'])]);
    expect(errors.map((e) => [e.line, e.field])).toEqual([[4, 'videos.1'], [4, 'videos.3']]);
  });

  it('reports a playlist whose channel is nowhere', () => {
    onlyError(validate([...base, rawPlaylist('p1', [], { channel: 'nobody' })]).errors, 3, 'channel');
  });

  it('reports a live record whose channel is nowhere', () => {
    onlyError(validate([...base, { kind: 'live', channel: 'nobody', state: 'offline' }]).errors, 3, 'channel');
  });

  it('reports a comment on a video that is nowhere', () => {
    onlyError(validate([...base, rawComment('c1', 'gone')]).errors, 3, 'videoId');
  });

  it('reports a reply to a comment that is nowhere', () => {
    onlyError(validate([...base, rawVideo('v1'), rawComment('r1', 'v1', { parentId: 'gone' })]).errors, 4, 'parentId');
  });

  it('reports a reply whose parent belongs to another video', () => {
    const { errors } = validate([...base, rawVideo('v1'), rawVideo('v2'), rawComment('c1', 'v1'), rawComment('r1', 'v2', { parentId: 'c1' })]);
    const e = onlyError(errors, 6, 'parentId');
    expect(e.message).toMatch(/another video/);
  });

  it('reports a reply whose parent, already in the catalogue, belongs to another video', () => {
    const existing: ExistingKeys = { ...NOTHING, channels: new Set(['alice']), videos: new Set(['v1', 'v2']), comments: new Map([['c1', { videoId: 'v1', parentId: null }]]) };
    onlyError(validate([rawComment('r1', 'v2', { parentId: 'c1' })], existing).errors, 1, 'parentId');
  });

  it('reports a reply to a reply: replies are one level deep', () => {
    const { errors } = validate([...base, rawVideo('v1'), rawComment('c1', 'v1'), rawComment('r1', 'v1', { parentId: 'c1' }), rawComment('rr', 'v1', { parentId: 'r1' })]);
    const e = onlyError(errors, 6, 'parentId');
    expect(e.message).toMatch(/reply/);
  });

  it('reports a comment that replies to itself', () => {
    const { errors } = validate([...base, rawVideo('v1'), rawComment('c1', 'v1', { parentId: 'c1' })]);
    onlyError(errors, 4, 'parentId');
  });

  it('checks references against the file version of a comment that replaces an existing one', () => {
    // c1 was top-level in the catalogue; the file turns it into a reply, so r1 may no longer answer it.
    const existing: ExistingKeys = { ...NOTHING, channels: new Set(['alice']), videos: new Set(['v1']), comments: new Map([['c1', { videoId: 'v1', parentId: null }], ['c0', { videoId: 'v1', parentId: null }]]) };
    const { errors } = validate([rawComment('c1', 'v1', { parentId: 'c0' }), rawComment('r1', 'v1', { parentId: 'c1' })], existing);
    onlyError(errors, 2, 'parentId');
  });
});
