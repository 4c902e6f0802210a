// One timed build in its own process, for bench:build and bench:rebuild: prints a JSON line with the
// figures (FULL_BUILD=true reuses nothing of the served snapshot), the main thread's CPU among them
// (the critical path of a small rebuild: docs/performance.md), and each progress line with the main
// thread's CPU since the last one.
import { loadConfig } from '../../src/config.ts';
import { buildSnapshot } from '../../src/snapshot/build-snapshot.ts';

const config = loadConfig();
const started = performance.now();
/** CPU seconds (user + system) of this thread since the last call */
let lastCpu = process.threadCpuUsage();
const mainCpuLap = () => {
  const now = process.threadCpuUsage();
  const seconds = (now.user - lastCpu.user + now.system - lastCpu.system) / 1e6;
  lastCpu = now;
  return seconds;
};
const summary = await buildSnapshot({
  catalogue: config.catalogueDb,
  distDir: config.distDir,
  baseUrl: config.publicBaseUrl,
  full: process.env['FULL_BUILD'] === 'true',
  onProgress: process.env['BUILD_PROGRESS'] === 'true' ? (m) => console.error(`  build: ${m} [main thread CPU ${mainCpuLap().toFixed(2)} s]`) : () => {},
});
const seconds = (performance.now() - started) / 1000;
const thread = process.threadCpuUsage();
const whole = process.cpuUsage();
// performance.now() counts from the process's start: with the loading of the modules, what `npm run build` takes
console.log(JSON.stringify({ id: summary.id, seconds, processSeconds: performance.now() / 1000, rssMb: process.resourceUsage().maxRSS / 1024, pages: summary.pages, videos: summary.videos, changed: summary.changed, reuse: summary.reuse,
  cpu: { main: (thread.user + thread.system) / 1e6, process: (whole.user + whole.system) / 1e6 } }));
