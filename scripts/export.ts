// `npm run export -- FILE [--db PATH]`: writes the catalogue back as NDJSON import records, gzipped
// when FILE ends in .gz. Importing the file gives the same catalogue (docs/catalogue.md, "Export").
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { openCatalogue } from '../src/catalogue/open-catalogue.ts';
import { exportCatalogue } from '../src/catalogue/write-ndjson.ts';
import { loadConfig } from '../src/config.ts';
import { elapsed, megabytes, runCli, UsageError } from './cli.ts';

const USAGE = 'usage: npm run export -- FILE [--db PATH]';
const HELP = `${USAGE}

Writes every record of the catalogue (private ones and unpublished comments included) to FILE as
NDJSON, one record a line, in the import format of docs/catalogue.md; FILE ending in .gz is
gzipped. \`npm run import -- FILE --replace\` gives the same catalogue back. Developer apps, keys
and usage are not catalogue content and are not written. FILE is replaced only once it is whole.

  --db PATH   the catalogue file (default: CATALOGUE_DB, or data/catalogue.db)
  -h, --help  this help`;

await runCli('export', async () => {
  let parsed;
  try {
    parsed = parseArgs({ options: { db: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: true });
  } catch (error) {
    throw new UsageError(`${(error as Error).message.split(/\.\s/)[0]}; ${USAGE}`);
  }
  if (parsed.values.help) { console.log(HELP); return; }
  if (parsed.positionals.length !== 1) throw new UsageError(`give exactly one file; ${USAGE}`);
  const file = parsed.positionals[0]!;
  const catalogueDb = parsed.values.db || loadConfig().catalogueDb;
  if (!existsSync(catalogueDb)) throw new UsageError(`no catalogue at ${catalogueDb}`);
  const started = performance.now();
  const db = openCatalogue(catalogueDb, { readonly: true });
  let last = 0;
  try {
    const summary = await exportCatalogue(db, file, (done, total) => {
      const now = performance.now();
      if (now - last < 1000 && done < total) return;
      last = now;
      const share = total > 0 ? done / total : 1;
      const spent = (now - started) / 1000;
      console.log(`export: ${Math.floor(share * 100)}% ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} records, ${Math.round(done / Math.max(spent, 0.001)).toLocaleString('en-US')} records/s, ETA ${(share > 0 ? spent * (1 / share - 1) : 0).toFixed(1)} s`);
    });
    const counts = Object.entries(summary.counts).map(([kind, n]) => `${n.toLocaleString('en-US')} ${kind}`).join(', ');
    console.log(`export: wrote ${summary.records.toLocaleString('en-US')} records (${counts}) to ${file} in ${elapsed(started)}, ${megabytes(process.memoryUsage().rss)} RSS`);
  } finally {
    db.close();
  }
});
