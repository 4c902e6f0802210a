// `npm run seed -- [--videos N] [--db PATH] [--seed S]`: writes the synthetic demo catalogue, replacing
// the file whole (CATALOGUE_DB or data/catalogue.db by default). Same N and seed, same catalogue.
import { existsSync, statSync } from 'node:fs';
import { wholeNumber } from '../src/cli/args.ts';
import { DEFAULT_SEED_OPTIONS, seedCatalogue } from '../src/catalogue/seed-catalogue.ts';
import { loadConfig } from '../src/config.ts';
import { describeProgress } from '../src/lib/progress.ts';
import { elapsed, runCommand, UsageError } from './cli.ts';

const SEED_COMMAND = {
  run: 'npm run seed',
  about: 'Writes a deterministic synthetic catalogue, replacing the file whole: the same number of videos and seed give the same catalogue.',
  options: {
    videos: { type: 'string', value: 'N', help: `how many videos, 1 to 10000000 (default ${DEFAULT_SEED_OPTIONS.videos})` },
    db: { type: 'string', value: 'PATH', help: 'the catalogue file to write (default CATALOGUE_DB, or data/catalogue.db)' },
    seed: { type: 'string', value: 'S', help: `the random seed, 0 to 4294967295 (default ${DEFAULT_SEED_OPTIONS.seed})` },
  },
} as const;

await runCommand('seed', SEED_COMMAND, ({ values }) => {
  const videos = wholeNumber('videos', values.videos, { min: 1, max: 10_000_000, fallback: DEFAULT_SEED_OPTIONS.videos });
  const seed = wholeNumber('seed', values.seed, { min: 0, max: 0xffffffff, fallback: DEFAULT_SEED_OPTIONS.seed });
  const path = values.db || loadConfig().catalogueDb;
  // known before seeding, not after writing the catalogue whole beside it
  if (existsSync(path) && statSync(path).isDirectory()) throw new UsageError(`${values.db ? '--db' : 'CATALOGUE_DB'} ${path} is a directory: give the path of the catalogue file to write`);
  const n = (x: number) => x.toLocaleString('en-US');
  const started = performance.now();
  console.log(`seed: ${n(videos)} videos (seed ${seed}) into ${path}`);
  const summary = seedCatalogue(path, { videos, seed }, (p) =>
    console.log(`seed: ${describeProgress(p.videos, p.totalVideos, 'videos', (performance.now() - started) / 1000)}, ${n(p.records)} records`));
  const kinds = Object.entries(summary.counts).map(([kind, count]) => `${kind} ${n(count)}`).join(', ');
  console.log(`seed: wrote ${n(summary.records)} records (${kinds}) to ${path} in ${elapsed(started)}; ${n(summary.validated)} validated`);
});
