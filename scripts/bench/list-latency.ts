// npx node scripts/bench/list-latency.ts [COUNT]: the service time of list pages never asked
// before, in process (no HTTP, no answer cache), on the snapshot in DIST_DIR: the model and search
// index are loaded as the server loads them, then COUNT (default 1,000) of bench:mix's list URLs
// are each parsed, handled and rendered once, after 200 others warm the JIT. Prints wall and CPU
// time percentiles (CPU time is what contention on a shared machine inflates least).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from '../../src/api/endpoint.ts';
import { runEndpoint } from '../../src/api/respond.ts';
import { matchRoute } from '../../src/api/routes.ts';
import { loadConfig } from '../../src/config.ts';
import { buildModel } from '../../src/model/build-model.ts';
import { loadSearchIndex } from '../../src/search/search-index.ts';
import { layoutOf, MANIFEST_FILE, MODEL_FILE, SEARCH_FILE } from '../../src/snapshot/layout.ts';
import { readModelData } from '../../src/snapshot/model-data.ts';
import { mixUrls } from './mix-urls.ts';

const count = Number(process.argv[2] ?? 1000);
const current = layoutOf(loadConfig().distDir).current;
let started = performance.now();
const data = readModelData(join(current, MODEL_FILE));
const model = buildModel(data.catalogue, data.derived, data.baseUrl);
const search = existsSync(join(current, SEARCH_FILE)) ? loadSearchIndex(readFileSync(join(current, SEARCH_FILE), 'utf8')) : undefined;
console.log(`loaded in ${((performance.now() - started) / 1000).toFixed(1)} s; heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MB, rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`);
const { urls, firsts } = mixUrls(join(current, MANIFEST_FILE), true, count);
const context: Context = { model, snapshot: undefined, liveStreams: () => model.live, search };

function serve(path: string): { wall: number; cpu: number } {
  const url = new URL(`http://origin.invalid${path}`);
  const route = matchRoute(url.pathname)!;
  const cpu = process.cpuUsage();
  started = performance.now();
  const rendered = runEndpoint(route.endpoint, route.params, url, context);
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  if (rendered.status !== 200) throw new Error(`${path}: ${rendered.status} ${rendered.body.toString()}`);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

for (const path of urls.slice(0, 200)) serve(path);
const times = firsts.map((path) => ({ path, ...serve(path) }));
const report = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!.toFixed(2);
  return `p50 ${at(0.5)}, p90 ${at(0.9)}, p99 ${at(0.99)}, max ${at(1)} ms`;
};
const kinds: [string, (path: string) => boolean][] = [
  ['all', () => true],
  ['/v1/videos with filters', (p) => p.startsWith('/v1/videos?')],
  ['channel and playlist videos', (p) => /^\/v1\/(channels|playlists)\/[^/]+\/videos/.test(p)],
  ['/v1/channels', (p) => p.startsWith('/v1/channels?')],
];
for (const [kind, of] of kinds) {
  const group = times.filter((t) => of(t.path));
  if (group.length > 0) console.log(`${kind}: ${group.length} pages, each asked once: wall ${report(group.map((t) => t.wall))}; CPU ${report(group.map((t) => t.cpu))}`);
}
console.log(`slowest (wall): ${times.sort((a, b) => b.wall - a.wall).slice(0, 5).map((t) => `${t.wall.toFixed(1)} ms ${t.path}`).join(', ')}`);
