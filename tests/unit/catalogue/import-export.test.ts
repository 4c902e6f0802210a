// The import as operators run it (importCatalogueFile, the CLI) and the export: the file rules of
// docs/catalogue.md, an all-or-nothing import that leaves nothing behind, and a lossless round trip.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { exportRecords } from '../../../src/catalogue/export-catalogue.ts';
import { importCatalogue, importCatalogueFile, ImportError } from '../../../src/catalogue/import-catalogue.ts';
import { openCatalogue } from '../../../src/catalogue/open-catalogue.ts';
import { readRevision } from '../../../src/catalogue/revision.ts';
import { CONTENT_TABLES } from '../../../src/catalogue/schema.ts';
import { seedCatalogue } from '../../../src/catalogue/seed-catalogue.ts';
import { exportCatalogue } from '../../../src/catalogue/write-ndjson.ts';
import { rawCategory, rawChannel, rawComment, rawPlaylist, rawVideo, tempDirs, writeNdjsonFile, type Raw } from '../support/fixtures.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const small: Raw[] = [
  rawCategory('music', 'Music'),
  rawChannel('alice'),
  rawVideo('v1', { category: 'music', tags: ['a'] }),
  rawVideo('v2', { privacy: 'private' }),
  rawPlaylist('p1', ['v1', 'v2'], { privacy: 'private' }),
  rawComment('c1', 'v1'),
  rawComment('c2', 'v1', { state: 'spam' }),
  rawComment('r1', 'v1', { parentId: 'c1', state: 'held' }),
];

async function importErrors(path: string, file: string) {
  try {
    await importCatalogueFile(path, file);
  } catch (error) {
    if (error instanceof ImportError) return error.errors;
    throw error;
  }
  throw new Error('expected an ImportError');
}

/** Every table's rows, for comparing two catalogues whole. */
function dump(path: string): Record<string, unknown[]> {
  const db = openCatalogue(path, { readonly: true });
  try {
    return Object.fromEntries(CONTENT_TABLES.map((t) => [t, db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).all()]));
  } finally {
    db.close();
  }
}

describe('unknown keys', () => {
  it('refuses a key the format does not define, naming the key and the closest known one', async () => {
    const dir = dirs.make();
    const file = writeNdjsonFile(dir, 'c.ndjson', [rawChannel('alice'), rawVideo('v1', { thumbnail_url: 'https://img.example/t.jpg', tag: ['x'] })]);
    const errors = await importErrors(join(dir, 'catalogue.db'), file);
    expect(errors.map((e) => [e.line, e.field])).toEqual([[2, 'thumbnail_url'], [2, 'tag']]);
    expect(errors[0]!.message).toMatch(/did you mean "thumbnailUrl"/);
    expect(errors[1]!.message).toMatch(/did you mean "tags"/);
  });

  it('names unknown keys inside nested objects by their path', async () => {
    const dir = dirs.make();
    const file = writeNdjsonFile(dir, 'c.ndjson', [rawChannel('alice'), rawVideo('v1', { sources: [{ url: '/m/a.webm', type: 'video/webm', hieght: 480 }] })]);
    const errors = await importErrors(join(dir, 'catalogue.db'), file);
    expect(errors.find((e) => e.field === 'sources.0.hieght')?.message).toMatch(/did you mean "height"/);
  });
});

describe('text', () => {
  it('turns line breaks and tabs in one-line fields into a space, and keeps them in descriptions', async () => {
    const dir = dirs.make();
    const path = join(dir, 'catalogue.db');
    await importCatalogueFile(path, writeNdjsonFile(dir, 'c.ndjson', [rawChannel('alice'), rawVideo('v1', { title: 'Part one\r\n\tpart two', tags: ['a\nb'], description: 'x\n\ty' })]));
    const db = openCatalogue(path, { readonly: true });
    expect(db.prepare('SELECT title, description FROM videos').get()).toEqual({ title: 'Part one part two', description: 'x\n\ty' });
    expect(db.prepare('SELECT tag FROM video_tags').pluck().get()).toBe('a b');
    db.close();
  });

  it('refuses NUL and other control characters, naming the line and field', async () => {
    const dir = dirs.make();
    const file = writeNdjsonFile(dir, 'c.ndjson', [rawChannel('alice'), rawVideo('v1', { title: 'a\u0000b' }), rawVideo('v2', { description: 'bell\u0007' })]);
    const errors = await importErrors(join(dir, 'catalogue.db'), file);
    expect(errors.map((e) => [e.line, e.field])).toEqual([[2, 'title'], [3, 'description']]);
    expect(errors[0]!.message).toMatch(/control characters/);
  });

  it('refuses a lone surrogate, which is not text', async () => {
    const dir = dirs.make();
    const file = writeNdjsonFile(dir, 'c.ndjson', [rawChannel('alice'), '{"kind":"video","id":"v1","channel":"alice","title":"a\\ud800b","publishedAt":"2026-01-01T00:00:00Z","privacy":"public"}']);
    expect((await importErrors(join(dir, 'catalogue.db'), file)).map((e) => [e.line, e.field])).toEqual([[2, 'title']]);
  });
});

describe('records that would break the site', () => {
  it('refuses javascript: and other non-http URLs, an unknown category, an empty title, a dangling playlist item or parent', async () => {
    const dir = dirs.make();
    const file = writeNdjsonFile(dir, 'c.ndjson', [
      rawChannel('alice'),
      rawVideo('v1', { sources: [{ url: 'javascript:alert(1)', type: 'video/mp4', height: 360 }] }),
      rawVideo('v2', { thumbnailUrl: 'javascript:alert(1)' }),
      rawVideo('v3', { captions: [{ lang: 'en', label: 'English', url: 'data:text/vtt,WEBVTT' }] }),
      rawVideo('v4', { category: 'nowhere' }),
      rawVideo('v5', { title: '   ' }),
      rawVideo('v6'),
      rawPlaylist('p1', ['v6', 'ghost']),
      rawComment('c1', 'v6', { parentId: 'ghost' }),
    ]);
    const errors = await importErrors(join(dir, 'catalogue.db'), file);
    expect(errors.map((e) => [e.line, e.field])).toEqual([
      [2, 'sources.0.url'], [3, 'thumbnailUrl'], [4, 'captions.0.url'], [5, 'category'], [6, 'title'], [8, 'videos.1'], [9, 'parentId'],
    ]);
  });
});

describe('importCatalogueFile', () => {
  it('leaves no catalogue file behind when an import into a new one fails', async () => {
    const dir = dirs.make();
    const path = join(dir, 'catalogue.db');
    await importErrors(path, writeNdjsonFile(dir, 'c.ndjson', [rawVideo('v1', { channel: 'nobody' })]));
    expect(readdirSync(dir).filter((f) => f.startsWith('catalogue.db'))).toEqual([]);
  });

  it('leaves no catalogue behind when the gzip data is truncated, and names the file', async () => {
    const dir = dirs.make();
    const path = join(dir, 'catalogue.db');
    const whole = gzipSync(Array.from({ length: 3000 }, (_, i) => JSON.stringify(rawChannel(`ch${i}`, { description: 'd'.repeat(i % 300) }))).join('\n'));
    const file = join(dir, 'cut.ndjson.gz');
    writeFileSync(file, whole.subarray(0, whole.length - 100));
    await expect(importCatalogueFile(path, file)).rejects.toThrow(new RegExp(`${file}.*truncated`));
    expect(existsSync(path)).toBe(false);
  });

  it('treats a file with no record as a no-op: nothing written, revision unchanged, no file created', async () => {
    const dir = dirs.make();
    const path = join(dir, 'catalogue.db');
    const empty = join(dir, 'empty.ndjson');
    writeFileSync(empty, '\n  \n');
    expect((await importCatalogueFile(path, empty)).unchanged).toBe(true);
    expect(existsSync(path)).toBe(false);

    await importCatalogueFile(path, writeNdjsonFile(dir, 'c.ndjson', small));
    const db = openCatalogue(path);
    const revision = readRevision(db);
    const before = dump(path);
    expect((await importCatalogue(db, empty, { replace: true })).unchanged).toBe(true);
    expect(readRevision(db)).toBe(revision);
    db.close();
    expect(dump(path)).toEqual(before);
  });

  it('accepts a file that starts with a UTF-8 byte-order mark', async () => {
    const dir = dirs.make();
    const file = join(dir, 'bom.ndjson');
    writeFileSync(file, `\uFEFF${JSON.stringify(rawChannel('alice'))}\n`);
    expect((await importCatalogueFile(join(dir, 'catalogue.db'), file)).counts).toEqual({ channel: 1 });
  });

  it('refuses a line that is not UTF-8 by its number, and imports nothing', async () => {
    const dir = dirs.make();
    const file = join(dir, 'latin1.ndjson');
    writeFileSync(file, Buffer.concat([Buffer.from(`${JSON.stringify(rawChannel('alice'))}\n{"kind":"category","id":"c","name":"Caf`), Buffer.from([0xe9]), Buffer.from('"}\n')]));
    const errors = await importErrors(join(dir, 'catalogue.db'), file);
    expect(errors.map((e) => [e.line, e.message])).toEqual([[2, expect.stringMatching(/not valid UTF-8/)]]);
  });

  it('validates on worker threads with the same result as on the main thread', async () => {
    const dir = dirs.make();
    const bad = [...small, rawVideo('v9', { views: -1 }), rawComment('c9', 'ghost')];
    const file = writeNdjsonFile(dir, 'c.ndjson', bad);
    const on = async (workers: boolean) => {
      const db = openCatalogue(':memory:');
      try {
        await importCatalogue(db, file, { workers });
        return [];
      } catch (error) {
        return (error as ImportError).errors;
      } finally {
        db.close();
      }
    };
    const inline = await on(false);
    expect(inline.map((e) => e.line)).toEqual([9, 10]);
    expect(await on(true)).toEqual(inline);
  });
});

describe('export', () => {
  it('gives the same catalogue back, private records and unpublished comments included (seed → export → import → export)', async () => {
    const dir = dirs.make();
    const first = join(dir, 'first.db');
    seedCatalogue(first, { videos: 400, seed: 3 });
    const file = join(dir, 'export.ndjson.gz');
    const summary = await exportCatalogue(openCatalogue(first, { readonly: true }), file);
    const second = join(dir, 'second.db');
    const workersDb = openCatalogue(second);
    await importCatalogue(workersDb, file, { workers: true });
    workersDb.close();
    expect(dump(second)).toEqual(dump(first));
    const again = join(dir, 'again.ndjson');
    await exportCatalogue(openCatalogue(second, { readonly: true }), again);
    expect(readFileSync(again, 'utf8')).toBe(gunzipSync(readFileSync(file)).toString('utf8'));
    const text = readFileSync(again, 'utf8');
    expect(text).toContain('"privacy":"private"');
    expect(text).toMatch(/"state":"(held|spam|removed)"/);
    expect(summary.records).toBe(text.trim().split('\n').length);
  });

  it('leaves nothing beside FILE when the catalogue cannot be read (locked by another writer, say)', async () => {
    // before: the temporary FILE.<pid>.tmp stayed: its stream opened it on the next tick, after the
    // failure had removed the (not yet created) file
    const dir = dirs.make();
    const path = join(dir, 'c.db');
    seedCatalogue(path, { videos: 20, seed: 3 });
    const other = openCatalogue(path);
    other.pragma('journal_mode = DELETE'); // a rollback journal: a writer's exclusive lock keeps readers out
    other.exec('BEGIN EXCLUSIVE');
    const db = openCatalogue(path, { readonly: true });
    try {
      db.pragma('busy_timeout = 0');
      await expect(exportCatalogue(db, join(dir, 'export.ndjson.gz'))).rejects.toThrow(/locked/);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(readdirSync(dir).filter((name) => name.startsWith('export'))).toEqual([]);
    } finally {
      db.close();
      other.exec('ROLLBACK');
      other.close();
    }
  });

  it('closes every statement when its reader stops early, so the read transaction ends', () => {
    const dir = dirs.make();
    const path = join(dir, 'c.db');
    seedCatalogue(path, { videos: 20, seed: 3 });
    const db = openCatalogue(path, { readonly: true });
    try {
      db.exec('BEGIN');
      for (const record of exportRecords(db)) if (record.kind === 'video') break;
      // before: a child table's iterator stayed open: "This database connection is busy executing a query"
      expect(() => db.exec('COMMIT')).not.toThrow();
    } finally {
      db.close();
    }
  });

  it('says a full disk (a file-size limit) as the cause, and leaves nothing beside FILE', () => {
    // before: "export: This database connection is busy executing a query", and FILE's temporary could stay
    const dir = dirs.make();
    const path = join(dir, 'c.db');
    seedCatalogue(path, { videos: 3000, seed: 3 }); // about 3 MB: the limit is met while records are still read (1 MB a write)
    const out = join(dir, 'out', 'export.ndjson');
    mkdirSync(join(dir, 'out'));
    const run = spawnSync('bash', ['-c', `ulimit -f 64 && exec "${process.execPath}" scripts/export.ts "${out}" --db "${path}"`], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/^export: EFBIG: file too large/);
    expect(readdirSync(join(dir, 'out'))).toEqual([]);
  });

  it('writes what refers to other records after them, so the file imports in order', async () => {
    const dir = dirs.make();
    const path = join(dir, 'c.db');
    await importCatalogueFile(path, writeNdjsonFile(dir, 'c.ndjson', [...small].reverse()));
    const db = openCatalogue(path, { readonly: true });
    const records = [...exportRecords(db)];
    db.close();
    expect(records.map((r) => r.kind)).toEqual(['category', 'channel', 'video', 'video', 'playlist', 'comment', 'comment', 'comment']);
    expect(records.filter((r) => r.kind === 'comment').map((r) => r.kind === 'comment' && r.id)).toEqual(['c1', 'c2', 'r1']);
  });
});

describe('npm run import and export (the commands)', () => {
  const run = (script: string, args: string[]) => spawnSync(process.execPath, [`scripts/${script}.ts`, ...args], { encoding: 'utf8' });

  it('answer --help and refuse unknown flags', () => {
    for (const script of ['import', 'export']) {
      const help = run(script, ['--help']);
      expect(help.status, script).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`usage: npm run ${script} -- FILE`));
      const wrong = run(script, ['x.ndjson', '--replcae']);
      expect(wrong.status, script).toBe(2);
      expect(wrong.stderr).toMatch(/--replcae/);
    }
  });

  it('import names what is wrong with FILE: missing, or a directory', () => {
    const dir = dirs.make();
    const db = join(dir, 'catalogue.db');
    const missing = run('import', [join(dir, 'nothing.ndjson'), '--db', db]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe(`import: no such file: ${join(dir, 'nothing.ndjson')}\n`);
    const directory = run('import', [dir, '--db', db]);
    expect(directory.status).toBe(2);
    expect(directory.stderr).toBe(`import: ${dir} is a directory: give the NDJSON file to import\n`);
    expect(existsSync(db)).toBe(false);
  });

  it('import into a new catalogue on a full disk (a file-size limit) leaves no side file', () => {
    // before: PATH.importing-PID, its -wal and -shm stayed: the disk filled while the new file's schema was written
    const dir = dirs.make();
    const file = writeNdjsonFile(dir, 'c.ndjson', small);
    mkdirSync(join(dir, 'out'));
    const db = join(dir, 'out', 'catalogue.db');
    const failed = spawnSync('bash', ['-c', `ulimit -f 4 && exec "${process.execPath}" scripts/import.ts "${file}" --db "${db}"`], { encoding: 'utf8' });
    expect(failed.status, failed.stderr).toBe(1);
    expect(readdirSync(join(dir, 'out'))).toEqual([]);
  });

  it('import refuses an IMPORT_WORKERS other than 0 or 1, naming it, and writes nothing', () => {
    // before: any other value ("true", "2") was taken silently for the default
    const dir = dirs.make();
    const file = writeNdjsonFile(dir, 'c.ndjson', small);
    const db = join(dir, 'catalogue.db');
    for (const value of ['true', '2']) {
      const refused = spawnSync(process.execPath, ['scripts/import.ts', file, '--db', db], { encoding: 'utf8', env: { ...process.env, IMPORT_WORKERS: value } });
      expect(refused.status, refused.stderr).toBe(2);
      expect(refused.stderr).toContain(`import: invalid configuration: IMPORT_WORKERS must be 0 (validate on the main thread) or 1 (on a worker), or unset (got "${value}")`);
      expect(readdirSync(dir).sort()).toEqual(['c.ndjson']);
    }
  });

  it('export refuses a FILE that is a directory before writing anything', () => {
    const dir = dirs.make();
    const db = join(dir, 'catalogue.db');
    expect(run('import', [writeNdjsonFile(dir, 'c.ndjson', small), '--db', db]).status).toBe(0);
    const before = readdirSync(dir).sort();
    const result = run('export', [dir, '--db', db]);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(`export: ${dir} is a directory: give the path of the file to write\n`);
    expect(result.stdout).toBe('');
    expect(readdirSync(dir).sort()).toEqual(before);
  });

  it('import prints each error as FILE:LINE: FIELD: message and exits 1 with --db untouched', () => {
    const dir = dirs.make();
    const file = writeNdjsonFile(dir, 'c.ndjson', [rawChannel('alice'), rawVideo('v1', { sources: [{ url: 'javascript:alert(1)', type: 'video/mp4', height: 1 }] })]);
    const db = join(dir, 'catalogue.db');
    const result = run('import', [file, '--db', db]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`${file}:2: sources.0.url: must be an absolute http(s) URL or a path on this deployment`);
    expect(existsSync(db)).toBe(false);
  });

  it('export then import with --db gives the same catalogue', () => {
    const dir = dirs.make();
    const first = join(dir, 'first.db');
    const second = join(dir, 'second.db');
    const file = join(dir, 'out.ndjson');
    const made = run('import', [writeNdjsonFile(dir, 'c.ndjson', small), '--db', first]);
    expect(made.status, made.stderr).toBe(0);
    expect(run('export', [file, '--db', first]).status).toBe(0);
    const back = run('import', [file, '--db', second]);
    expect(back.status, back.stderr).toBe(0);
    expect(back.stdout).toMatch(/loaded 8 records/);
    expect(dump(second)).toEqual(dump(first));
  });
});
