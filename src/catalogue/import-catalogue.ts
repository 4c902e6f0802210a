// `npm run import -- FILE`: streams the file line by line into one write transaction, checks the
// references of what it staged, then commits all of it, or rolls back and has written nothing.
// Memory stays flat whatever the file's size: one chunk and one record at a time in JavaScript;
// what the transaction holds is in SQLite's pages (spilled to the WAL file), and the keys seen
// (for duplicates and error lines) are in a temporary table on disk. Rules: docs/catalogue.md.
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { ConfigError } from '../config.ts';
import { findBrokenReferences, STAGED_TABLE } from './check-references.ts';
import { openCatalogue, type Catalogue } from './open-catalogue.ts';
import { openChangeLog, suspendChangeLog } from './change-log.ts';
import { readNdjsonBlocks, type ReadPosition } from './read-ndjson.ts';
import type { CatalogueRecord } from './records.ts';
import { markRevision } from './revision.ts';
import { CONTENT_TABLES } from './schema.ts';
import { createInlineValidator, createValidatePool } from './validate-pool.ts';
import { keyOf, type LineError } from './validate-records.ts';
import type { ValidatedBlock } from './validate-worker.ts';
import { createRecordWriter, type RecordWriter } from './write-records.ts';

export interface ImportOptions {
  /** Empty the catalogue's content first (apps, keys and usage are kept). */
  readonly replace?: boolean;
  readonly onProgress?: (message: string) => void;
  /**
   * Validate on a worker thread (default: IMPORT_WORKERS=1 or 0 if set, else when the file is 2 MB
   * or more as stored and the machine has three cores or more).
   */
  readonly workers?: boolean;
  /** How often progress is reported, in milliseconds (default 1000). */
  readonly progressEvery?: number;
}

export interface ImportSummary {
  /** records read (non-blank lines) */
  readonly lines: number;
  readonly counts: Readonly<Record<string, number>>;
  /** records left as they were: each the very record written last time (write-records.ts) */
  readonly kept: number;
  /** true when nothing was written (the file held no record, or only records kept): the revision is unchanged */
  readonly unchanged: boolean;
}

/** SQLite page cache during an import, in KiB. */
const IMPORT_CACHE_KIB = 16384;

/** Files smaller than this (as stored) are validated on the main thread: a worker's start costs more. */
const WORKER_MIN_BYTES = 2_000_000;

/** Errors kept for the report; beyond them, only counted. */
const KEPT_ERRORS = 1000;

export class ImportError extends Error {
  /** the first errors, by line (at most KEPT_ERRORS) */
  readonly errors: readonly LineError[];
  /** every error found */
  readonly total: number;
  constructor(errors: readonly LineError[], total: number = errors.length) {
    const lines = new Set(errors.map((e) => e.line)).size;
    const many = total > errors.length;
    super(`${many ? 'at least ' : ''}${lines} invalid line${lines === 1 ? '' : 's'} (${total} error${total === 1 ? '' : 's'}): nothing was imported`);
    this.errors = errors;
    this.total = total;
  }
}

function defaultWorkers(file: string): boolean {
  const setting = process.env['IMPORT_WORKERS'];
  if (setting === '0' || setting === '1') return setting === '1';
  // a bad value stops the command naming it, as every other variable does (README, "Configuration")
  if (setting !== undefined && setting !== '') throw new ConfigError(`invalid configuration: IMPORT_WORKERS must be 0 (validate on the main thread) or 1 (on a worker), or unset (got "${setting}")`);
  // The worker costs CPU (text and records cross threads) and memory (its own heap): it pays off
  // only with a core of its own beside the main thread and SQLite (docs/performance.md, "Import").
  return availableParallelism() > 2 && statSync(file).size >= WORKER_MIN_BYTES;
}

const n = (x: number) => x.toLocaleString('en-US');
const seconds = (s: number) => (s < 100 ? `${s.toFixed(1)} s` : `${Math.round(s / 60)} min`);

/** "42% 41,000 records, 16.1/38.4 MB, 9,800 records/s, ETA 2.4 s" */
export function describeProgress(records: number, position: ReadPosition, elapsedMs: number): string {
  const share = position.totalBytes > 0 ? position.bytesRead / position.totalBytes : 1;
  const rate = elapsedMs > 0 ? (records * 1000) / elapsedMs : 0;
  const eta = share > 0 ? (elapsedMs / 1000) * (1 / share - 1) : 0;
  const mb = (b: number) => (b / 1e6).toFixed(1);
  return `${Math.floor(share * 100)}% ${n(records)} records, ${mb(position.bytesRead)}/${mb(position.totalBytes)} MB, ${n(Math.round(rate))} records/s, ETA ${seconds(eta)}`;
}

export async function importCatalogue(db: Catalogue, file: string, options: ImportOptions = {}): Promise<ImportSummary> {
  const progress = options.onProgress ?? (() => {});
  const every = options.progressEvery ?? 1000;
  const started = performance.now();
  let lastReport = started;
  let position: ReadPosition = { bytesRead: 0, totalBytes: statSync(file).size };

  // The temporary table lives in a file, not in memory, like the transaction's pages.
  db.pragma('temp_store = FILE');
  // A page cache big enough that the b-trees written in random key order are not re-read from the
  // WAL for every record; bounded, so memory stays flat whatever the file's size.
  const cacheSize = db.pragma('cache_size', { simple: true }) as number;
  db.pragma(`cache_size = -${IMPORT_CACHE_KIB}`);
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS import_lines (kind TEXT NOT NULL, key TEXT NOT NULL, line INTEGER NOT NULL, PRIMARY KEY (kind, key)) WITHOUT ROWID`);
  db.exec('DELETE FROM temp.import_lines');
  const stage = db.prepare(`INSERT OR IGNORE INTO ${STAGED_TABLE} (kind, key, line) VALUES (?, ?, ?)`);
  const stagedLine = db.prepare(`SELECT line FROM ${STAGED_TABLE} WHERE kind = ? AND key = ?`).pluck();

  const errors: LineError[] = [];
  let total = 0;
  const fail = (e: LineError) => { total++; if (errors.length < KEPT_ERRORS) errors.push(e); };
  const counts: Record<string, number> = {};
  let records = 0;
  let kept = 0;
  let committed = false;

  let write: RecordWriter = () => true;
  const handle = (line: number, record: CatalogueRecord) => {
    const { field, key } = keyOf(record);
    if (stage.run(record.kind, key, line).changes === 0) {
      fail({ line, field, message: `repeats ${record.kind} "${key}", already given on line ${stagedLine.get(record.kind, key) as number}` });
      return;
    }
    if (!write(record)) kept++;
    counts[record.kind] = (counts[record.kind] ?? 0) + 1;
  };

  progress(`reading ${file}`);
  const pool = (options.workers ?? defaultWorkers(file)) ? createValidatePool() : createInlineValidator();
  // Blocks validated on the workers, awaited in file order; a few in flight keep every worker busy.
  const inFlight: Promise<ValidatedBlock>[] = [];
  // Where the file stood when each block in flight was read: progress shows the position of the
  // records counted, not of the blocks read ahead, so it reaches 100% with the last of them.
  const readTo: ReadPosition[] = [];
  let counted: ReadPosition = position;
  const settle = async () => {
    const block = await inFlight.shift()!;
    counted = readTo.shift()!;
    records += block.lines;
    block.errors.forEach(fail);
    for (const { line, record } of block.records) handle(line, record);
    const now = performance.now();
    if (now - lastReport >= every) {
      lastReport = now;
      progress(describeProgress(records, counted, now - started));
    }
  };
  db.exec('BEGIN IMMEDIATE');
  try {
    if (options.replace) {
      for (const table of CONTENT_TABLES) db.exec(`DELETE FROM ${table}`);
      db.exec('DELETE FROM record_digests');
    }
    const empty = db.prepare('SELECT NOT EXISTS (SELECT 1 FROM videos) AND NOT EXISTS (SELECT 1 FROM playlists)').pluck().get() === 1;
    write = createRecordWriter(db, { fresh: empty });
    for await (const block of readNdjsonBlocks(file, (p) => { position = p; })) {
      inFlight.push(pool.validate(block));
      readTo.push(position);
      if (inFlight.length >= 2 * pool.size) await settle();
    }
    while (inFlight.length > 0) await settle();
    progress(`${describeProgress(records, position, performance.now() - started)}; checking references`);
    const broken = findBrokenReferences(db, { staged: true, limit: KEPT_ERRORS });
    for (const b of broken.found) {
      fail({
        line: b.line!, field: b.field,
        message: b.problem === ''
          ? `refers to ${b.names}, which is neither in the file nor in the catalogue`
          : `names ${b.names}, which is ${b.problem}`,
      });
    }
    total += broken.total - broken.found.length;
    if (total > 0) throw new ImportError(errors.sort((a, b) => a.line - b.line).slice(0, KEPT_ERRORS), total);
    if (records === 0) {
      progress('the file holds no record: nothing to import, the catalogue is unchanged');
      return { lines: 0, counts, kept: 0, unchanged: true };
    }
    if (kept === records) {
      progress(`every one of the ${n(records)} records is the catalogue's already: nothing to write, the catalogue is unchanged`);
      return { lines: records, counts, kept, unchanged: true };
    }
    markRevision(db);
    progress(`committing ${n(records - kept)} records${kept > 0 ? ` (${n(kept)} left as they were: the same as the catalogue's)` : ''}`);
    db.exec('COMMIT');
    committed = true;
    return { lines: records, counts, kept, unchanged: false };
  } finally {
    await Promise.allSettled(inFlight);
    await pool.close();
    if (!committed && db.inTransaction) db.exec('ROLLBACK');
    db.exec('DROP TABLE IF EXISTS temp.import_lines');
    db.pragma(`cache_size = ${cacheSize}`);
  }
}

/**
 * Imports into the catalogue file at `path`. When there is none yet, the import fills a new file
 * beside it and renames it into place only once committed: a failed, empty or killed import never
 * leaves a catalogue file behind at `path`.
 */
export async function importCatalogueFile(path: string, file: string, options: ImportOptions = {}): Promise<ImportSummary> {
  const existed = existsSync(path);
  const target = existed ? path : `${path}.importing-${process.pid}`;
  const removeTarget = () => { for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${target}${suffix}`, { force: true }); };
  if (!existed) removeTarget();
  let db: Catalogue;
  try {
    db = openCatalogue(target);
  } catch (error) {
    // the side file is created before its schema is written: a full disk fails there, after it exists
    if (!existed) removeTarget();
    throw error;
  }
  // a new file's records are all new: its change log need not list them (change-log.ts suspendChangeLog)
  if (!existed) suspendChangeLog(db);
  let summary: ImportSummary | undefined;
  try {
    summary = await importCatalogue(db, file, options);
    if (!existed) openChangeLog(db);
    return summary;
  } finally {
    db.close(); // checkpoints the WAL into the file: a new catalogue is then one whole file
    if (!existed) {
      if (summary && !summary.unchanged) renameSync(target, path);
      removeTarget();
    }
  }
}
