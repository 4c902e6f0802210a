// seedCatalogue (npm run seed): writes the demo catalogue whole, as a bulk load, reporting progress,
// and leaves the previous catalogue and no temporary file behind when it fails.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCatalogue } from '../../../src/catalogue/open-catalogue.ts';
import { seedCatalogue, type SeedProgress } from '../../../src/catalogue/seed-catalogue.ts';

describe('seedCatalogue', () => {
  const dir = mkdtempSync(join(tmpdir(), 'seed-catalogue-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const countRows = (path: string) => {
    const db = openCatalogue(path, { readonly: true });
    const count = (table: string) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
    const rows = {
      category: count('categories'), channel: count('channels'), video: count('videos'), playlist: count('playlists'),
      comment: count('comments'), live: count('live_streams'), alert: count('alerts'),
    };
    db.close();
    return rows;
  };

  it('writes a catalogue whose row counts match its summary, reporting progress every 10%', () => {
    const path = join(dir, 'ok', 'catalogue.db');
    const progress: SeedProgress[] = [];
    const summary = seedCatalogue(path, { videos: 300, seed: 5 }, (p) => progress.push(p));
    expect(countRows(path)).toEqual(summary.counts);
    expect(summary.records).toBe(Object.values(summary.counts).reduce((a, b) => a + b, 0));
    expect(summary.validated).toBe(summary.records);
    expect(progress.map((p) => p.videos)).toEqual([30, 60, 90, 120, 150, 180, 210, 240, 270, 300]);
    expect(readdirSync(join(dir, 'ok'))).toEqual(['catalogue.db']);
  });

  it('replaces an existing catalogue whole', () => {
    const path = join(dir, 'replace.db');
    seedCatalogue(path, { videos: 200, seed: 1 });
    const summary = seedCatalogue(path, { videos: 100, seed: 2 });
    expect(countRows(path)).toEqual(summary.counts);
  });

  it('leaves no file behind when the target directory cannot be made', () => {
    const file = join(dir, 'not-a-directory');
    writeFileSync(file, 'x');
    const path = join(file, 'sub', 'catalogue.db');
    expect(() => seedCatalogue(path, { videos: 50, seed: 1 })).toThrow();
    expect(existsSync(path)).toBe(false);
    expect(existsSync(`${path}.tmp`)).toBe(false);
  });

  it('leaves the previous catalogue untouched and no temporary file when it fails midway', () => {
    const path = join(dir, 'midway.db');
    const before = seedCatalogue(path, { videos: 100, seed: 3 });
    const fail = (p: SeedProgress) => {
      if (p.videos >= 250) throw new Error('disk full');
    };
    expect(() => seedCatalogue(path, { videos: 500, seed: 4 }, fail)).toThrow('disk full');
    expect(countRows(path)).toEqual(before.counts);
    expect(readdirSync(dir).filter((name) => name.startsWith('midway'))).toEqual(['midway.db']);

    const fresh = join(dir, 'fresh.db');
    expect(() => seedCatalogue(fresh, { videos: 500, seed: 4 }, fail)).toThrow('disk full');
    expect(readdirSync(dir).filter((name) => name.startsWith('fresh'))).toEqual([]);
  });
});
