// Writes the catalogue's records to an NDJSON file, gzipped when the name ends in `.gz`. The file
// is written beside its destination and renamed over it at the end: a failed export leaves no
// partial file, and never an empty one in place of an earlier export.
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { exportRecords } from './export-catalogue.ts';
import type { Catalogue } from './open-catalogue.ts';
import { CONTENT_TABLES } from './schema.ts';

export interface ExportSummary {
  readonly records: number;
  readonly counts: Readonly<Record<string, number>>;
  readonly gzipped: boolean;
}

/** Records the export will write: one per row of the tables that hold whole records. */
function countRecords(db: Catalogue): number {
  const tables = ['categories', 'channels', 'videos', 'playlists', 'comments', 'live_streams', 'alerts'] satisfies (typeof CONTENT_TABLES[number])[];
  return tables.reduce((sum, t) => sum + (db.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number), 0);
}

export async function exportCatalogue(
  db: Catalogue,
  file: string,
  onProgress: (done: number, total: number) => void = () => {},
): Promise<ExportSummary> {
  const gzipped = file.endsWith('.gz');
  const temporary = `${file}.${process.pid}.tmp`;
  const output = createWriteStream(temporary);
  const gzip = gzipped ? createGzip({ level: 6 }) : undefined;
  if (gzip) gzip.pipe(output);
  const sink: Writable = gzip ?? output;
  const counts: Record<string, number> = {};
  let records = 0;
  let failure: Error | undefined;
  const fail = (error: Error) => { failure ??= error; };
  output.on('error', fail);
  gzip?.on('error', fail);
  try {
    const total = countRecords(db);
    // One read transaction: the file is one consistent state of the catalogue.
    db.exec('BEGIN');
    try {
      let batch = '';
      for (const record of exportRecords(db)) {
        batch += `${JSON.stringify(record)}\n`;
        counts[record.kind] = (counts[record.kind] ?? 0) + 1;
        records++;
        if (batch.length >= 1 << 20) {
          if (!sink.write(batch)) await once(sink, 'drain');
          batch = '';
          if (failure) throw failure;
          onProgress(records, total);
        }
      }
      if (batch !== '') sink.write(batch);
    } finally {
      db.exec('COMMIT');
    }
    sink.end();
    await finished(output);
    if (failure) throw failure;
    onProgress(records, total);
    renameSync(temporary, file);
    return { records, counts, gzipped };
  } catch (error) {
    gzip?.destroy();
    // the stream opens (creates) its file on a later tick: a failure before then (a catalogue
    // locked by another writer) would remove nothing and the opened file would stay beside FILE
    if (!output.closed) await new Promise<void>((resolve) => output.once('close', () => resolve()).destroy());
    rmSync(temporary, { force: true });
    throw error;
  }
}
