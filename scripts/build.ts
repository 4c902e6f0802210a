// npm run build [-- --static-files] [--base-url URL] [--for-new-origin]: build a snapshot of the
// catalogue and swap it in; prints progress and a summary. With --static-files (or
// STATIC_FILES=true) the pages are also written as plain files for nginx or a static host
// (docs/cdn.md). A build for another base URL than the deployment's (dist/deployment.json) is
// refused unless --for-new-origin is given (docs/reliability.md, "Builds and the file system").
import { ConfigError, loadConfig } from '../src/config.ts';
import { buildSnapshot } from '../src/snapshot/build-snapshot.ts';
import { baseUrlSource } from '../src/snapshot/deployment.ts';
import { megabytes, runCommand, UsageError } from './cli.ts';

const BUILD_COMMAND = {
  run: 'npm run build',
  about: 'Builds a snapshot of the catalogue (CATALOGUE_DB) into DIST_DIR and swaps it in for the running servers; prints progress and a summary with the URLs that changed (npm run changes lists them).',
  options: {
    'static-files': { type: 'boolean', help: 'also write the pages as plain files for nginx or a static host (as STATIC_FILES=true; docs/cdn.md)' },
    'base-url': { type: 'string', value: 'URL', help: 'the public origin written into every URL (instead of PUBLIC_BASE_URL)' },
    'for-new-origin': { type: 'boolean', help: 'build for a base URL other than the one this deployment serves (dist/deployment.json), and record it' },
    full: { type: 'boolean', help: 'reuse nothing of the snapshot being served: render, check and compress every page (the result is the same)' },
  },
  notes: [
    'environment: CATALOGUE_DB (default data/catalogue.db), DIST_DIR (default dist), PUBLIC_BASE_URL (default http://localhost:$PORT), STATIC_FILES.',
    'The first build records its base URL in DIST_DIR/deployment.json; a later build for another one is refused, so the servers',
    'of this deployment never serve links to the wrong origin, unless --for-new-origin says the deployment moves.',
    'A build starts from the snapshot being served: pages whose bytes did not change keep their compressed variants, and the',
    'search index is copied when the model data did not change (docs/architecture.md, "Incremental builds"); --full reuses nothing.',
  ],
} as const;

/** The configuration, with --base-url in place of PUBLIC_BASE_URL when given (checked the same way). */
function configWithBaseUrl(baseUrl: string | undefined) {
  if (baseUrl === undefined) return loadConfig();
  try {
    return loadConfig({ ...process.env, PUBLIC_BASE_URL: baseUrl });
  } catch (error) {
    if (error instanceof ConfigError && error.message.includes('PUBLIC_BASE_URL')) throw new UsageError(error.message.replace(/^invalid configuration: /, '').replaceAll('PUBLIC_BASE_URL', '--base-url'));
    throw error;
  }
}

await runCommand('build', BUILD_COMMAND, async ({ values }) => {
  const config = configWithBaseUrl(values['base-url']);
  const s = await buildSnapshot({
    catalogue: config.catalogueDb,
    distDir: config.distDir,
    baseUrl: config.publicBaseUrl,
    baseUrlSource: baseUrlSource(values['base-url']),
    newOrigin: values['for-new-origin'] ?? false,
    onProgress: (m) => console.log(`build: ${m}`),
    staticFiles: config.staticFiles || (values['static-files'] ?? false),
    full: values.full ?? false,
  });
  const r = s.reuse;
  console.log(`build: snapshot ${s.id}${s.unchanged ? ' (identical to an existing one)' : ''} for ${config.publicBaseUrl}`);
  console.log(`build: ${s.pages} pages, ${s.videos} videos; ${megabytes(s.bytes.identity)} JSON, ${megabytes(s.bytes.br)} br, ${megabytes(s.bytes.gzip)} gzip, ${megabytes(s.bytes.model)} model data`);
  console.log(r.none === undefined
    ? `build: ${r.pages} pages as in the served snapshot (variants copied, not compressed), ${r.compressed} compressed anew; search index ${r.search ? 'copied' : 'rebuilt'}`
    : `build: every page rendered and compressed anew (${r.none})`);
  console.log(`build: ${s.changed} URLs changed since the previous snapshot${s.changesFile ? ` (listed in ${s.changesFile})` : ''}; done in ${s.seconds.toFixed(1)} s`);
});
