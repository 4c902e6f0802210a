// One timed build in its own process, for bench:build and bench:rebuild: prints a JSON line with the
// figures (FULL_BUILD=true reuses nothing of the served snapshot).
import { loadConfig } from '../../src/config.ts';
import { buildSnapshot } from '../../src/snapshot/build-snapshot.ts';

const config = loadConfig();
const started = performance.now();
const summary = await buildSnapshot({
  catalogue: config.catalogueDb,
  distDir: config.distDir,
  baseUrl: config.publicBaseUrl,
  full: process.env['FULL_BUILD'] === 'true',
  onProgress: process.env['BUILD_PROGRESS'] === 'true' ? (m) => console.error(`  build: ${m}`) : () => {},
});
const seconds = (performance.now() - started) / 1000;
console.log(JSON.stringify({ id: summary.id, seconds, rssMb: process.resourceUsage().maxRSS / 1024, pages: summary.pages, videos: summary.videos, changed: summary.changed, reuse: summary.reuse }));
