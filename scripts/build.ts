// npm run build [-- --static-files] [--base-url URL] [--for-new-origin]: build a snapshot of the
// catalogue and swap it in; prints progress and a summary. With --static-files (or
// STATIC_FILES=true) the pages are also written as plain files for nginx or a static host
// (docs/cdn.md). A build for another base URL than the deployment's (dist/deployment.json) is
// refused unless --for-new-origin is given (docs/reliability.md, "Builds and the file system").
// A catalogue too large for V8's default heap makes the build re-run itself with a larger limit,
// sized from its videos and the machine's memory (src/snapshot/build-heap.ts), unless one was set.
import { spawn } from 'node:child_process';
import { totalmem } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { ConfigError, loadConfig } from '../src/config.ts';
import { buildSnapshot } from '../src/snapshot/build-snapshot.ts';
import { chooseHeapLimit, countVideos } from '../src/snapshot/build-heap.ts';
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
    'A catalogue too large for V8\'s default heap limit makes the build re-run itself with --max-old-space-size of 1 GB and 6 KB a',
    'video (at most 75% of the memory); a limit set in NODE_OPTIONS is kept (docs/performance.md, "The build\'s heap limit").',
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

/**
 * Runs this build again in a node with the heap limit `limitMb`, passing the signals that stop it
 * on to it; resolves with its exit code (a build ended by a signal ends this process the same way).
 */
function rerunWithHeap(limitMb: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, `--max-old-space-size=${limitMb}`, ...process.argv.slice(1)], { stdio: 'inherit' });
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    for (const signal of signals) process.on(signal, forward);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      for (const s of signals) process.off(s, forward);
      if (signal) process.kill(process.pid, signal);
      resolve(code ?? 1);
    });
  });
}

await runCommand('build', BUILD_COMMAND, async ({ values }) => {
  const config = configWithBaseUrl(values['base-url']);
  const videos = countVideos(config.catalogueDb);
  if (videos !== undefined) {
    const heap = chooseHeapLimit({ videos, totalMemory: totalmem(), defaultLimit: getHeapStatistics().heap_size_limit, nodeOptions: `${process.env['NODE_OPTIONS'] ?? ''} ${process.execArgv.join(' ')}` });
    if (heap.limitMb !== undefined) {
      console.log(`build: running with a heap limit of ${heap.reason}`);
      process.exitCode = await rerunWithHeap(heap.limitMb);
      return;
    }
  }
  const s = await buildSnapshot({
    catalogue: config.catalogueDb,
    distDir: config.distDir,
    baseUrl: config.publicBaseUrl,
    baseUrlSource: baseUrlSource(values['base-url']),
    newOrigin: values['for-new-origin'] ?? false,
    onProgress: (m) => console.log(`build: ${m}`),
    staticFiles: config.staticFiles || (values['static-files'] ?? false),
    full: values.full ?? false,
  }).catch((error: unknown) => {
    // SQLite's own words ("file is not a database") name no file: say which, and what is wanted
    if ((error as { code?: string }).code === 'SQLITE_NOTADB') throw new Error(`${config.catalogueDb} is not a SQLite catalogue (${(error as Error).message}): set CATALOGUE_DB to one that npm run seed or npm run import made`);
    throw error;
  });
  const r = s.reuse;
  console.log(`build: snapshot ${s.id}${s.unchanged ? ' (identical to an existing one)' : ''} for ${config.publicBaseUrl}`);
  console.log(`build: ${s.pages} pages, ${s.videos} videos; ${megabytes(s.bytes.identity)} JSON, ${megabytes(s.bytes.br)} br, ${megabytes(s.bytes.gzip)} gzip, ${megabytes(s.bytes.model)} model data`);
  console.log(r.none === undefined
    ? `build: ${r.pages} pages as in the served snapshot (variants copied, not compressed), ${r.compressed} compressed anew; search index ${r.search ? 'copied' : 'rebuilt'}`
    : `build: every page rendered and compressed anew (${r.none})`);
  console.log(`build: ${s.changed} URLs changed since the previous snapshot${s.changesFile ? ` (listed in ${s.changesFile})` : ''}; done in ${s.seconds.toFixed(1)} s`);
});
