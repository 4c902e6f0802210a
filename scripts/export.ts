// `npm run export -- FILE [--db PATH]`: writes the catalogue back as NDJSON import records, gzipped
// when FILE ends in .gz. Importing the file gives the same catalogue (docs/catalogue.md, "Export").
import { existsSync, statSync } from 'node:fs';
import { openCatalogue } from '../src/catalogue/open-catalogue.ts';
import { exportCatalogue } from '../src/catalogue/write-ndjson.ts';
import { loadConfig } from '../src/config.ts';
import { describeProgress } from '../src/lib/progress.ts';
import { elapsed, megabytes, runCommand, UsageError } from './cli.ts';

const EXPORT_COMMAND = {
  run: 'npm run export',
  about: 'Writes every record of the catalogue (private ones and unpublished comments included) to FILE as NDJSON, one record a line, in the import format of docs/catalogue.md; FILE ending in .gz is gzipped. npm run import -- FILE --replace gives the same catalogue back. Developer apps, keys and usage are not catalogue content and are not written. FILE is replaced only once it is whole.',
  options: {
    db: { type: 'string', value: 'PATH', help: 'the catalogue file (default CATALOGUE_DB, or data/catalogue.db)' },
  },
  positionals: { usage: 'FILE', min: 1, max: 1 },
} as const;

await runCommand('export', EXPORT_COMMAND, async (parsed) => {
  const file = parsed.positionals[0]!;
  const catalogueDb = parsed.values.db || loadConfig().catalogueDb;
  if (!existsSync(catalogueDb)) throw new UsageError(`no catalogue at ${catalogueDb}`);
  // known before the export, not after writing it whole beside FILE
  if (existsSync(file) && statSync(file).isDirectory()) throw new UsageError(`${file} is a directory: give the path of the file to write`);
  const started = performance.now();
  const db = openCatalogue(catalogueDb, { readonly: true });
  let last = 0;
  try {
    const summary = await exportCatalogue(db, file, (done, total) => {
      const now = performance.now();
      if (now - last < 1000 && done < total) return;
      last = now;
      const spent = (now - started) / 1000;
      console.log(`export: ${describeProgress(done, total, 'records', spent)}, ${Math.round(done / Math.max(spent, 0.001)).toLocaleString('en-US')} records/s`);
    });
    const counts = Object.entries(summary.counts).map(([kind, n]) => `${n.toLocaleString('en-US')} ${kind}`).join(', ');
    console.log(`export: wrote ${summary.records.toLocaleString('en-US')} records (${counts}) to ${file} in ${elapsed(started)}, ${megabytes(process.memoryUsage().rss)} RSS`);
  } finally {
    db.close();
  }
});
