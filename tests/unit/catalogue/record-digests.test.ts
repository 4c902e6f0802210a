// Records an import leaves as they are (src/catalogue/write-records.ts, docs/catalogue.md): a file
// imported again writes, and the change log names, only the records that differ from the
// catalogue's; a record changed by any other writer (hand SQL, a tag included) is written again by
// the next import that brings it; `--replace` writes everything.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readChangeLogMark, readChangesSince, type ChangeLogMark } from '../../../src/catalogue/change-log.ts';
import { importCatalogueFile } from '../../../src/catalogue/import-catalogue.ts';
import { openCatalogue, type Catalogue } from '../../../src/catalogue/open-catalogue.ts';
import { readRevision } from '../../../src/catalogue/revision.ts';
import { rawChannel, rawComment, rawPlaylist, rawVideo, tempDirs, writeNdjsonFile, type Raw } from '../support/fixtures.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const records = (title = 'First'): Raw[] => [
  rawChannel('alice'),
  rawVideo('v1', { channel: 'alice', title, tags: ['x', 'y'] }),
  rawVideo('v2', { channel: 'alice' }),
  rawComment('c1', 'v2'),
  rawPlaylist('p1', ['v1', 'v2'], { channel: 'alice' }),
];

const changedSince = (path: string, mark: ChangeLogMark): string[] => {
  const db = openCatalogue(path, { readonly: true });
  try {
    const since = readChangesSince(db, mark);
    if (since.changes === undefined) throw new Error(since.none);
    const { count: _count, ...byKind } = since.changes;
    return Object.entries(byKind).flatMap(([kind, ids]) => [...ids].map((id) => `${kind}:${id}`)).sort();
  } finally {
    db.close();
  }
};
const read = <T>(path: string, use: (db: Catalogue) => T): T => {
  const db = openCatalogue(path, { readonly: true });
  try {
    return use(db);
  } finally {
    db.close();
  }
};

describe('an import of records the catalogue holds already', () => {
  it('leaves them as they are: nothing written, nothing logged, the revision kept', async () => {
    const dir = dirs.make();
    const path = join(dir, 'catalogue.db');
    const file = writeNdjsonFile(dir, 'a.ndjson', records());
    await importCatalogueFile(path, file);
    const mark = read(path, readChangeLogMark)!;
    const revision = read(path, readRevision);
    const again = await importCatalogueFile(path, file);
    expect(again).toMatchObject({ lines: 5, kept: 5, unchanged: true });
    expect(changedSince(path, mark)).toEqual([]);
    expect(read(path, readRevision)).toBe(revision);
  });

  it('writes and logs only the record that differs', async () => {
    const dir = dirs.make();
    const path = join(dir, 'catalogue.db');
    await importCatalogueFile(path, writeNdjsonFile(dir, 'a.ndjson', records()));
    const mark = read(path, readChangeLogMark)!;
    const revision = read(path, readRevision);
    const changed = await importCatalogueFile(path, writeNdjsonFile(dir, 'b.ndjson', records('Second')));
    expect(changed).toMatchObject({ lines: 5, kept: 4, unchanged: false });
    expect(changedSince(path, mark)).toEqual(['video:v1']);
    expect(read(path, (db) => db.prepare("SELECT title FROM videos WHERE id = 'v1'").pluck().get())).toBe('Second');
    expect(read(path, readRevision)).not.toBe(revision);
  });

  it('writes a record again when another writer changed it since, its own row or a tag', async () => {
    const dir = dirs.make();
    const path = join(dir, 'catalogue.db');
    const file = writeNdjsonFile(dir, 'a.ndjson', records());
    await importCatalogueFile(path, file);
    const db = openCatalogue(path);
    db.exec("UPDATE videos SET title = 'By hand' WHERE id = 'v1'");
    db.exec("DELETE FROM video_tags WHERE video_id = 'v1' AND tag = 'y'");
    db.exec("UPDATE comments SET text = 'edited' WHERE id = 'c1'");
    db.close();
    const mark = read(path, readChangeLogMark)!;
    const again = await importCatalogueFile(path, file);
    expect(again).toMatchObject({ kept: 3, unchanged: false });
    expect(changedSince(path, mark)).toEqual(['comment:c1', 'comments_on:v2', 'video:v1']);
    expect(read(path, (db) => db.prepare("SELECT title FROM videos WHERE id = 'v1'").pluck().get())).toBe('First');
    expect(read(path, (db) => db.prepare("SELECT tag FROM video_tags WHERE video_id = 'v1' ORDER BY position").pluck().all())).toEqual(['x', 'y']);
    expect(read(path, (db) => db.prepare("SELECT text FROM comments WHERE id = 'c1'").pluck().get())).not.toBe('edited');
  });

  it('writes everything with --replace', async () => {
    const dir = dirs.make();
    const path = join(dir, 'catalogue.db');
    const file = writeNdjsonFile(dir, 'a.ndjson', records());
    await importCatalogueFile(path, file);
    const mark = read(path, readChangeLogMark)!;
    const replaced = await importCatalogueFile(path, file, { replace: true });
    expect(replaced).toMatchObject({ kept: 0, unchanged: false });
    expect(changedSince(path, mark)).toEqual(['channel:alice', 'comment:c1', 'comments_on:v2', 'playlist:p1', 'video:v1', 'video:v2']);
  });
});
