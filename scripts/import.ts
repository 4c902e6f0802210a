// `npm run import -- FILE [--replace] [--db PATH]`: streams an NDJSON catalogue (plain or gzipped)
// into the catalogue database, all or nothing. The format and its rules: docs/catalogue.md.
import { existsSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ImportError, importCatalogueFile } from '../src/catalogue/import-catalogue.ts';
import { NdjsonFileError } from '../src/catalogue/read-ndjson.ts';
import { loadConfig } from '../src/config.ts';
import { elapsed, runCli, UsageError } from './cli.ts';

const USAGE = 'usage: npm run import -- FILE [--replace] [--db PATH]';
const HELP = `${USAGE}

Loads FILE, NDJSON (one record a line, plain or gzipped), into the catalogue: every line is
validated and every reference checked before anything is committed; one bad line and nothing is
written. A record whose key exists replaces it. The format: docs/catalogue.md, and the JSON
Schema at /schemas/catalogue-record.json.

  --replace   empty the catalogue's content first (developer apps, keys and usage are kept)
  --db PATH   the catalogue file (default: CATALOGUE_DB, or data/catalogue.db)
  -h, --help  this help`;
const SHOWN_ERRORS = 50;

await runCli('import', async () => {
  let parsed;
  try {
    parsed = parseArgs({
      options: { replace: { type: 'boolean' }, db: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
    });
  } catch (error) {
    // parseArgs names the culprit in its first sentence: "Unknown option '--x'".
    throw new UsageError(`${(error as Error).message.split(/\.\s/)[0]}; ${USAGE}`);
  }
  if (parsed.values.help) { console.log(HELP); return; }
  if (parsed.positionals.length !== 1) throw new UsageError(`give exactly one file; ${USAGE}`);
  const file = parsed.positionals[0]!;
  if (!existsSync(file) || !statSync(file).isFile()) throw new UsageError(`no such file: ${file}`);
  const catalogueDb = parsed.values.db || loadConfig().catalogueDb;
  const started = performance.now();
  try {
    const summary = await importCatalogueFile(catalogueDb, file, {
      replace: parsed.values.replace ?? false,
      onProgress: (m) => console.log(`import: ${m}`),
    });
    if (summary.unchanged) { console.log(`import: ${file} holds no record; ${catalogueDb} is unchanged`); return; }
    const counts = Object.entries(summary.counts).map(([kind, n]) => `${n.toLocaleString('en-US')} ${kind}`).join(', ');
    const peak = Math.round(process.resourceUsage().maxRSS / 1024);
    console.log(`import: loaded ${summary.lines.toLocaleString('en-US')} records into ${catalogueDb} in ${elapsed(started)}, peak RSS ${peak} MB: ${counts}`);
  } catch (error) {
    if (error instanceof NdjsonFileError) throw new Error(`${error.message}; nothing was imported`);
    if (!(error instanceof ImportError)) throw error;
    for (const e of error.errors.slice(0, SHOWN_ERRORS)) console.error(`${file}:${e.line}: ${e.field}: ${e.message}`);
    if (error.total > SHOWN_ERRORS) console.error(`... and ${error.total - SHOWN_ERRORS} more`);
    throw error;
  }
});
