// The build's catalogue check (check-catalogue.ts): a catalogue changed by hand so that it would
// break the site is refused, naming each record and field; a sound one passes.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CatalogueCheckError, checkCatalogue } from '../../../src/catalogue/check-catalogue.ts';
import { openCatalogue, type Catalogue } from '../../../src/catalogue/open-catalogue.ts';
import { buildSnapshot } from '../../../src/snapshot/build-snapshot.ts';
import { rawCategory, rawChannel, rawComment, rawPlaylist, rawVideo, tempDirs, writeRecords } from '../support/fixtures.ts';

const dirs = tempDirs();

let db: Catalogue;
beforeEach(() => {
  db = openCatalogue(':memory:');
  writeRecords(db, [
    rawCategory('music'), rawChannel('alice'),
    rawVideo('v1', { category: 'music', sources: [{ url: '/media/a.webm', type: 'video/webm', height: 480 }], captions: [{ lang: 'en', label: 'English', url: 'https://m.example/en.vtt' }] }),
    rawVideo('v2'), rawPlaylist('p1', ['v1', 'v2']), rawComment('c1', 'v1'), rawComment('r1', 'v1', { parentId: 'c1' }),
  ]);
});
afterEach(() => { db.close(); dirs.cleanup(); });

function problems(): string[] {
  try {
    checkCatalogue(db);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(CatalogueCheckError);
    return (error as CatalogueCheckError).problems.map((p) => `${p.record}: ${p.field}`);
  }
}

describe('checkCatalogue', () => {
  it('passes a sound catalogue', () => {
    expect(problems()).toEqual([]);
  });

  it('names each record and field that would break the site', () => {
    db.exec(`
      UPDATE video_sources SET url = 'javascript:alert(1)' WHERE video_id = 'v1';
      UPDATE video_captions SET url = '//evil.example/x.vtt' WHERE video_id = 'v1';
      UPDATE videos SET thumbnail_url = 'JavaScript:alert(1)', category = 'polka' WHERE id = 'v1';
      UPDATE videos SET title = '  ' WHERE id = 'v2';
      UPDATE channels SET avatar_url = 'data:image/png;base64,AA' WHERE username = 'alice';
      INSERT INTO playlist_items (playlist_id, position, video_id) VALUES ('p1', 2, 'ghost');
      UPDATE comments SET parent_id = 'gone' WHERE id = 'r1';
    `);
    expect(problems().sort()).toEqual([
      'channel "alice": avatarUrl',
      'comment "r1": parentId',
      'playlist "p1": videos.2',
      'video "v1": captions.0.url',
      'video "v1": category',
      'video "v1": sources.0.url',
      'video "v1": thumbnailUrl',
      'video "v2": title',
    ]);
  });

  it('names videos whose channel and comments whose video are not in the catalogue, each once', () => {
    writeRecords(db, [rawChannel('bob'), rawVideo('v3', { channel: 'bob' }), rawVideo('v4', { channel: 'bob' }), rawComment('c2', 'v2'), rawComment('c3', 'v3'), rawComment('c4', 'v3')]);
    db.exec(`
      UPDATE videos SET channel = 'ghost' WHERE id IN ('v2', 'v3');
      DELETE FROM videos WHERE id = 'v4';
      UPDATE comments SET video_id = 'gone' WHERE id IN ('c3', 'c4');
    `);
    expect(problems()).toEqual(['video "v2": channel', 'video "v3": channel', 'comment "c3": videoId', 'comment "c4": videoId']);
    expect(() => checkCatalogue(db)).toThrow(/video "v2": channel: refers to channel "ghost", which is not in the catalogue/);
  });

  it('says what is wrong in the message, record by record', () => {
    db.exec("UPDATE video_sources SET url = 'javascript:alert(1)'");
    expect(() => checkCatalogue(db)).toThrow(/video "v1": sources\.0\.url: "javascript:alert\(1\)": must be an absolute http\(s\) URL or a path/);
  });

  it('stops the build before anything is written, naming the record and field', async () => {
    const dir = dirs.make();
    const catalogue = join(dir, 'catalogue.db');
    const file = openCatalogue(catalogue);
    writeRecords(file, [rawChannel('alice'), rawVideo('v1', { duration: 30 })]);
    file.exec("UPDATE videos SET thumbnail_url = 'javascript:alert(1)'");
    file.close();
    await expect(buildSnapshot({ catalogue, distDir: join(dir, 'dist'), baseUrl: 'https://videos.example.test' }))
      .rejects.toThrow(/video "v1": thumbnailUrl: "javascript:alert\(1\)"/);
    expect(existsSync(join(dir, 'dist', 'current'))).toBe(false);
  });
});
