// `npm run seed` (docs/catalogue.md, "Seed"): writes the synthetic demo catalogue of
// generate-seed-records.ts into `<path>.tmp` in one transaction, as a bulk load
// (open-catalogue.ts), and renames it over `path` only once it is whole. The generator's options and
// reference date are exported from here too, as the one module the seed's users import.
import { renameSync, rmSync } from 'node:fs';
import { generateSeedRecords, type SeedOptions } from './generate-seed-records.ts';
import { checkNoOtherWriter, finishBulkLoad, openCatalogueForBulkLoad, type Catalogue } from './open-catalogue.ts';
import { CatalogueRecord } from './records.ts';
import { markRevision } from './revision.ts';
import { createRecordWriter } from './write-records.ts';

export { DEFAULT_SEED_OPTIONS, generateSeedRecords, type SeedOptions } from './generate-seed-records.ts';
export { SEED_REFERENCE } from './seed-clock.ts';

export type SeedCounts = Record<CatalogueRecord['kind'], number>;

export interface SeedProgress {
  readonly videos: number;
  readonly totalVideos: number;
  readonly records: number;
  readonly elapsedMs: number;
}

export interface SeedSummary {
  readonly path: string;
  readonly records: number;
  readonly counts: Readonly<SeedCounts>;
  /** How many records were checked against the import schema. */
  readonly validated: number;
  readonly elapsedMs: number;
}

/** Validate every record up to this many videos; above it, every 97th video and comment. */
export const VALIDATE_ALL_UP_TO = 50_000;

const removeDatabase = (path: string) => {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${path}${suffix}`, { force: true });
};

/**
 * Writes the demo catalogue to `path`, replacing it whole: records go into `<path>.tmp` in one
 * transaction, and only a complete file is renamed over `path`. On failure nothing is left behind.
 * A catalogue at `path` that another writer holds (an import, a build's mark) is not replaced: the
 * seed waits for it as every write does (5 s) and throws SQLITE_BUSY, before writing anything and
 * again just before the rename (which would drop that writer's transaction, and its WAL with it).
 */
export function seedCatalogue(path: string, options: SeedOptions, onProgress: (p: SeedProgress) => void = () => {}): SeedSummary {
  const started = performance.now();
  const tmp = `${path}.tmp`;
  const counts: SeedCounts = { category: 0, channel: 0, video: 0, playlist: 0, comment: 0, live: 0, alert: 0 };
  let records = 0;
  let validated = 0;
  let db: Catalogue | undefined;
  checkNoOtherWriter(path);
  try {
    removeDatabase(tmp);
    db = openCatalogueForBulkLoad(tmp);
    // the seed's records are its own: no digests kept (an import into the seeded catalogue writes what it brings)
    const write = createRecordWriter(db, { digests: false });
    const validateAll = options.videos <= VALIDATE_ALL_UP_TO;
    const step = Math.max(1, Math.ceil(options.videos / 10));
    db.transaction(() => {
      for (const record of generateSeedRecords(options)) {
        // Records are built in their parsed form, so checking only some never changes what is
        // written. Above VALIDATE_ALL_UP_TO videos, videos and comments are checked on a
        // deterministic sample (every 97th record) to keep a million-video seed fast; the few
        // records of the other kinds are always checked.
        if (validateAll || records % 97 === 0 || (record.kind !== 'video' && record.kind !== 'comment')) {
          CatalogueRecord.parse(record);
          validated++;
        }
        write(record);
        records++;
        counts[record.kind]++;
        if (record.kind === 'video' && (counts.video % step === 0 || counts.video === options.videos)) {
          onProgress({ videos: counts.video, totalVideos: options.videos, records, elapsedMs: performance.now() - started });
        }
      }
      markRevision(db!);
    })();
    finishBulkLoad(db);
    db.close();
    db = undefined;
    // a writer may have opened the old file while the records were written
    checkNoOtherWriter(path);
    // A stale WAL or journal beside the old file would be replayed into the new one.
    for (const suffix of ['-wal', '-shm', '-journal']) rmSync(`${path}${suffix}`, { force: true });
    renameSync(tmp, path);
  } catch (error) {
    db?.close();
    try {
      removeDatabase(tmp);
    } catch {
      // The directory itself is unusable (e.g. a path under a file): there is nothing to remove.
    }
    throw error;
  }
  return { path, records, counts, validated, elapsedMs: performance.now() - started };
}
