// `npm run import -- FILE`: validate every line, then load all of it in one transaction, or nothing.
import type { Catalogue } from './open-catalogue.ts';
import { readNdjsonLines } from './read-ndjson.ts';
import { markRevision } from './revision.ts';
import { CONTENT_TABLES } from './schema.ts';
import { validateRecords, type ExistingKeys, type LineError } from './validate-records.ts';
import { createRecordWriter } from './write-records.ts';

export interface ImportOptions {
  /** Empty the catalogue's content first. */
  readonly replace?: boolean;
  readonly onProgress?: (message: string) => void;
}

export interface ImportSummary {
  readonly lines: number;
  readonly counts: Readonly<Record<string, number>>;
}

export class ImportError extends Error {
  readonly errors: readonly LineError[];
  constructor(errors: readonly LineError[]) {
    const lines = new Set(errors.map((e) => e.line)).size;
    super(`${lines} invalid line${lines === 1 ? '' : 's'} (${errors.length} error${errors.length === 1 ? '' : 's'}): nothing was imported`);
    this.errors = errors;
  }
}

function readExistingKeys(db: Catalogue): ExistingKeys {
  const column = (sql: string) => new Set(db.prepare(sql).pluck().all() as string[]);
  const comments = new Map<string, { videoId: string; parentId: string | null }>();
  for (const row of db.prepare('SELECT id, video_id AS videoId, parent_id AS parentId FROM comments').iterate()) {
    const c = row as { id: string; videoId: string; parentId: string | null };
    comments.set(c.id, { videoId: c.videoId, parentId: c.parentId });
  }
  return {
    categories: column('SELECT id FROM categories'),
    channels: column('SELECT username FROM channels'),
    videos: column('SELECT id FROM videos'),
    comments,
  };
}

const NOTHING: ExistingKeys = { categories: new Set(), channels: new Set(), videos: new Set(), comments: new Map() };

export function importCatalogue(db: Catalogue, file: string, options: ImportOptions = {}): ImportSummary {
  const progress = options.onProgress ?? (() => {});
  progress(`reading ${file}`);
  const lines = readNdjsonLines(file);
  progress(`validating ${lines.length} lines`);
  const { records, errors } = validateRecords(lines, options.replace ? NOTHING : readExistingKeys(db));
  if (errors.length > 0) throw new ImportError(errors);

  const write = createRecordWriter(db);
  const counts: Record<string, number> = {};
  const step = Math.max(1, Math.ceil(records.length / 10));
  db.transaction(() => {
    if (options.replace) for (const table of CONTENT_TABLES) db.prepare(`DELETE FROM ${table}`).run();
    records.forEach((record, i) => {
      write(record);
      counts[record.kind] = (counts[record.kind] ?? 0) + 1;
      if ((i + 1) % step === 0) progress(`written ${i + 1}/${records.length} records`);
    });
    markRevision(db);
  })();
  return { lines: lines.length, counts };
}
