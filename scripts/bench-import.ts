// npm run bench:import -- [FILE] [--videos N]: times `npm run import` of FILE (default: the real
// pyvideo-100k catalogue if present) into a fresh catalogue, in its own process, and reports wall
// time and peak RSS (main thread and workers together) against the targets. With --videos N, the
// file is made first: a seeded catalogue of N videos, exported (npm run export). Figures and the
// conditions they were measured under: docs/performance.md.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedCatalogue } from '../src/catalogue/seed-catalogue.ts';
import { wholeNumber } from '../src/cli/args.ts';
import { runCommand, UsageError } from './cli.ts';

/** The node flags `npm run import` runs with (package.json), so the benchmark measures the same process. */
const IMPORT_NODE_FLAGS = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts['import']!
  .split(' ').filter((word) => word.startsWith('--'));

/** The shared data folder sits beside the repository (or beside the folder of worktrees). */
const DEFAULT_FILE = ['../shared', '../../shared'].map((d) => `${d}/data/real-catalogue/pyvideo-100k.ndjson.gz`).find(existsSync)
  ?? '../shared/data/real-catalogue/pyvideo-100k.ndjson.gz';
/** Targets: 100,000 real videos in 15 s, 1,000,000 seeded videos in 3 min; 300 MB peak either way. */
const TARGET = { seconds100k: 15, seconds1m: 180, rssMb: 300 };

const COMMAND = {
  run: 'npm run bench:import',
  about: `Imports FILE (default ${DEFAULT_FILE}), or a seeded catalogue of N videos written out by the export, into a fresh catalogue in a temporary folder, once with validation on a worker thread and once on the main thread, and prints the time, CPU time and peak RSS against the targets.`,
  options: {
    videos: { type: 'string', value: 'N', help: 'seed N videos and export them, then import that file' },
  },
  positionals: { usage: '[FILE]', min: 0, max: 1 },
} as const;

await runCommand('bench:import', COMMAND, (parsed) => {
  const dir = mkdtempSync(join(tmpdir(), 'vpa-bench-import-'));
  try {
    let file = parsed.positionals[0] ?? DEFAULT_FILE;
    let target = TARGET.seconds100k;
    if (parsed.values.videos !== undefined) {
      const videos = wholeNumber('videos', parsed.values.videos, { min: 1, max: 10_000_000, fallback: 1 });
      const source = join(dir, 'source.db');
      file = join(dir, `seed-${videos}.ndjson.gz`);
      console.log(`bench:import: seeding ${videos.toLocaleString('en-US')} videos and exporting them to ${file}`);
      seedCatalogue(source, { videos, seed: 42 });
      execFileSync(process.execPath, ['scripts/export.ts', file, '--db', source], { stdio: ['ignore', 'ignore', 'inherit'] });
      rmSync(source, { force: true });
      target = (TARGET.seconds1m * videos) / 1_000_000;
    }
    if (!existsSync(file)) throw new UsageError(`no such file: ${file}`);
    for (const workers of ['1', '0']) {
      const label = workers === '1' ? 'validation on a worker thread' : 'validation on the main thread';
      console.log(`bench:import: importing ${file} (${(statSync(file).size / 1e6).toFixed(1)} MB), ${label}`);
      const db = join(dir, `catalogue-${workers}.db`);
      const started = performance.now();
      const run = spawnSync(process.execPath, [...IMPORT_NODE_FLAGS, 'scripts/import.ts', file, '--db', db], { encoding: 'utf8', env: { ...process.env, IMPORT_WORKERS: workers } });
      const seconds = (performance.now() - started) / 1000;
      if (run.status !== 0) throw new Error(`import failed:\n${run.stderr}`);
      rmSync(db, { force: true });
      const summary = run.stdout.trim().split('\n').at(-1)!;
      const peak = /peak RSS (\d+) MB/.exec(summary);
      const rssMb = peak ? Number(peak[1]) : NaN;
      const cpu = /\(([\d.]+) s of CPU/.exec(summary)?.[1] ?? '?';
      console.log(summary);
      console.log(`bench:import: ${cpu} s of CPU in all (on an idle machine, validation on the main thread takes about that long)`);
      console.log(`bench:import: ${label}: ${seconds.toFixed(1)} s wall (process start included), peak RSS ${rssMb} MB`);
      console.log(`targets: ${target.toFixed(0)} s and ${TARGET.rssMb} MB — this run: ${seconds <= target ? 'time met' : 'time missed'}, ${rssMb <= TARGET.rssMb ? 'memory met' : 'memory missed'}`);
    }
    const load = loadavg()[0]!.toFixed(1);
    console.log(`bench:import: load average ${load} on ${availableParallelism()} cores at the end (figures under load are not the machine's best)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
