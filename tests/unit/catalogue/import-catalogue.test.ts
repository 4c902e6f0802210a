import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importCatalogue, ImportError } from '../../../src/catalogue/import-catalogue.ts';
import { openCatalogue, type Catalogue } from '../../../src/catalogue/open-catalogue.ts';
import { CONTENT_TABLES } from '../../../src/catalogue/schema.ts';
import { rawCategory, rawChannel, rawComment, rawPlaylist, rawVideo, tempDirs, writeNdjsonFile, writeRecords, type Raw } from '../support/fixtures.ts';

const dirs = tempDirs();
let db: Catalogue;
beforeEach(() => { db = openCatalogue(':memory:'); });
afterEach(() => { db.close(); dirs.cleanup(); });

const file = (raws: readonly (Raw | string)[], gzip = false) => writeNdjsonFile(dirs.make(), gzip ? 'c.ndjson.gz' : 'c.ndjson', raws, gzip);
const count = (table: string) => (db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number);
const counts = () => Object.fromEntries(CONTENT_TABLES.map((t) => [t, count(t)]));
const tagsOf = (id: string) => db.prepare('SELECT tag FROM video_tags WHERE video_id = ? ORDER BY position').pluck().all(id);

async function importError(run: () => Promise<unknown>): Promise<ImportError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(ImportError);
    return error as ImportError;
  }
  throw new Error('expected an ImportError');
}

const catalogue: Raw[] = [
  rawCategory('music', 'Music'),
  rawChannel('alice', { subscribers: 10 }),
  rawVideo('v1', { category: 'music', tags: ['a', 'b'], sources: [{ url: 'https://m.example/v1.mp4', type: 'video/mp4', height: 720 }], captions: [{ lang: 'en', label: 'English' }] }),
  rawVideo('v2', { privacy: 'private' }),
  rawPlaylist('p1', ['v1', 'v2']),
  rawComment('c1', 'v1'),
  rawComment('r1', 'v1', { parentId: 'c1' }),
  { kind: 'live', channel: 'alice', state: 'upcoming', scheduledFor: '2026-05-01T10:00:00Z' },
  { kind: 'alert', id: 'a1', severity: 'minor', title: 'Slow', message: 'Slow thumbnails', startsAt: '2026-01-01T00:00:00Z' },
];

describe('importCatalogue', () => {
  it('loads every record in one go and counts them by kind', async () => {
    const summary = await importCatalogue(db, file(catalogue));
    expect(summary.lines).toBe(catalogue.length);
    const byKind: Record<string, number> = {};
    for (const r of catalogue) byKind[r['kind'] as string] = (byKind[r['kind'] as string] ?? 0) + 1;
    expect(summary.counts).toEqual(byKind);
    expect(counts()).toMatchObject({
      categories: 1, channels: 1, videos: 2, video_tags: 2, video_sources: 1, video_captions: 1,
      playlists: 1, playlist_items: 2, comments: 2, live_streams: 1, alerts: 1,
    });
  });

  it('reads a gzipped file', async () => {
    expect((await importCatalogue(db, file(catalogue, true))).lines).toBe(catalogue.length);
    expect(count('videos')).toBe(2);
  });

  it('loads nothing when any line is invalid, and reports it by line and field', async () => {
    writeRecords(db, [rawChannel('alice'), rawVideo('existing')]);
    const before = counts();
    const bad = [...catalogue.slice(0, 4), rawVideo('v9', { views: -3 }), ...catalogue.slice(4)];
    const error = await importError(() => importCatalogue(db, file(bad)));
    expect(error.errors.map((e) => [e.line, e.field])).toEqual([[5, 'views']]);
    expect(error.message).toMatch(/nothing was imported/);
    expect(counts()).toEqual(before);
  });

  it('loads nothing when writing fails part-way, because it writes in one transaction', async () => {
    writeRecords(db, [rawChannel('alice'), rawVideo('existing')]);
    const before = counts();
    // The database refuses the last video: every record written before it must be rolled back.
    db.exec("CREATE TRIGGER refuse_last BEFORE INSERT ON videos WHEN NEW.id = 'v-last' BEGIN SELECT RAISE(ABORT, 'refused by test trigger'); END");
    await expect(importCatalogue(db, file([...catalogue, rawVideo('v-last')]))).rejects.toThrow(/refused by test trigger/);
    expect(counts()).toEqual(before);
  });

  it('loads nothing when the only problem is an unresolved reference', async () => {
    const before = counts();
    const error = await importError(() => importCatalogue(db, file([...catalogue, rawComment('c9', 'nowhere')])));
    expect(error.errors.map((e) => [e.line, e.field])).toEqual([[catalogue.length + 1, 'videoId']]);
    expect(counts()).toEqual(before);
  });

  it('reports every invalid line at once', async () => {
    const error = await importError(() => importCatalogue(db, file(['nope', rawChannel('alice'), rawVideo('v1', { channel: 'bob' }), rawVideo('v2', { publishedAt: '2021-02-30T00:00:00Z' })])));
    expect(error.errors.map((e) => e.line)).toEqual([1, 3, 4]);
    expect(error.message).toMatch(/^3 invalid lines/);
  });

  it('stores dates normalised to UTC with Z', async () => {
    await importCatalogue(db, file([rawChannel('alice'), rawVideo('v1', { publishedAt: '2020-02-03T10:00:00+02:00' })]));
    expect(db.prepare('SELECT published_at FROM videos WHERE id = ?').pluck().get('v1')).toBe('2020-02-03T08:00:00Z');
  });

  it('refuses an impossible date such as 30 February', async () => {
    const error = await importError(() => importCatalogue(db, file([rawChannel('alice'), rawVideo('v1', { publishedAt: '2020-02-30T10:00:00Z' })])));
    expect(error.errors.map((e) => [e.line, e.field])).toEqual([[2, 'publishedAt']]);
    expect(count('videos')).toBe(0);
  });

  it('resolves references against records already in the catalogue', async () => {
    await importCatalogue(db, file(catalogue));
    await importCatalogue(db, file([rawVideo('v3', { category: 'music' }), rawComment('r2', 'v1', { parentId: 'c1' }), rawPlaylist('p2', ['v1', 'v3'])]));
    expect(count('videos')).toBe(3);
    expect(count('comments')).toBe(3);
  });

  it('replaces a record with the same key, with its tags replaced rather than appended', async () => {
    await importCatalogue(db, file(catalogue));
    await importCatalogue(db, file([rawVideo('v1', { title: 'Renamed', tags: ['c'] })]));
    expect(db.prepare('SELECT title FROM videos WHERE id = ?').pluck().get('v1')).toBe('Renamed');
    expect(tagsOf('v1')).toEqual(['c']);
    expect(count('videos')).toBe(2);
    expect(db.prepare('SELECT count(*) FROM video_sources WHERE video_id = ?').pluck().get('v1')).toBe(0);
    expect(db.prepare('SELECT category FROM videos WHERE id = ?').pluck().get('v1')).toBeNull();
  });

  it('replaces a playlist with its new list of videos', async () => {
    await importCatalogue(db, file(catalogue));
    await importCatalogue(db, file([rawPlaylist('p1', ['v2'])]));
    expect(db.prepare('SELECT video_id FROM playlist_items WHERE playlist_id = ? ORDER BY position').pluck().all('p1')).toEqual(['v2']);
  });

  it('gives the same catalogue when the same file is imported twice', async () => {
    const path = file(catalogue);
    await importCatalogue(db, path);
    const once = counts();
    await importCatalogue(db, path);
    expect(counts()).toEqual(once);
  });

  it('with replace, empties the catalogue content first', async () => {
    await importCatalogue(db, file(catalogue));
    await importCatalogue(db, file([rawChannel('bob'), rawVideo('w1', { channel: 'bob', tags: ['x'] })]), { replace: true });
    expect(db.prepare('SELECT id FROM videos').pluck().all()).toEqual(['w1']);
    expect(db.prepare('SELECT username FROM channels').pluck().all()).toEqual(['bob']);
    expect(counts()).toMatchObject({ categories: 0, playlists: 0, playlist_items: 0, comments: 0, live_streams: 0, alerts: 0, video_tags: 1 });
  });

  it('with replace, keeps operator apps and keys, which are not catalogue content', async () => {
    db.prepare("INSERT INTO apps (id, name, created_at) VALUES ('app1', 'App', '2026-01-01T00:00:00Z')").run();
    await importCatalogue(db, file([rawChannel('bob')]), { replace: true });
    expect(count('apps')).toBe(1);
  });

  it('with replace, refuses references to records that only the emptied catalogue held', async () => {
    await importCatalogue(db, file(catalogue));
    const before = counts();
    const error = await importError(() => importCatalogue(db, file([rawVideo('w1', { channel: 'alice' })]), { replace: true }));
    expect(error.errors.map((e) => e.field)).toEqual(['channel']);
    expect(counts()).toEqual(before);
  });

  it('reports progress', async () => {
    const messages: string[] = [];
    await importCatalogue(db, file(catalogue), { onProgress: (m) => messages.push(m) });
    expect(messages.length).toBeGreaterThan(0);
  });

  it('imports the real PyVideo excerpt fixture, every line a record', async () => {
    const summary = await importCatalogue(db, fileURLToPath(new URL('../../fixtures/pyvideo-excerpt.ndjson.gz', import.meta.url)));
    const total = Object.values(summary.counts).reduce((a, b) => a + b, 0);
    expect(total).toBe(summary.lines);
    expect(count('videos')).toBe(summary.counts['video']);
    expect(count('channels')).toBe(summary.counts['channel']);
  });
});
