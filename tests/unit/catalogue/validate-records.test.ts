// The import's validation, line by line and across records, run through the real import
// (import-catalogue.ts) into an in-memory catalogue: errors by line and field, or the records as
// the catalogue then holds them (read back by the export).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exportRecords } from '../../../src/catalogue/export-catalogue.ts';
import { importCatalogue, ImportError } from '../../../src/catalogue/import-catalogue.ts';
import { openCatalogue } from '../../../src/catalogue/open-catalogue.ts';
import type { CatalogueRecord } from '../../../src/catalogue/records.ts';
import type { LineError } from '../../../src/catalogue/validate-records.ts';
import { rawCategory, rawChannel, rawComment, rawPlaylist, rawVideo, tempDirs, writeRecords, type Raw } from '../support/fixtures.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/** Imports `text` over a catalogue holding `existing`: the errors, or the records imported. */
async function importText(text: string, existing: readonly Raw[] = []): Promise<{ records: CatalogueRecord[]; errors: readonly LineError[] }> {
  const file = join(dirs.make(), 'c.ndjson');
  writeFileSync(file, text);
  const db = openCatalogue(':memory:');
  try {
    if (existing.length > 0) writeRecords(db, existing);
    const before = new Set([...exportRecords(db)].map((r) => JSON.stringify(r)));
    try {
      await importCatalogue(db, file);
    } catch (error) {
      if (error instanceof ImportError) return { records: [], errors: error.errors };
      throw error;
    }
    return { records: [...exportRecords(db)].filter((r) => !before.has(JSON.stringify(r))), errors: [] };
  } finally {
    db.close();
  }
}

const validate = (records: readonly (Raw | string)[], existing: readonly Raw[] = []) =>
  importText(records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n'), existing);

/** The only error, checked to be on `line` and `field`. */
function onlyError(errors: readonly LineError[], line: number, field: string): LineError {
  expect(errors.map((e) => [e.line, e.field])).toEqual([[line, field]]);
  return errors[0]!;
}

const base = [rawCategory('music'), rawChannel('alice')];

describe('import validation: valid input', () => {
  it('accepts a catalogue whose references resolve within the file, in any order', async () => {
    const { records, errors } = await validate([
      rawComment('r1', 'v1', { parentId: 'c1' }),
      rawComment('c1', 'v1'),
      rawPlaylist('p1', ['v1', 'v1']),
      rawVideo('v1', { category: 'music' }),
      { kind: 'live', channel: 'alice', state: 'live', startedAt: '2026-01-01T10:00:00Z' },
      ...base,
    ]);
    expect(errors).toEqual([]);
    expect(records.map((r) => r.kind).sort()).toEqual(['category', 'channel', 'comment', 'comment', 'live', 'playlist', 'video']);
  });

  it('resolves references against keys already in the catalogue', async () => {
    const existing = [...base, rawVideo('old-video'), rawComment('old-comment', 'old-video')];
    const { errors } = await validate([
      rawVideo('v1', { category: 'music' }),
      rawPlaylist('p1', ['old-video', 'v1']),
      rawComment('r1', 'old-video', { parentId: 'old-comment' }),
    ], existing);
    expect(errors).toEqual([]);
  });

  it('lets different kinds share a key', async () => {
    expect((await validate([...base, rawVideo('music'), rawPlaylist('music', [])])).errors).toEqual([]);
  });

  it('normalises dates to UTC with Z', async () => {
    const { records, errors } = await validate([...base, rawVideo('v1', { publishedAt: '2020-02-03T10:00:00+02:00' })]);
    expect(errors).toEqual([]);
    const v = records.find((r) => r.kind === 'video');
    expect(v?.kind === 'video' && v.publishedAt).toBe('2020-02-03T08:00:00Z');
  });

  it('fills defaults: a comment is published unless it says otherwise', async () => {
    const { records } = await validate([...base, rawVideo('v1'), rawComment('c1', 'v1')]);
    const c = records.find((r) => r.kind === 'comment');
    expect(c?.kind === 'comment' && c.state).toBe('published');
  });
});

describe('import validation: bad lines', () => {
  it('reports a line that is not JSON by its number', async () => {
    const { errors } = await validate([...base, '{"kind":"video",', rawVideo('v1')]);
    const e = onlyError(errors, 3, '(line)');
    expect(e.message).toMatch(/JSON/);
  });

  it('reports a field of the wrong shape by line and field path', async () => {
    onlyError((await validate([...base, rawVideo('v1', { publishedAt: 'yesterday' })])).errors, 3, 'publishedAt');
    onlyError((await validate([...base, rawVideo('v1', { views: -1 })])).errors, 3, 'views');
    onlyError((await validate([...base, rawVideo('v1', { duration: 1.5 })])).errors, 3, 'duration');
    onlyError((await validate([...base, rawVideo('v1', { privacy: 'secret' })])).errors, 3, 'privacy');
    onlyError((await validate([...base, rawVideo('bad id!')])).errors, 3, 'id');
  });

  it('reports nested fields by their full path', async () => {
    onlyError((await validate([...base, rawVideo('v1', { sources: [{ url: 'https://m.example/a.mp4', type: 'video/mp4', height: 720 }, { url: 'not a url', type: 'video/mp4', height: 720 }] })])).errors, 3, 'sources.1.url');
    onlyError((await validate([...base, rawVideo('v1'), rawComment('c1', 'v1', { author: { displayName: '' } })])).errors, 4, 'author.displayName');
    onlyError((await validate([...base, rawVideo('v1', { tags: ['ok', ''] })])).errors, 3, 'tags.1');
  });

  it('takes media and caption files as absolute URLs or as paths on this deployment, nothing else', async () => {
    const media = (url: string) => rawVideo('v1', { sources: [{ url, type: 'video/webm', height: 480 }], captions: [{ lang: 'en', label: 'English', url: url.replace(/webm$/, 'vtt') }] });
    for (const url of ['/media/sample-480.webm', 'https://media.example/v1/480.webm', '/media/clips/a%20b.webm']) {
      expect((await validate([...base, media(url)])).errors, url).toEqual([]);
    }
    for (const url of ['media/a.webm', '//evil.example/a.webm', '/media/../catalogue.webm', 'ftp://m.example/a.webm', '/media/a b.webm']) {
      const { errors } = await validate([...base, media(url)]);
      expect(errors.map((e) => e.field), url).toEqual(['sources.0.url', 'captions.0.url']);
      expect(errors[0]!.message, url).toMatch(/absolute http\(s\) URL or a path on this deployment/);
    }
  });

  it('reports a missing required field', async () => {
    const { title: _title, ...untitled } = rawVideo('v1');
    onlyError((await validate([...base, untitled])).errors, 3, 'title');
  });

  it('reports every bad field of a line', async () => {
    const { errors } = await validate([...base, rawVideo('v1', { views: -1, likes: 'many', publishedAt: 'x' })]);
    expect(errors.map((e) => e.field).sort()).toEqual(['likes', 'publishedAt', 'views']);
    expect(errors.every((e) => e.line === 3)).toBe(true);
  });

  it('reports an unknown kind, naming the field kind', async () => {
    const e = onlyError((await validate([...base, { kind: 'podcast', id: 'x' }])).errors, 3, 'kind');
    expect(e.message).toMatch(/category, channel, video/);
  });

  it('reports a record without a kind', async () => {
    onlyError((await validate([...base, { id: 'x' }])).errors, 3, 'kind');
  });

  it('reports a JSON value that is not an object', async () => {
    for (const text of ['[]', '42', 'null', '"video"']) {
      const { errors } = await validate([...base, text]);
      expect(errors.map((e) => e.line)).toEqual([3]);
    }
  });

  it('refuses an impossible date such as 30 February', async () => {
    const e = onlyError((await validate([...base, rawVideo('v1', { publishedAt: '2021-02-30T10:00:00Z' })])).errors, 3, 'publishedAt');
    expect(e.message).toMatch(/date/);
  });

  it('reports a repeated key on the later line, naming the first', async () => {
    const e = onlyError((await validate([...base, rawVideo('v1'), rawVideo('v1', { title: 'again' })])).errors, 4, 'id');
    expect(e.message).toMatch(/line 3/);
    onlyError((await validate([...base, rawChannel('alice')])).errors, 3, 'username');
  });

  it('numbers errors by file line, even with blank lines skipped', async () => {
    const text = `${JSON.stringify(rawChannel('alice'))}\n\n  \n\r\n\n\n${JSON.stringify(rawVideo('v1', { views: -5 }))}\n`;
    onlyError((await importText(text)).errors, 7, 'views');
  });

  it('lists errors in line order', async () => {
    const { errors } = await validate([rawVideo('v1', { channel: 'nobody' }), 'not json', rawChannel('alice'), rawVideo('v2', { views: -1 })]);
    expect(errors.map((e) => e.line)).toEqual([1, 2, 4]);
  });
});

describe('import validation: references', () => {
  it('reports a video whose channel is nowhere', async () => {
    const e = onlyError((await validate([...base, rawVideo('v1', { channel: 'nobody' })])).errors, 3, 'channel');
    expect(e.message).toContain('nobody');
  });

  it('reports a video whose category is nowhere', async () => {
    onlyError((await validate([...base, rawVideo('v1', { category: 'polka' })])).errors, 3, 'category');
  });

  it('reports each playlist video that is nowhere, by its position', async () => {
    const { errors } = await validate([...base, rawVideo('v1'), rawPlaylist('p1', ['v1', 'gone', 'v1', 'lost'])]);
    expect(errors.map((e) => [e.line, e.field])).toEqual([[4, 'videos.1'], [4, 'videos.3']]);
  });

  it('reports a playlist whose channel is nowhere', async () => {
    onlyError((await validate([...base, rawPlaylist('p1', [], { channel: 'nobody' })])).errors, 3, 'channel');
  });

  it('reports a live record whose channel is nowhere', async () => {
    onlyError((await validate([...base, { kind: 'live', channel: 'nobody', state: 'offline' }])).errors, 3, 'channel');
  });

  it('reports a comment on a video that is nowhere', async () => {
    onlyError((await validate([...base, rawComment('c1', 'gone')])).errors, 3, 'videoId');
  });

  it('reports a reply to a comment that is nowhere', async () => {
    onlyError((await validate([...base, rawVideo('v1'), rawComment('r1', 'v1', { parentId: 'gone' })])).errors, 4, 'parentId');
  });

  it('reports a reply whose parent belongs to another video', async () => {
    const { errors } = await validate([...base, rawVideo('v1'), rawVideo('v2'), rawComment('c1', 'v1'), rawComment('r1', 'v2', { parentId: 'c1' })]);
    const e = onlyError(errors, 6, 'parentId');
    expect(e.message).toMatch(/another video/);
  });

  it('reports a reply whose parent, already in the catalogue, belongs to another video', async () => {
    const existing = [rawChannel('alice'), rawVideo('v1'), rawVideo('v2'), rawComment('c1', 'v1')];
    onlyError((await validate([rawComment('r1', 'v2', { parentId: 'c1' })], existing)).errors, 1, 'parentId');
  });

  it('reports a reply to a reply: replies are one level deep', async () => {
    const { errors } = await validate([...base, rawVideo('v1'), rawComment('c1', 'v1'), rawComment('r1', 'v1', { parentId: 'c1' }), rawComment('rr', 'v1', { parentId: 'r1' })]);
    const e = onlyError(errors, 6, 'parentId');
    expect(e.message).toMatch(/reply/);
  });

  it('reports a comment that replies to itself', async () => {
    const { errors } = await validate([...base, rawVideo('v1'), rawComment('c1', 'v1', { parentId: 'c1' })]);
    onlyError(errors, 4, 'parentId');
  });

  it('checks references against the file version of a comment that replaces an existing one', async () => {
    // c1 was top-level in the catalogue; the file turns it into a reply, so r1 may no longer answer it.
    const existing = [rawChannel('alice'), rawVideo('v1'), rawComment('c1', 'v1'), rawComment('c0', 'v1')];
    const { errors } = await validate([rawComment('c1', 'v1', { parentId: 'c0' }), rawComment('r1', 'v1', { parentId: 'c1' })], existing);
    onlyError(errors, 2, 'parentId');
  });
});
