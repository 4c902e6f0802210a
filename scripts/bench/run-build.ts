// One timed build in its own process, for bench:build: prints a JSON line with the figures.
import { loadConfig } from '../../src/config.ts';
import { buildSnapshot } from '../../src/snapshot/build-snapshot.ts';

const config = loadConfig();
const started = performance.now();
const summary = await buildSnapshot({ catalogue: config.catalogueDb, distDir: config.distDir, baseUrl: config.publicBaseUrl });
const seconds = (performance.now() - started) / 1000;
console.log(JSON.stringify({ seconds, rssMb: process.resourceUsage().maxRSS / 1024, pages: summary.pages, videos: summary.videos }));
