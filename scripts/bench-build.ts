// npm run bench:build -- [--videos N] [--import FILE]: seeds (or imports) a catalogue in a temporary
// folder, then times `npm run build` on it in a fresh process and reports wall time and peak RSS
// (main thread and compression workers together), against the targets for 100,000 videos.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, totalmem } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { join } from 'node:path';
import { importCatalogue } from '../src/catalogue/import-catalogue.ts';
import { openCatalogue } from '../src/catalogue/open-catalogue.ts';
import { seedCatalogue } from '../src/catalogue/seed-catalogue.ts';
import { wholeNumber } from '../src/cli/args.ts';
import type { Reuse } from '../src/snapshot/build-snapshot.ts';
import { chooseHeapLimit, countVideos } from '../src/snapshot/build-heap.ts';
import { runCommand } from './cli.ts';
import { runBuildScript } from './bench/run-build-script.ts';

const TARGET = { seconds: 60, rssMb: 1024 };

const BENCH_BUILD_COMMAND = {
  run: 'npm run bench:build',
  about: 'Seeds (or imports) a catalogue in a temporary folder, then times a build and an unchanged rebuild, each in a fresh process: wall time and peak RSS against the targets for 100,000 videos.',
  options: {
    videos: { type: 'string', value: 'N', help: 'videos in the seeded catalogue (default 100000)' },
    import: { type: 'string', value: 'FILE', help: 'import this NDJSON file (plain or gzipped) instead of seeding' },
  },
} as const;

await runCommand('bench:build', BENCH_BUILD_COMMAND, async ({ values }) => {
  const videos = wholeNumber('videos', values.videos, { min: 1, max: 10_000_000, fallback: 100_000 });
  const file = values.import;
  const dir = mkdtempSync(join(tmpdir(), 'vpa-bench-build-'));
  try {
    const catalogue = join(dir, 'catalogue.db');
    if (file) {
      const db = openCatalogue(catalogue);
      await importCatalogue(db, file);
      db.close();
    } else {
      seedCatalogue(catalogue, { videos, seed: 42 });
    }
    const runs = [];
    // the heap limit `npm run build` would give itself for this catalogue (src/snapshot/build-heap.ts)
    const heap = chooseHeapLimit({ videos: countVideos(catalogue) ?? 0, totalMemory: totalmem(), defaultLimit: getHeapStatistics().heap_size_limit, nodeOptions: `${process.env['NODE_OPTIONS'] ?? ''} ${process.execArgv.join(' ')}` });
    if (heap.limitMb !== undefined) console.log(`builds run with a heap limit of ${heap.reason}`);
    const heapFlag = heap.limitMb === undefined ? [] : [`--max-old-space-size=${heap.limitMb}`];
    for (const label of ['first build', 'rebuild, unchanged catalogue']) {
      const out = execFileSync(process.execPath, [...heapFlag, runBuildScript()], {
        env: { ...process.env, CATALOGUE_DB: catalogue, DIST_DIR: join(dir, 'dist') },
        encoding: 'utf8',
      });
      const result = JSON.parse(out.trim().split('\n').at(-1)!) as { seconds: number; rssMb: number; pages: number; videos: number; reuse: Reuse };
      runs.push(result);
      const reused = result.reuse.none !== undefined ? '' : result.reuse.rendered ? ` (${result.reuse.pages} pages reused, ${result.reuse.compressed} compressed)` : ' (the served snapshot taken whole: same model data, nothing rendered)';
      console.log(`${label}: ${result.videos} videos, ${result.pages} pages in ${result.seconds.toFixed(1)} s, peak RSS ${result.rssMb.toFixed(0)} MB${reused}`);
    }
    const first = runs[0]!;
    console.log(`targets for 100,000 videos: under ${TARGET.seconds} s and ${TARGET.rssMb} MB` +
      ` — this run: ${first.seconds <= TARGET.seconds ? 'time met' : 'time missed'}, ${first.rssMb <= TARGET.rssMb ? 'memory met' : 'memory missed'}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
