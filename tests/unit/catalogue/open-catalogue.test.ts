// openCatalogue's bulk-load mode (docs/catalogue.md, "Bulk loading"): a new file only, no syncs
// while loading, secondary indexes dropped and rebuilt at the end, one self-contained file after.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { finishBulkLoad, openCatalogue, openCatalogueForBulkLoad } from '../../../src/catalogue/open-catalogue.ts';

const dir = mkdtempSync(join(tmpdir(), 'open-catalogue-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Db = ReturnType<typeof openCatalogue>;
const indexNames = (db: Db) => db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name").pluck().all();

describe('openCatalogueForBulkLoad and finishBulkLoad', () => {
  it('load without syncs or indexes, and leave one file with every index of an ordinary catalogue', () => {
    const ordinary = openCatalogue(join(dir, 'ordinary.db'));
    const expected = indexNames(ordinary);
    ordinary.close();
    expect(expected.length).toBeGreaterThan(0);

    const path = join(dir, 'bulk.db');
    const db = openCatalogueForBulkLoad(path);
    expect(db.pragma('synchronous', { simple: true })).toBe(0);
    expect(db.pragma('cache_size', { simple: true })).toBe(-131_072);
    expect(indexNames(db)).toEqual([]);
    db.prepare('INSERT INTO categories (id, name) VALUES (?, ?)').run('music', 'Music');
    finishBulkLoad(db);
    expect(db.pragma('journal_mode', { simple: true })).toBe('delete');
    expect(indexNames(db)).toEqual(expected);
    db.close();
    expect(existsSync(`${path}-wal`)).toBe(false);

    const reopened = openCatalogue(path, { readonly: true });
    expect(reopened.prepare('SELECT name FROM categories').pluck().all()).toEqual(['Music']);
    expect(reopened.pragma('integrity_check', { simple: true })).toBe('ok');
    reopened.close();
  });

  it('refuses a file that exists, or :memory:, rather than load into a catalogue someone has', () => {
    const path = join(dir, 'existing.db');
    writeFileSync(path, '');
    expect(() => openCatalogueForBulkLoad(path)).toThrow(`a bulk load writes a new catalogue file, and ${path} exists`);
    expect(() => openCatalogueForBulkLoad(':memory:')).toThrow('a bulk load writes a new catalogue file, and :memory: is not one');
  });
});
