// `npm run seed -- [--videos N] [--db PATH] [--seed S]`: writes the synthetic demo catalogue, replacing
// the file whole (CATALOGUE_DB or data/catalogue.db by default). Same N and seed, same catalogue.
import { parseArgs } from 'node:util';
import { DEFAULT_SEED_OPTIONS, seedCatalogue } from '../src/catalogue/seed-catalogue.ts';
import { loadConfig } from '../src/config.ts';
import { elapsed, runCli, UsageError } from './cli.ts';

const USAGE = `usage: npm run seed -- [--videos N (1-10000000, default ${DEFAULT_SEED_OPTIONS.videos})] [--db PATH] [--seed S (0-4294967295, default ${DEFAULT_SEED_OPTIONS.seed})]`;

function wholeNumber(flag: string, text: string | undefined, fallback: number, min: number, max: number): number {
  if (text === undefined) return fallback;
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(n >= min && n <= max)) throw new UsageError(`--${flag} must be a whole number from ${min} to ${max}, got "${text}"; ${USAGE}`);
  return n;
}

await runCli('seed', () => {
  let args;
  try {
    args = parseArgs({ options: { videos: { type: 'string' }, db: { type: 'string' }, seed: { type: 'string' } } }).values;
  } catch (error) {
    // parseArgs names the culprit in its first sentence: "Unknown option '--x'", "Unexpected argument 'y'".
    throw new UsageError(`${(error as Error).message.split(/\.\s/)[0]}; ${USAGE}`);
  }
  const videos = wholeNumber('videos', args.videos, DEFAULT_SEED_OPTIONS.videos, 1, 10_000_000);
  const seed = wholeNumber('seed', args.seed, DEFAULT_SEED_OPTIONS.seed, 0, 0xffffffff);
  const path = args.db || loadConfig().catalogueDb;
  const n = (x: number) => x.toLocaleString('en-US');
  const started = performance.now();
  console.log(`seed: ${n(videos)} videos (seed ${seed}) into ${path}`);
  const summary = seedCatalogue(path, { videos, seed }, (p) =>
    console.log(`seed: ${Math.round((100 * p.videos) / p.totalVideos)}%  ${n(p.videos)} videos, ${n(p.records)} records, ${elapsed(started)}`));
  const kinds = Object.entries(summary.counts).map(([kind, count]) => `${kind} ${n(count)}`).join(', ');
  console.log(`seed: wrote ${n(summary.records)} records (${kinds}) to ${path} in ${elapsed(started)}; ${n(summary.validated)} validated`);
});
