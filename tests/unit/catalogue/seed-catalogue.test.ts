// seedCatalogue (npm run seed): writes the demo catalogue whole, as a bulk load, reporting progress,
// and leaves the previous catalogue and no temporary file behind when it fails, or when another
// writer holds that catalogue (the command's refusal is tests/unit/cli/commands.test.ts).
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCatalogue, type Catalogue } from '../../../src/catalogue/open-catalogue.ts';
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

  it('does not rename over a catalogue a writer took hold of while the records were written, and leaves it whole', () => {
    const path = join(dir, 'taken.db');
    const before = seedCatalogue(path, { videos: 100, seed: 3 });
    const inode = statSync(path).ino;
    let writer: Catalogue | undefined;
    // half way through, another connection begins a write transaction on the old file (and keeps it)
    const takeHold = (p: SeedProgress) => {
      if (writer || p.videos < 100) return;
      writer = openCatalogue(path);
      writer.exec('BEGIN IMMEDIATE');
      writer.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('held', 'yes')").run();
    };
    const started = performance.now();
    expect(() => seedCatalogue(path, { videos: 200, seed: 4 }, takeHold)).toThrow(expect.objectContaining({ code: 'SQLITE_BUSY' }));
    expect(performance.now() - started).toBeGreaterThan(4_500); // it waited as every write does
    expect(writer!.inTransaction).toBe(true);
    writer!.exec('COMMIT');
    writer!.close();
    expect(readdirSync(dir).filter((name) => name.startsWith('taken'))).toEqual(['taken.db']); // no taken.db.tmp
    expect(statSync(path).ino).toBe(inode);
    expect(countRows(path)).toEqual(before.counts);
    const db = openCatalogue(path, { readonly: true });
    expect(db.prepare("SELECT value FROM meta WHERE key = 'held'").pluck().get()).toBe('yes');
    db.close();
  }, 30_000);
});
