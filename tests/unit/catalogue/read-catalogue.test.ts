import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCatalogue, type Catalogue } from '../../../src/catalogue/open-catalogue.ts';
import { readCatalogue, readDeriveFields, readDeriveFieldsOf } from '../../../src/catalogue/read-catalogue.ts';
import type { PublicVideo } from '../../../src/catalogue/public-catalogue.ts';
import { rawCategory, rawChannel, rawComment, rawPlaylist, rawVideo, writeRecords } from '../support/fixtures.ts';

let db: Catalogue;
beforeEach(() => {
  db = openCatalogue(':memory:');
  writeRecords(db, [
    rawCategory('music'),
    rawChannel('alice'),
    rawVideo('pub1', { category: 'music', tags: ['t1'] }),
    rawVideo('unl1', { privacy: 'unlisted' }),
    rawVideo('secretvideo', {
      privacy: 'private', title: 'SECRET-TITLE', description: 'SECRET-DESCRIPTION', tags: ['SECRET-TAG'],
      sources: [{ url: 'https://m.example/SECRET-SOURCE.mp4', type: 'video/mp4', height: 720 }], captions: [{ lang: 'en', label: 'SECRET-CAPTION' }],
    }),
    rawPlaylist('plpub', ['pub1', 'secretvideo', 'unl1', 'pub1']),
    rawPlaylist('plunl', ['unl1'], { privacy: 'unlisted' }),
    rawPlaylist('secretplaylist', ['pub1'], { privacy: 'private', title: 'SECRET-PLAYLIST' }),
    rawComment('c1', 'pub1'),
    rawComment('heldc', 'pub1', { state: 'held', text: 'SECRET-HELD' }),
    rawComment('removedc', 'pub1', { state: 'removed', text: 'SECRET-REMOVED' }),
    rawComment('spamc', 'pub1', { state: 'spam', text: 'SECRET-SPAM' }),
    rawComment('r1', 'pub1', { parentId: 'c1' }),
    rawComment('heldreply', 'pub1', { parentId: 'c1', state: 'held', text: 'SECRET-HELD-REPLY' }),
    rawComment('replytoheld', 'pub1', { parentId: 'heldc', text: 'SECRET-REPLY-TO-HELD' }),
    rawComment('replytoremoved', 'pub1', { parentId: 'removedc', text: 'SECRET-REPLY-TO-REMOVED' }),
    rawComment('replytoreply', 'pub1', { parentId: 'r1', text: 'SECRET-REPLY-TO-REPLY' }),
    rawComment('replyelsewhere', 'unl1', { parentId: 'c1', text: 'SECRET-REPLY-ELSEWHERE' }),
    rawComment('replytomissing', 'pub1', { parentId: 'nosuchcomment', text: 'SECRET-REPLY-TO-MISSING' }),
    rawComment('onsecret', 'secretvideo', { text: 'SECRET-ON-PRIVATE' }),
    rawComment('replyonsecret', 'secretvideo', { parentId: 'onsecret', text: 'SECRET-REPLY-ON-PRIVATE' }),
    rawComment('onunlisted', 'unl1'),
  ]);
});
afterEach(() => db.close());

describe('readCatalogue, the privacy choke point', () => {
  it('drops private videos and keeps public and unlisted ones', () => {
    expect(readCatalogue(db).videos.map((v) => v.id)).toEqual(['pub1', 'unl1']);
  });

  it('drops private playlists and keeps unlisted ones', () => {
    expect(readCatalogue(db).playlists.map((p) => p.id)).toEqual(['plpub', 'plunl']);
  });

  it('drops playlist items that point at private videos, keeping the order of the rest', () => {
    expect(readCatalogue(db).playlists.find((p) => p.id === 'plpub')?.videoIds).toEqual(['pub1', 'unl1', 'pub1']);
  });

  it('drops held, removed and spam comments', () => {
    const ids = readCatalogue(db).comments.map((c) => c.id);
    for (const id of ['heldc', 'removedc', 'spamc', 'heldreply']) expect(ids).not.toContain(id);
  });

  it('drops replies to comments that are not served', () => {
    const ids = readCatalogue(db).comments.map((c) => c.id);
    for (const id of ['replytoheld', 'replytoremoved', 'replytomissing']) expect(ids).not.toContain(id);
  });

  it('drops replies to replies and replies whose parent is on another video', () => {
    const ids = readCatalogue(db).comments.map((c) => c.id);
    expect(ids).not.toContain('replytoreply');
    expect(ids).not.toContain('replyelsewhere');
  });

  it('drops comments and replies on private videos', () => {
    const ids = readCatalogue(db).comments.map((c) => c.id);
    expect(ids).not.toContain('onsecret');
    expect(ids).not.toContain('replyonsecret');
  });

  it('keeps published comments and replies on public and unlisted videos', () => {
    expect(readCatalogue(db).comments.map((c) => c.id).sort()).toEqual(['c1', 'onunlisted', 'r1']);
  });

  it('lets nothing of a private record through, in any field', () => {
    const text = JSON.stringify(readCatalogue(db));
    expect(text).not.toMatch(/SECRET|secretvideo|secretplaylist/);
  });

  it('fills channel defaults and leaves absent optional fields undefined, never null', () => {
    const catalogue = readCatalogue(db);
    expect(catalogue.channels[0]).toMatchObject({ username: 'alice', description: '', subscribers: 0 });
    const withoutParentIds = catalogue.comments.map(({ parentId: _p, ...rest }) => rest);
    expect(JSON.stringify({ ...catalogue, comments: withoutParentIds })).not.toContain('null');
  });

  it('reads tags in order and the four feature flags', () => {
    writeRecords(db, [rawVideo('pub1', { tags: ['z', 'a', 'm'], features: { calm: true } })]);
    const v = readCatalogue(db).videos.find((x) => x.id === 'pub1')!;
    expect(v.tags).toEqual(['z', 'a', 'm']);
    expect(v.features).toEqual({ '3d': false, calm: true, restricted: false, captions: false });
    expect(v.views).toBe(0);
    expect(v.likes).toBe(0);
  });

  it('gives top-level comments a null parentId and replies their parent', () => {
    const comments = readCatalogue(db).comments;
    expect(comments.find((c) => c.id === 'c1')?.parentId).toBeNull();
    expect(comments.find((c) => c.id === 'r1')?.parentId).toBe('c1');
  });

  it('reads the same catalogue the same way twice', () => {
    expect(JSON.stringify(readCatalogue(db))).toBe(JSON.stringify(readCatalogue(db)));
  });

  it('hands keepVideo each visible video once, as read, and lists what it keeps: never a private one', () => {
    const given: PublicVideo[] = [];
    const kept = readCatalogue(db, { keepVideo: (record) => (given.push(record), { ...record, title: `kept ${record.title}` }) });
    expect(given.map((v) => v.id).sort()).toEqual(['pub1', 'unl1']);
    expect(JSON.stringify(given)).not.toMatch(/SECRET|secretvideo/);
    // in the catalogue's order, each the record keepVideo returned for it
    expect(kept.videos.map((v) => [v.id, v.title])).toEqual(readCatalogue(db).videos.map((v) => [v.id, `kept ${v.title}`]));
    // what is read beside the videos is the same either way
    expect(JSON.stringify({ ...kept, videos: [] })).toBe(JSON.stringify({ ...readCatalogue(db), videos: [] }));
  });

  it('refuses a keepVideo that changes which record it keeps (the kept ids decide which comments and playlist items are read)', () => {
    // a public video kept under the private one's id would let the private video's comments and playlist place through
    expect(() => readCatalogue(db, { keepVideo: (record) => ({ ...record, id: record.id === 'pub1' ? 'secretvideo' : record.id }) }))
      .toThrow('keepVideo changed video "pub1"\'s id or privacy');
    expect(() => readCatalogue(db, { keepVideo: (record) => ({ ...record, privacy: 'public' }) })).toThrow('keepVideo changed video "unl1"\'s id or privacy');
    // checked against the row, not against the record keepVideo was given (which it may change in place)
    expect(() => readCatalogue(db, {
      keepVideo: (record) => {
        (record as { privacy: string }).privacy = 'public';
        return record;
      },
    })).toThrow('keepVideo changed video "unl1"\'s id or privacy');
  });
});

/** The fields the build's worker reads for trending, related and the sort orders, of a record readCatalogue made. */
const deriveFieldsOf = ({ id, privacy, tags, channel, category, views, likes, publishedAt }: PublicVideo) => ({ id, privacy, tags, channel, category, views, likes, publishedAt });

describe('readDeriveFields, the fields trending and related are computed from (the build\'s worker reads them itself)', () => {
  it('gives exactly the fields of the videos readCatalogue gives, in its order: never a private video\'s', () => {
    // counts and a category left empty by hand (SQL allows NULL where the import never writes one)
    db.exec("INSERT INTO videos (id, channel, title, published_at, privacy, views, likes, category) VALUES ('nulls', 'alice', 'N', '2026-02-01T00:00:00Z', 'public', NULL, NULL, NULL)");
    db.exec("INSERT INTO video_tags (video_id, position, tag) VALUES ('nulls', 1, 'second'), ('nulls', 0, 'First')");
    const fields = readDeriveFields(db);
    expect(fields).toEqual(readCatalogue(db).videos.map(deriveFieldsOf));
    expect(fields.map((v) => v.id)).toEqual(['nulls', 'pub1', 'unl1']);
    expect(fields[0]).toEqual({ id: 'nulls', privacy: 'public', tags: ['First', 'second'], channel: 'alice', category: undefined, views: 0, likes: 0, publishedAt: '2026-02-01T00:00:00Z' });
    expect(JSON.stringify(fields)).not.toContain('SECRET');
    expect(fields.map((v) => v.id)).not.toContain('secretvideo');
  });

  it('readDeriveFieldsOf gives the same record for each video named, and nothing for one private or missing', () => {
    db.exec("INSERT INTO videos (id, channel, title, published_at, privacy, views, likes, category) VALUES ('nulls', 'alice', 'N', '2026-02-01T00:00:00Z', 'public', NULL, NULL, NULL)");
    db.exec("INSERT INTO video_tags (video_id, position, tag) VALUES ('nulls', 1, 'second'), ('nulls', 0, 'First')");
    db.exec("INSERT INTO videos (id, channel, title, published_at, privacy) VALUES ('é\u{1f600}\"x', 'alice', 'U', '2026-02-02T00:00:00Z', 'unlisted')");
    // a tag repeated within a video's list and across videos (readDeriveFields gives each distinct tag one string)
    db.exec("INSERT INTO video_tags (video_id, position, tag) VALUES ('nulls', 2, 'First'), ('é\u{1f600}\"x', 0, 'second'), ('é\u{1f600}\"x', 1, 't1')");
    const all = readDeriveFields(db);
    expect(all.find((v) => v.id === 'nulls')!.tags).toEqual(['First', 'second', 'First']);
    expect(all.find((v) => v.id === 'é\u{1f600}"x')!.tags).toEqual(['second', 't1']);
    const named = ['unl1', 'secretvideo', 'nulls', 'no-such-video', 'é\u{1f600}"x', 'pub1'];
    const some = readDeriveFieldsOf(db, named);
    expect([...some].sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual(all.filter((v) => named.includes(v.id)).sort((a, b) => (a.id < b.id ? -1 : 1)));
    expect(some.map((v) => v.id).sort()).toEqual(['nulls', 'pub1', 'unl1', 'é\u{1f600}"x'].sort());
    expect(JSON.stringify(some)).not.toContain('SECRET');
    expect(readDeriveFieldsOf(db, [])).toEqual([]);
  });
});

describe('catalogues of schema 1 (before caption files)', () => {
  it('are read as they are, and gain the caption url column when opened for writing', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'vpa-schema1-'));
    const path = join(dir, 'catalogue.db');
    try {
      const old = openCatalogue(path);
      writeRecords(old, [rawChannel('alice'), rawVideo('v1', { captions: [{ lang: 'en', label: 'English' }] })]);
      old.exec('ALTER TABLE video_captions DROP COLUMN url');
      old.close();

      const readOnly = openCatalogue(path, { readonly: true });
      expect(readCatalogue(readOnly).videos[0]!.captions).toEqual([{ lang: 'en', label: 'English' }]);
      readOnly.close();

      const writable = openCatalogue(path);
      writeRecords(writable, [rawVideo('v1', { captions: [{ lang: 'en', label: 'English', url: '/media/captions/v1.en.vtt' }] })]);
      expect(readCatalogue(writable).videos[0]!.captions).toEqual([{ lang: 'en', label: 'English', url: '/media/captions/v1.en.vtt' }]);
      writable.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('readCatalogue, the order of what it reads (the model and the snapshot bytes follow it)', () => {
  // rows written out of key order, some keys only SQL by hand could write (the import allows ASCII
  // keys), where UTF-16 and SQLite's UTF-8 order part
  const KEYS = ['zeta', 'Alpha', 'mid', '\u{1f600}', '\uffee', 'a'];
  let ordered: string[];
  beforeEach(() => {
    db.exec('DELETE FROM comments; DELETE FROM playlist_items; DELETE FROM playlists; DELETE FROM video_tags; DELETE FROM videos;');
    const insertVideo = db.prepare("INSERT INTO videos (id, channel, title, published_at, privacy) VALUES (?, 'alice', ?, '2026-01-01T00:00:00Z', 'public')");
    const insertTag = db.prepare('INSERT INTO video_tags (video_id, position, tag) VALUES (?, ?, ?)');
    const insertPlaylist = db.prepare("INSERT INTO playlists (id, channel, title, privacy) VALUES (?, 'alice', 'P', 'public')");
    const insertItem = db.prepare('INSERT INTO playlist_items (playlist_id, position, video_id) VALUES (?, ?, ?)');
    const insertComment = db.prepare("INSERT INTO comments (id, video_id, parent_id, text, published_at, author_display_name, state) VALUES (?, ?, ?, 'hi', '2026-01-02T00:00:00Z', 'V', 'published')");
    for (const key of KEYS) {
      insertVideo.run(key, `Title ${key}`);
      for (const position of [2, 0, 1]) insertTag.run(key, position, `${key}-${position}`);
      insertPlaylist.run(key);
      for (const position of [1, 0]) insertItem.run(key, position, KEYS[position]!);
      insertComment.run(`r-${key}`, 'zeta', `c-${KEYS[0]}`);
      insertComment.run(`c-${key}`, 'zeta', null);
    }
    ordered = db.prepare('SELECT id FROM videos ORDER BY id').pluck().all() as string[];
  });

  it('gives videos and playlists in the order of SQLite\'s ORDER BY id, whatever order they were written in', () => {
    expect(ordered).not.toEqual(KEYS);
    expect([...KEYS].sort()).not.toEqual(ordered);
    const catalogue = readCatalogue(db);
    expect(catalogue.videos.map((v) => v.id)).toEqual(ordered);
    expect(catalogue.playlists.map((p) => p.id)).toEqual(ordered);
  });

  it('gives the derive fields in the same order as the videos (readDeriveFields)', () => {
    expect(readDeriveFields(db).map((v) => v.id)).toEqual(ordered);
    expect(readDeriveFields(db)).toEqual(readCatalogue(db).videos.map(deriveFieldsOf));
  });

  it('keeps tags and playlist items in their positions', () => {
    const catalogue = readCatalogue(db);
    expect(catalogue.videos.find((v) => v.id === 'mid')!.tags).toEqual(['mid-0', 'mid-1', 'mid-2']);
    expect(catalogue.playlists.find((p) => p.id === 'mid')!.videoIds).toEqual([KEYS[0], KEYS[1]]);
  });

  it('gives top-level comments first, then replies, each in the order of SQLite\'s ORDER BY id', () => {
    const expected = db.prepare('SELECT id FROM comments ORDER BY parent_id IS NOT NULL, id').pluck().all();
    expect(readCatalogue(db).comments.map((c) => c.id)).toEqual(expected);
  });
});
