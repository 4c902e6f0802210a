// npm run import -- FILE [--replace]: load an NDJSON catalogue (plain or gzipped), all or nothing.
import { existsSync } from 'node:fs';
import { ImportError, importCatalogue } from '../src/catalogue/import-catalogue.ts';
import { openCatalogue } from '../src/catalogue/open-catalogue.ts';
import { loadConfig } from '../src/config.ts';
import { elapsed, runCli, UsageError } from './cli.ts';

const SHOWN_ERRORS = 50;

await runCli('import', () => {
  const args = process.argv.slice(2);
  const unknown = args.filter((a) => a.startsWith('-') && a !== '--replace');
  if (unknown.length > 0) throw new UsageError(`unknown option ${unknown[0]}; usage: npm run import -- FILE [--replace]`);
  const files = args.filter((a) => !a.startsWith('-'));
  if (files.length !== 1) throw new UsageError('give exactly one file; usage: npm run import -- FILE [--replace]');
  const file = files[0]!;
  if (!existsSync(file)) throw new UsageError(`no such file: ${file}`);
  const { catalogueDb } = loadConfig();
  const started = performance.now();
  const db = openCatalogue(catalogueDb);
  try {
    const summary = importCatalogue(db, file, { replace: args.includes('--replace'), onProgress: (m) => console.log(`import: ${m}`) });
    const counts = Object.entries(summary.counts).map(([kind, n]) => `${n} ${kind}`).join(', ');
    console.log(`import: loaded ${summary.lines} lines into ${catalogueDb} in ${elapsed(started)}: ${counts}`);
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    for (const e of error.errors.slice(0, SHOWN_ERRORS)) console.error(`${file}:${e.line}: ${e.field}: ${e.message}`);
    if (error.errors.length > SHOWN_ERRORS) console.error(`... and ${error.errors.length - SHOWN_ERRORS} more`);
    throw error;
  } finally {
    db.close();
  }
});
