// Chapters in the catalogue: validated on import (sorted, inside the duration), stored in SQLite,
// read back for public videos only, and read from an older catalogue that has no chapters table.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openCatalogue } from '../../../src/catalogue/open-catalogue.ts';
import { readCatalogue } from '../../../src/catalogue/read-catalogue.ts';
import { SCHEMA_VERSION } from '../../../src/catalogue/schema.ts';
import { parseRecordLine } from '../../../src/catalogue/validate-records.ts';
import { rawChannel, rawVideo, writeRecords } from '../support/fixtures.ts';

const chapters = [{ start: 0, title: 'Intro' }, { start: 60, title: 'Setup' }, { start: 150, title: 'Demo' }];
const line = (fields: Record<string, unknown>) => parseRecordLine(1, JSON.stringify({ ...rawVideo('v1'), ...fields }));

describe('the chapters field of a video record', () => {
  it('accepts sorted chapters inside the duration, and a video without any', () => {
    expect(line({ duration: 300, chapters }).record).toMatchObject({ chapters });
    expect(line({ chapters }).errors).toBeUndefined(); // no duration: nothing to be inside
    expect(line({ duration: 300 }).record?.kind).toBe('video');
  });

  it('refuses chapters out of order, repeated starts, starts at or past the end, and bad fields, naming each', () => {
    expect(line({ duration: 300, chapters: [chapters[1], chapters[0]] }).errors).toEqual([
      { line: 1, field: 'chapters.1.start', message: 'must be after the previous chapter\'s start (chapters are sorted)' },
    ]);
    expect(line({ duration: 300, chapters: [chapters[0], { start: 0, title: 'Again' }] }).errors?.map((e) => e.field)).toEqual(['chapters.1.start']);
    expect(line({ duration: 150, chapters }).errors).toEqual([{ line: 1, field: 'chapters.2.start', message: 'must be inside the duration (under 150 s)' }]);
    expect(line({ duration: 300, chapters: [{ start: -1, title: 'x' }] }).errors?.map((e) => e.field)).toEqual(['chapters.0.start']);
    expect(line({ duration: 300, chapters: [{ start: 1.5, title: 'x' }] }).errors?.map((e) => e.field)).toEqual(['chapters.0.start']);
    expect(line({ duration: 300, chapters: [{ start: 0 }] }).errors?.map((e) => e.field)).toEqual(['chapters.0.title']);
    expect(line({ duration: 300, chapters: [{ start: 0, title: 'x', at: 3 }] }).errors).toHaveLength(1);
    expect(line({ chapters: Array.from({ length: 101 }, (_, i) => ({ start: i, title: `c${i}` })) }).errors?.map((e) => e.field)).toEqual(['chapters']);
  });
});

describe('chapters in the catalogue database', () => {
  let dir: string | undefined;
  afterEach(() => { if (dir) rmSync(dir, { recursive: true, force: true }); dir = undefined; });

  it('stores them in order and reads them back on public videos; replacing a video replaces its chapters', () => {
    const db = openCatalogue(':memory:');
    writeRecords(db, [rawChannel('alice'), rawVideo('v1', { duration: 300, chapters }), rawVideo('v2', { duration: 300 }),
      rawVideo('secret', { privacy: 'private', duration: 300, chapters: [{ start: 0, title: 'SECRET-CHAPTER' }] })]);
    const read = readCatalogue(db);
    expect(read.videos.find((v) => v.id === 'v1')?.chapters).toEqual(chapters);
    expect(read.videos.find((v) => v.id === 'v2')?.chapters).toBeUndefined();
    expect(JSON.stringify(read)).not.toContain('SECRET-CHAPTER');
    writeRecords(db, [rawVideo('v1', { duration: 300, chapters: [{ start: 0, title: 'Only' }] })]);
    expect(readCatalogue(db).videos.find((v) => v.id === 'v1')?.chapters).toEqual([{ start: 0, title: 'Only' }]);
    db.close();
  });

  it('reads a catalogue made before chapters (no table) as videos without chapters, and migrates it when opened for writing', () => {
    dir = mkdtempSync(join(tmpdir(), 'chapters-'));
    const path = join(dir, 'old.db');
    const db = openCatalogue(path);
    writeRecords(db, [rawChannel('alice'), rawVideo('v1', { duration: 300 })]);
    db.exec('DROP TABLE video_chapters');
    db.close();
    const old = new Database(path, { readonly: true });
    expect(readCatalogue(old).videos.map((v) => [v.id, v.chapters])).toEqual([['v1', undefined]]);
    old.close();
    const migrated = openCatalogue(path);
    writeRecords(migrated, [rawVideo('v1', { duration: 300, chapters })]);
    expect(readCatalogue(migrated).videos[0]?.chapters).toEqual(chapters);
    expect(migrated.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({ value: String(SCHEMA_VERSION) });
    migrated.close();
  });
});
