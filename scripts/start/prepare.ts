// npm start's preparation (scripts/start.mjs runs it in a child process): on a fresh clone, seed
// the demo catalogue if there is none, build a snapshot if there is none (or it was built for
// another PUBLIC_BASE_URL or an older catalogue revision), build the app if it is missing or older
// than its sources (the SDK and the server's bundles too), then tell the launcher what to serve
// (start/supervisor.ts). The seed and the build are loaded only when they are needed, and all of it
// in a process that ends before the server starts.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { openCatalogue, readSchemaVersion } from '../../src/catalogue/open-catalogue.ts';
import { readRevision } from '../../src/catalogue/revision.ts';
import { SCHEMA_VERSION } from '../../src/catalogue/schema.ts';
import { loadConfig } from '../../src/config.ts';
import { ASTRO_ENTRY, CLIENT_DIR, SERVER_SOURCES, SERVING_BUNDLE, SUPERVISOR_BUNDLE } from '../../src/lib/app-files.ts';
import { layoutOf, MANIFEST_FILE } from '../../src/snapshot/layout.ts';
import { readManifestBaseUrl } from '../../src/snapshot/manifest.ts';
import { currentSnapshotId, readBuiltFrom } from '../../src/snapshot/swap.ts';
import { baseUrlSource } from '../../src/snapshot/deployment.ts';
import { runCommand, UsageError } from '../cli.ts';
import type { Prepared } from './supervisor.ts';

const START_COMMAND = {
  run: 'npm start',
  about: 'Serves the API and the site: seeds a demo catalogue if there is none, builds a snapshot if there is none (or it is stale, or built for another PUBLIC_BASE_URL), builds the app if its sources changed, then listens on PORT.',
  options: {
    'for-new-origin': { type: 'boolean', help: 'when it must build, build for PUBLIC_BASE_URL even if this deployment serves another base URL (dist/deployment.json), and record it' },
  },
  notes: ['environment: PORT, HOST, PUBLIC_BASE_URL, CATALOGUE_DB, DIST_DIR and the rest in README.md, "Configuration".'],
} as const;

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

await runCommand('start', START_COMMAND, async ({ values }) => {
  const config = loadConfig();
  if (!existsSync(config.catalogueDb)) {
    const { DEFAULT_SEED_OPTIONS, seedCatalogue } = await import('../../src/catalogue/seed-catalogue.ts');
    const { describeProgress } = await import('../../src/lib/progress.ts');
    console.log(`start: no catalogue at ${config.catalogueDb}; seeding a demo catalogue of ${DEFAULT_SEED_OPTIONS.videos} videos`);
    const seedStarted = performance.now();
    const seeded = seedCatalogue(config.catalogueDb, DEFAULT_SEED_OPTIONS, (p) => console.log(`seed: ${describeProgress(p.videos, p.totalVideos, 'videos', (performance.now() - seedStarted) / 1000)}`));
    console.log(`seed: wrote ${seeded.records} records in ${(seeded.elapsedMs / 1000).toFixed(1)} s`);
  }
  const layout = layoutOf(config.distDir);
  const manifestFile = join(layout.current, MANIFEST_FILE);
  const built = existsSync(manifestFile) ? { baseUrl: readManifestBaseUrl(manifestFile) } : undefined;
  const builtFrom = readBuiltFrom(layout.root);
  // SQLite's own words ("disk I/O error", "file is not a database") name no file
  if (statSync(config.catalogueDb).isDirectory()) throw new UsageError(`CATALOGUE_DB ${config.catalogueDb} is a directory: set it to the catalogue file (npm run seed or npm run import makes one)`);
  let db = openCatalogue(config.catalogueDb, { readonly: true });
  let version: number | undefined;
  try {
    version = readSchemaVersion(db);
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_NOTADB') throw new UsageError(`CATALOGUE_DB ${config.catalogueDb} is not a SQLite catalogue (${(error as Error).message}): set it to one that npm run seed or npm run import made`);
    throw error;
  }
  if (version !== undefined && version < SCHEMA_VERSION) {
    // the serving process never writes the catalogue, so it would refuse one of an older schema
    // (src/server/catalogue-connection.ts): npm start is an operator command, and migrates it
    db.close();
    console.log(`start: the catalogue has schema version ${version}; migrating it to ${SCHEMA_VERSION} (docs/catalogue.md)`);
    db = openCatalogue(config.catalogueDb);
  }
  const revision = readRevision(db);
  db.close();
  const reason = built === undefined ? 'no snapshot yet'
    : built.baseUrl === undefined ? 'the snapshot is of an older format'
    : built.baseUrl !== config.publicBaseUrl ? `the snapshot was built for ${built.baseUrl}, not ${config.publicBaseUrl}`
    : builtFrom?.snapshot !== currentSnapshotId(layout.root) || builtFrom?.catalogueRevision !== revision ? 'the catalogue changed since the snapshot was built'
    : undefined;
  if (reason !== undefined) {
    console.log(`start: ${reason}; building a snapshot`);
    const { buildSnapshot } = await import('../../src/snapshot/build-snapshot.ts');
    const s = await buildSnapshot({
      catalogue: config.catalogueDb, distDir: config.distDir, baseUrl: config.publicBaseUrl, onProgress: (m) => console.log(`build: ${m}`),
      newOrigin: values['for-new-origin'] ?? false, baseUrlSource: baseUrlSource(undefined),
    });
    console.log(`build: snapshot ${s.id}: ${s.pages} pages in ${s.seconds.toFixed(1)} s`);
  }
  const madeAt = (file: string) => (existsSync(file) ? statSync(file).mtimeMs : 0);
  const made = [ASTRO_ENTRY, join(CLIENT_DIR, 'sdk.js'), join(CLIENT_DIR, 'openapi.json'), SUPERVISOR_BUNDLE, SERVING_BUNDLE].map(madeAt);
  const sources = [...new Set(['src', 'public', ...SERVER_SOURCES])].map(newestSource);
  if (Math.min(...made) < Math.max(...sources, statSync('astro.config.mjs').mtimeMs)) {
    console.log('start: building the pages, the player, the SDK, the API description and the server (npm run build:app)');
    execFileSync('npm', ['run', '--silent', 'build:app'], { stdio: 'inherit' });
  }
  const prepared: Prepared = {
    root: layout.root, publicBaseUrl: config.publicBaseUrl, sitePassSecret: config.sitePassSecret,
    supervisor: SUPERVISOR_BUNDLE, serving: SERVING_BUNDLE,
  };
  // run alone (not by scripts/start.mjs), there is no one to tell
  if (process.send) await new Promise<void>((sent) => process.send!(prepared, () => { process.disconnect(); sent(); }));
});
