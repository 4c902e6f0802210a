// npx node scripts/bench/search-engine.ts [DIR] [COUNT] [--handlers]: the search engine alone, in
// process, on the catalogue and snapshot the search benchmark left in DIR (default /tmp/s100k):
// times COUNT (default 2,000) distinct cold queries on videos, printing percentiles, the time by
// number of words and the slowest queries, and the same for the process's CPU time (which a busy
// machine inflates far less than wall time). With --handlers, loads the whole snapshot and times
// the benchmark's request mix through the handlers and the renderer instead (no HTTP). With
// --build, builds the index of the snapshot's model as the build does (documents packed, then
// indexed and serialised: the worker's part) COUNT times (default 3) and prints each part's CPU
// time (process.threadCpuUsage: this thread's alone) and the SHA-256 of search.json's text, which
// must be the snapshot's (docs/performance.md, "Search index build without a string per word").
import { readFileSync, realpathSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Context, Endpoint } from '../../src/api/endpoint.ts';
import { listVideos } from '../../src/api/handlers/list-videos.ts';
import { search } from '../../src/api/handlers/search.ts';
import { renderAnswer } from '../../src/api/respond.ts';
import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import { searchSources } from '../../src/search/documents.ts';
import { packSources, sourcesOf } from '../../src/search/packed-documents.ts';
import { searchKind } from '../../src/search/run-search.ts';
import { buildSearchIndexOf, loadSearchIndex, serialisedPieces } from '../../src/search/search-index.ts';
import { termsOf } from '../../src/search/text.ts';
import { loadSnapshot } from '../../src/server/snapshot-store.ts';
import { searchQueries } from './search-queries.ts';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const dir = args[0] ?? '/tmp/s100k';
const count = Number(args[1] ?? 2000);
const current = join(dir, 'dist', 'snapshots', 'current');
if (process.argv.includes('--build')) {
  const snapshot = loadSnapshot(current, basename(realpathSync(current)), { cacheBytes: 0 });
  const served = createHash('sha256').update(readFileSync(join(current, 'search.json'))).digest('hex');
  const seconds = () => {
    const used = process.threadCpuUsage();
    return (used.user + used.system) / 1e6;
  };
  for (let run = 0; run < Number(args[1] ?? 3); run++) {
    const started = seconds();
    const packed = packSources(searchSources(snapshot.model));
    const packing = seconds();
    const index = buildSearchIndexOf(sourcesOf(packed));
    const built = seconds();
    const hash = createHash('sha256');
    for (const piece of serialisedPieces(index)) hash.update(piece, 'latin1');
    const sha256 = hash.digest('hex');
    const done = seconds();
    console.log(`CPU: packing ${(packing - started).toFixed(2)} s, index ${(built - packing).toFixed(2)} s, serialising and hashing ${(done - built).toFixed(2)} s; `
      + `search.json ${sha256 === served ? 'is the snapshot\'s' : `DIFFERS: ${sha256}`} (load ${loadavg()[0]!.toFixed(1)})`);
  }
  process.exit(0);
}

const seen = new Set<string>();
const queries = searchQueries(join(dir, 'catalogue.db'), count * 3, 11).filter((q) => {
  const key = termsOf(q).join(' ');
  if (key === '' || seen.has(key)) return false;
  seen.add(key);
  return true;
}).slice(0, count);
const warmUp = searchQueries(join(dir, 'catalogue.db'), 500, 99).map((q) => `${q} warm`); // the JIT, not the caches

function report(times: [number, string][], label = 'wall') {
  const sorted = times.map((t) => t[0]).sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!.toFixed(2);
  const sum = sorted.reduce((s, x) => s + x, 0);
  console.log(`${times.length} queries, ${label}: mean ${(sum / sorted.length).toFixed(3)} ms, p50 ${at(0.5)}, p90 ${at(0.9)}, p99 ${at(0.99)}, max ${at(1)} ms`);
  for (const words of [1, 2, 3]) {
    const group = times.filter(([, q]) => termsOf(q).length === words);
    console.log(`  ${words} word(s): ${group.length} queries, mean ${(group.reduce((s, [t]) => s + t, 0) / group.length).toFixed(3)} ms`);
  }
  console.log([...times].sort((a, b) => b[0] - a[0]).slice(0, 12).map(([t, q]) => `  ${t.toFixed(2)} ms ${JSON.stringify(q)}`).join('\n'));
}

/** Times `run` over the queries: wall and the process's CPU time (user + system) per query. */
function timeEach(run: (q: string, i: number) => unknown) {
  const wall: [number, string][] = [];
  const cpu: [number, string][] = [];
  queries.forEach((q, i) => {
    const c = process.cpuUsage();
    const start = performance.now();
    run(q, i);
    wall.push([performance.now() - start, q]);
    const used = process.cpuUsage(c);
    cpu.push([(used.user + used.system) / 1000, q]);
  });
  report(wall);
  report(cpu, 'CPU');
}

if (process.argv.includes('--handlers')) {
  const snapshot = loadSnapshot(current, basename(realpathSync(current)), { cacheBytes: 0 });
  const context: Context = { model: snapshot.model, snapshot: snapshot.info, liveStreams: () => [], search: snapshot.search };
  // the benchmark's mix: 70% /v1/search, 20% /v1/videos?q=, 10% /v1/search?type=all
  const request = (q: string, i: number) => {
    const endpoint: Endpoint<any> = i % 10 >= 7 && i % 10 < 9 ? listVideos : search;
    const params = new URLSearchParams(i % 10 === 9 ? { q, type: 'all' } : { q });
    return renderAnswer(endpoint.handle(endpoint.parse({}, params), context), endpoint.cache, context.model.urls);
  };
  warmUp.forEach(request);
  timeEach(request);
} else {
  const index = loadSearchIndex(readFileSync(join(current, 'search.json')));
  for (const q of warmUp) searchKind(index, 'videos', q);
  timeEach((q) => searchKind(index, 'videos', q));
}
