// The build's catalogue check (check-catalogue.ts): a catalogue changed by hand so that it would
// break the site is refused, naming each record and field; a sound one passes.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readChangeLogMark, readChangesSince, type Changes } from '../../../src/catalogue/change-log.ts';
import { CatalogueCheckError, checkCatalogue, CHECK_CHANGES_AT_MOST } from '../../../src/catalogue/check-catalogue.ts';
import { openCatalogue, type Catalogue } from '../../../src/catalogue/open-catalogue.ts';
import { buildSnapshot } from '../../../src/snapshot/build-snapshot.ts';
import { currentSnapshotId } from '../../../src/snapshot/swap.ts';
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

function problems(changes?: Changes): string[] {
  try {
    checkCatalogue(db, changes);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(CatalogueCheckError);
    return (error as CatalogueCheckError).problems.map((p) => `${p.record}: ${p.field}: ${p.message}`);
  }
}

/** `record: field` of a problem line (its message aside). */
const fieldOf = (line: string) => line.split(': ').slice(0, 2).join(': ');

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
    expect(problems().map(fieldOf).sort()).toEqual([
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
    expect(problems().map(fieldOf)).toEqual(['video "v2": channel', 'video "v3": channel', 'comment "c3": videoId', 'comment "c4": videoId']);
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

  it('stops a rebuild from the served snapshot when a change broke records the change log does not name', async () => {
    const dir = dirs.make();
    const catalogue = join(dir, 'catalogue.db');
    const distDir = join(dir, 'dist');
    const file = openCatalogue(catalogue);
    writeRecords(file, [rawChannel('alice'), rawChannel('bob'), rawVideo('v1', { duration: 30 }), rawVideo('v2', { channel: 'bob' })]);
    file.close();
    const first = await buildSnapshot({ catalogue, distDir, baseUrl: 'https://videos.example.test' });
    const again = openCatalogue(catalogue);
    again.exec("DELETE FROM channels WHERE username = 'alice'");
    again.close();
    await expect(buildSnapshot({ catalogue, distDir, baseUrl: 'https://videos.example.test' }))
      .rejects.toThrow(/video "v1": channel: refers to channel "alice", which is not in the catalogue/);
    expect(currentSnapshotId(join(distDir, 'snapshots'))).toBe(first.id);
  });
});



/**
 * Changes a catalogue can go through after a build checked it, each able to break something (or
 * not): a build from that build's mark checks only what its change log names, and must find what
 * the whole check finds.
 */
const CHANGES: readonly ((pick: (list: readonly string[]) => string) => string)[] = [
  (pick) => `DELETE FROM channels WHERE username = '${pick(['alice', 'bob', 'carol'])}'`,
  (pick) => `DELETE FROM categories WHERE id = '${pick(['music', 'talks'])}'`,
  (pick) => `DELETE FROM videos WHERE id = '${pick(['v1', 'v2', 'v3', 'v4', 'v5'])}'`,
  (pick) => `DELETE FROM comments WHERE id = '${pick(['c1', 'c2', 'r1', 'r2'])}'`,
  (pick) => `UPDATE OR IGNORE videos SET id = 'moved' WHERE id = '${pick(['v1', 'v3'])}'`,
  (pick) => `UPDATE videos SET channel = '${pick(['alice', 'ghost'])}' WHERE id = '${pick(['v2', 'v4'])}'`,
  (pick) => `UPDATE videos SET category = '${pick(['talks', 'polka'])}' WHERE id = '${pick(['v1', 'v5'])}'`,
  (pick) => `UPDATE videos SET title = ' ' WHERE id = '${pick(['v2', 'v5'])}'`,
  (pick) => `UPDATE videos SET thumbnail_url = 'javascript:x' WHERE id = '${pick(['v1', 'v4'])}'`,
  (pick) => `UPDATE video_sources SET url = '//evil.example/a.webm' WHERE video_id = '${pick(['v1', 'v2'])}'`,
  (pick) => `UPDATE comments SET video_id = '${pick(['v2', 'v3', 'gone'])}' WHERE id = '${pick(['c1', 'c2'])}'`,
  (pick) => `UPDATE comments SET parent_id = '${pick(['c1', 'r2', 'gone'])}' WHERE id = '${pick(['c2', 'r1', 'c3'])}'`,
  (pick) => `UPDATE comments SET parent_id = NULL WHERE id = '${pick(['r1', 'r2'])}'`,
  // as the import writes a comment that moved: the row it replaces is removed without the delete trigger
  (pick) => `INSERT OR REPLACE INTO comments (id, video_id, parent_id, text, published_at, author_display_name, state)
    SELECT id, '${pick(['v2', 'v3'])}', parent_id, text, published_at, author_display_name, state FROM comments WHERE id = '${pick(['c1', 'c2'])}'`,
  (pick) => `UPDATE OR REPLACE comments SET id = '${pick(['c1', 'c2', 'c3'])}' WHERE id = '${pick(['r2', 'c3'])}'`,
  (pick) => `UPDATE video_captions SET url = 'javascript:x' WHERE video_id = '${pick(['v1', 'v2'])}'`,
  (pick) => `UPDATE comments SET author_avatar_url = 'data:x' WHERE id = '${pick(['c1', 'r2'])}'`,
  (pick) => `UPDATE channels SET display_name = '' WHERE username = '${pick(['alice', 'carol'])}'`,
  (pick) => `UPDATE OR IGNORE channels SET username = 'renamed' WHERE username = '${pick(['bob', 'carol'])}'`,
  (pick) => `UPDATE categories SET name = ' ' WHERE id = '${pick(['music', 'talks'])}'`,
  (pick) => `UPDATE OR IGNORE categories SET id = 'renamed' WHERE id = '${pick(['music', 'talks'])}'`,
  (pick) => `INSERT OR REPLACE INTO playlist_items (playlist_id, position, video_id) VALUES ('${pick(['p1', 'p2'])}', 9, '${pick(['v4', 'ghost'])}')`,
  (pick) => `UPDATE playlists SET channel = '${pick(['carol', 'ghost'])}' WHERE id = '${pick(['p1', 'p2'])}'`,
  (pick) => `UPDATE playlists SET title = '' WHERE id = '${pick(['p1', 'p2'])}'`,
  (pick) => `INSERT OR REPLACE INTO live_streams (channel, state) VALUES ('${pick(['carol', 'ghost'])}', 'offline')`,
  (pick) => `INSERT OR REPLACE INTO videos (id, channel, title, description, published_at, duration, views, likes, privacy, category)
    SELECT 'v9', '${pick(['bob', 'ghost'])}', title, description, published_at, duration, views, likes, privacy, ${pick(['NULL', "'polka'"])} FROM videos WHERE id = 'v5'`,
];

describe('checkCatalogue of what changed since a mark', () => {
  beforeEach(() => {
    writeRecords(db, [
      rawCategory('talks'), rawChannel('bob'), rawChannel('carol'),
      rawVideo('v3', { channel: 'bob', category: 'talks' }), rawVideo('v4', { channel: 'carol' }), rawVideo('v5', { channel: 'bob', category: 'music' }),
      rawPlaylist('p2', ['v3', 'v4'], { channel: 'bob' }), rawComment('c2', 'v2'), rawComment('r2', 'v2', { parentId: 'c2' }), rawComment('c3', 'v3'),
    ]);
    db.exec("INSERT INTO live_streams (channel, state) VALUES ('bob', 'live')");
  });

  it('finds what the whole check finds, after any changes to a catalogue that passed it', () => {
    expect(problems()).toEqual([]);
    const mark = readChangeLogMark(db)!;
    const before = db.prepare('SELECT count(*) FROM change_log').pluck().get();
    fc.assert(fc.property(fc.array(fc.tuple(fc.nat(CHANGES.length - 1), fc.nat(), fc.nat()), { minLength: 1, maxLength: 4 }), (steps) => {
      db.exec('SAVEPOINT changes');
      try {
        for (const [change, a, b] of steps) {
          const picks = [a, b];
          db.exec(CHANGES[change]!((list) => list[picks.shift()! % list.length]!));
        }
        const since = readChangesSince(db, mark);
        expect(since.changes).toBeDefined();
        expect(problems(since.changes).sort()).toEqual(problems().sort());
      } finally {
        db.exec('ROLLBACK TO changes; RELEASE changes');
      }
    }), { seed: 20261127, numRuns: 300 });
    // the property ran on the catalogue as marked every time
    expect(db.prepare('SELECT count(*) FROM change_log').pluck().get()).toBe(before);
  });

  it('finds the references broken by a change to what they name, though their holders did not change', () => {
    const mark = readChangeLogMark(db)!;
    db.exec("DELETE FROM channels WHERE username = 'bob'; DELETE FROM videos WHERE id = 'v4'; UPDATE comments SET parent_id = 'r1' WHERE id = 'c1'");
    const since = readChangesSince(db, mark).changes!;
    // the log names the channel, the video and the comment changed, none of the records they break
    expect({ channel: [...since.channel], video: [...since.video], comment: [...since.comment], playlist: [...since.playlist], live: [...since.live] })
      .toEqual({ channel: ['bob'], video: ['v4'], comment: ['c1'], playlist: [], live: [] });
    const expected = ['comment "c1": parentId', 'comment "r1": parentId', 'live "bob": channel', 'playlist "p2": channel', 'playlist "p2": videos.1', 'video "v3": channel', 'video "v5": channel'];
    expect(problems(since).map(fieldOf).sort()).toEqual(expected);
    expect(problems().map(fieldOf).sort()).toEqual(expected);
  });

  it('checks the whole catalogue when the log names more records than looking each up is worth', () => {
    db.exec("UPDATE videos SET title = ' ' WHERE id = 'v3'");
    const many = { video: new Set<string>(), channel: new Set<string>(), category: new Set<string>(), comment: new Set<string>(), comments_on: new Set<string>(), playlist: new Set<string>(), live: new Set<string>(), count: CHECK_CHANGES_AT_MOST + 1 };
    // names nothing, yet counts past the limit: the whole check runs and finds the title
    expect(problems(many).map(fieldOf)).toEqual(['video "v3": title']);
    expect(problems({ ...many, count: 1 })).toEqual([]);
  });
});
