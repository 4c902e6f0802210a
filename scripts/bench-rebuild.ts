// npm run bench:rebuild -- --dir DIR [--change N] [--full] [--progress]: what a rebuild after a
// small change costs. DIR holds a catalogue (DIR/catalogue.db, e.g. a COPY of an imported
// pyvideo-100k catalogue; it is changed) and its deployment (DIR/dist, built first when there is
// none). Changes the titles of N visible videos (and the catalogue's revision, as an import does),
// then runs `npm run build` in a fresh process and prints its wall time, peak RSS (main thread and
// compression workers), the URLs that changed, and what was reused of the served snapshot, against
// the targets for pyvideo-100k: one change <= 5 s, 1% of the videos <= 15 s. --full times a full
// build of the same catalogue after it (docs/performance.md). Prints the machine's load average.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { openCatalogue } from '../src/catalogue/open-catalogue.ts';
import { markRevision } from '../src/catalogue/revision.ts';
import { wholeNumber } from '../src/cli/args.ts';
import { layoutOf } from '../src/snapshot/layout.ts';
import { currentSnapshotId } from '../src/snapshot/swap.ts';
import type { Reuse } from '../src/snapshot/build-snapshot.ts';
import { runCommand, UsageError } from './cli.ts';

const TARGET = { oneChangeSeconds: 5, onePercentSeconds: 15 };

const BENCH_REBUILD_COMMAND = {
  run: 'npm run bench:rebuild',
  about: 'Changes the titles of N videos of DIR/catalogue.db, rebuilds DIR/dist in a fresh process and prints wall time, peak RSS, changed URLs and what was reused, against the rebuild targets.',
  options: {
    dir: { type: 'string', value: 'DIR', help: 'folder holding catalogue.db (changed: use a copy) and dist/ (built first when missing)' },
    change: { type: 'string', value: 'N', help: 'videos whose title is changed (default 1)' },
    full: { type: 'boolean', help: 'then time a full build of the same catalogue (npm run build -- --full)' },
    progress: { type: 'boolean', help: 'show the builds\' progress lines' },
  },
} as const;

interface Run { seconds: number; rssMb: number; pages: number; videos: number; changed: number; reuse: Reuse }

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

function timedBuild(catalogue: string, distDir: string, full: boolean, progress: boolean): Run {
  const out = execFileSync(process.execPath, ['scripts/bench/run-build.ts'], {
    env: { ...process.env, CATALOGUE_DB: catalogue, DIST_DIR: distDir, FULL_BUILD: String(full), BUILD_PROGRESS: String(progress) },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as Run;
}

function describe(label: string, run: Run): void {
  const r = run.reuse;
  console.log(`${label}: ${run.seconds.toFixed(1)} s, peak RSS ${run.rssMb.toFixed(0)} MB; ${run.pages} pages, ${run.changed} URLs changed; ` +
    (r.none === undefined ? `${r.pages} pages reused, ${r.compressed} compressed, search index ${r.search ? 'copied' : 'rebuilt'}` : `nothing reused (${r.none})`) +
    ` (load average ${load()})`);
}

/** Changes the titles of `count` visible videos spread over the catalogue, in one transaction with a new revision. */
function changeTitles(file: string, count: number): number {
  const db = openCatalogue(file);
  try {
    return db.transaction(() => {
      const ids = db.prepare("SELECT id FROM videos WHERE privacy != 'private' ORDER BY id").pluck().all() as string[];
      if (count > ids.length) throw new UsageError(`--change ${count}: the catalogue has only ${ids.length} visible videos`);
      const stamp = Date.now().toString(36);
      const update = db.prepare("UPDATE videos SET title = substr(title, 1, 200) || ' · ' || ? WHERE id = ?");
      for (let i = 0; i < count; i++) update.run(`changed ${stamp}`, ids[Math.floor((i * ids.length) / count)]!);
      markRevision(db);
      return ids.length;
    })();
  } finally {
    db.close();
  }
}

await runCommand('bench:rebuild', BENCH_REBUILD_COMMAND, ({ values }) => {
  if (values.dir === undefined) throw new UsageError('--dir DIR is required: a folder holding catalogue.db (a copy: it is changed)');
  const catalogue = join(values.dir, 'catalogue.db');
  if (!existsSync(catalogue)) throw new UsageError(`--dir ${values.dir}: no catalogue.db in it`);
  const change = wholeNumber('change', values.change, { min: 1, max: 10_000_000, fallback: 1 });
  const distDir = join(values.dir, 'dist');
  const progress = values.progress ?? false;
  if (currentSnapshotId(layoutOf(distDir).root) === undefined) describe('first build (no snapshot was served)', timedBuild(catalogue, distDir, false, progress));
  const visible = changeTitles(catalogue, change);
  const run = timedBuild(catalogue, distDir, false, progress);
  describe(`rebuild after changing ${change} title${change === 1 ? '' : 's'} (${((change / visible) * 100).toFixed(2)}% of ${visible} videos)`, run);
  const target = change === 1 ? TARGET.oneChangeSeconds : change <= visible / 100 ? TARGET.onePercentSeconds : undefined;
  if (target !== undefined) console.log(`target for pyvideo-100k: ${target} s — this run: ${run.seconds <= target ? 'met' : 'missed'}`);
  if (values.full) describe('full build of the same catalogue', timedBuild(catalogue, distDir, true, progress));
});
