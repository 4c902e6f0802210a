// `npm run import -- FILE [--replace] [--db PATH]`: streams an NDJSON catalogue (plain or gzipped)
// into the catalogue database, all or nothing. The format and its rules: docs/catalogue.md. With
// SHARED_STATE_STORE, the catalogue's live records and alerts then go to Redis, for every origin
// (docs/reliability.md, Shared state).
import { existsSync, statSync } from 'node:fs';
import { ImportError, importCatalogueFile } from '../src/catalogue/import-catalogue.ts';
import { NdjsonFileError } from '../src/catalogue/read-ndjson.ts';
import { loadConfig } from '../src/config.ts';
import { elapsed, runCommand, UsageError } from './cli.ts';

const IMPORT_COMMAND = {
  run: 'npm run import',
  about: 'Loads FILE, NDJSON (one record a line, plain or gzipped), into the catalogue: every line is validated and every reference checked before anything is committed; one bad line and nothing is written. A record whose key exists replaces it. The format: docs/catalogue.md, and the JSON Schema at /schemas/catalogue-record.json.',
  options: {
    replace: { type: 'boolean', help: "empty the catalogue's content first (developer apps, keys and usage are kept)" },
    db: { type: 'string', value: 'PATH', help: 'the catalogue file (default CATALOGUE_DB, or data/catalogue.db)' },
  },
  positionals: { usage: 'FILE', min: 1, max: 1 },
  notes: ['SHARED_STATE_STORE (or RATE_LIMIT_STORE): the live records and alerts also go to that Redis once imported, for every origin (npm run share-state sends them again).', 'IMPORT_WORKERS=0 or 1 forces validation on the main thread or on a worker (default: a worker for files of 2 MB or more on a machine of three cores or more).'],
} as const;
const SHOWN_ERRORS = 50;

await runCommand('import', IMPORT_COMMAND, async (parsed) => {
  const file = parsed.positionals[0]!;
  if (!existsSync(file)) throw new UsageError(`no such file: ${file}`);
  if (!statSync(file).isFile()) throw new UsageError(`${file} is ${statSync(file).isDirectory() ? 'a directory' : 'not a regular file'}: give the NDJSON file to import`);
  const config = loadConfig();
  const catalogueDb = parsed.values.db || config.catalogueDb;
  const started = performance.now();
  try {
    const summary = await importCatalogueFile(catalogueDb, file, {
      replace: parsed.values.replace ?? false,
      onProgress: (m) => console.log(`import: ${m}`),
    });
    if (summary.unchanged) {
      console.log(summary.lines === 0 ? `import: ${file} holds no record; ${catalogueDb} is unchanged`
        : `import: every one of the ${summary.lines.toLocaleString('en-US')} records of ${file} is ${catalogueDb}'s already; it is unchanged (${elapsed(started)})`);
      return;
    }
    const counts = Object.entries(summary.counts).map(([kind, n]) => `${n.toLocaleString('en-US')} ${kind}`).join(', ');
    const usage = process.resourceUsage();
    const cpu = ((usage.userCPUTime + usage.systemCPUTime) / 1e6).toFixed(1);
    const kept = summary.kept > 0 ? `; ${summary.kept.toLocaleString('en-US')} of them left as they were (the same as the catalogue's), ${(summary.lines - summary.kept).toLocaleString('en-US')} written` : '';
    console.log(`import: loaded ${summary.lines.toLocaleString('en-US')} record${summary.lines === 1 ? '' : 's'} into ${catalogueDb} in ${elapsed(started)} (${cpu} s of CPU, all threads), peak RSS ${Math.round(usage.maxRSS / 1024)} MB: ${counts}${kept}`);
    if (config.sharedStore !== undefined) await shareLiveAndAlerts(config.sharedStore, catalogueDb);
  } catch (error) {
    if (error instanceof NdjsonFileError) throw new Error(`${error.message}; nothing was imported`);
    if (!(error instanceof ImportError)) throw error;
    for (const e of error.errors.slice(0, SHOWN_ERRORS)) console.error(`${file}:${e.line}: ${e.field}: ${e.message}`);
    if (error.total > SHOWN_ERRORS) console.error(`... and ${error.total - SHOWN_ERRORS} more`);
    throw error;
  }
});

/** Sends the catalogue's live records and alerts to the shared store (loaded only then). */
async function shareLiveAndAlerts(store: string, catalogueDb: string): Promise<void> {
  const { notShared, publishCatalogue, withStore } = await import('../src/shared-state/publish-catalogue.ts');
  const { openCatalogue } = await import('../src/catalogue/open-catalogue.ts');
  const db = openCatalogue(catalogueDb);
  try {
    const sent = await withStore(store, 'npm run import', notShared('npm run share-state'), (redis) => publishCatalogue(redis, db, ['live', 'alerts']));
    console.log(`import: told Redis: ${sent.live} live record${sent.live === 1 ? '' : 's'} and ${sent.alerts} alert${sent.alerts === 1 ? '' : 's'}, seen by every origin within 2 s`);
  } finally {
    db.close();
  }
}
