// npm run build [-- --static-files]: build a snapshot of the catalogue and swap it in; prints
// progress and a summary. With --static-files (or STATIC_FILES=true) the pages are also written as
// plain files for nginx or a static host (docs/cdn.md).
import { loadConfig } from '../src/config.ts';
import { buildSnapshot } from '../src/snapshot/build-snapshot.ts';
import { megabytes, runCli } from './cli.ts';

await runCli('build', async () => {
  const config = loadConfig();
  const s = await buildSnapshot({
    catalogue: config.catalogueDb,
    distDir: config.distDir,
    baseUrl: config.publicBaseUrl,
    onProgress: (m) => console.log(`build: ${m}`),
    staticFiles: config.staticFiles || process.argv.includes('--static-files'),
  });
  console.log(`build: snapshot ${s.id}${s.unchanged ? ' (identical to an existing one)' : ''} for ${config.publicBaseUrl}`);
  console.log(`build: ${s.pages} pages, ${s.videos} videos; ${megabytes(s.bytes.identity)} JSON, ${megabytes(s.bytes.br)} br, ${megabytes(s.bytes.gzip)} gzip, ${megabytes(s.bytes.model)} model data`);
  console.log(`build: ${s.changed} URLs changed since the previous snapshot${s.changesFile ? ` (listed in ${s.changesFile})` : ''}; done in ${s.seconds.toFixed(1)} s`);
});
