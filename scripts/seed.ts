// `npm run seed -- [--videos N] [--db PATH] [--seed S]`: writes the synthetic demo catalogue.
import { parseArgs } from 'node:util';
import { DEFAULT_SEED_OPTIONS, seedCatalogue } from '../src/catalogue/seed-catalogue.ts';

const USAGE = 'usage: npm run seed -- [--videos N] [--db PATH] [--seed S]  (N: 1-10000000, default 3000; PATH: default $CATALOGUE_DB or data/catalogue.db; S: 0-4294967295, default 42)';
const fail = (message: string): never => {
  console.error(`seed: ${message}\n${USAGE}`);
  process.exit(2);
};
const wholeNumber = (flag: string, text: string | undefined, fallback: number, max: number, min: number): number => {
  if (text === undefined) return fallback;
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  return n >= min && n <= max ? n : fail(`--${flag} must be a whole number from ${min} to ${max}, got "${text}"`);
};

let values: { videos?: string | undefined; db?: string | undefined; seed?: string | undefined; help?: boolean | undefined } = {};
try {
  ({ values } = parseArgs({ options: { videos: { type: 'string' }, db: { type: 'string' }, seed: { type: 'string' }, help: { type: 'boolean' } } }));
} catch (error) {
  fail((error as Error).message.split(/\.\s/)[0] ?? String(error)); // "Unknown option '--x'", "Unexpected argument 'y'"
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const videos = wholeNumber('videos', values.videos, DEFAULT_SEED_OPTIONS.videos, 10_000_000, 1);
const seed = wholeNumber('seed', values.seed, DEFAULT_SEED_OPTIONS.seed, 0xffffffff, 0);
const path = values.db || process.env['CATALOGUE_DB'] || 'data/catalogue.db';
const n = (x: number) => x.toLocaleString('en-US');
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

console.log(`seed: ${n(videos)} videos (seed ${seed}) into ${path}`);
const summary = seedCatalogue(path, { videos, seed }, (p) =>
  console.log(`seed: ${Math.round((100 * p.videos) / p.totalVideos)}% ${n(p.videos)} videos, ${n(p.records)} records, ${s(p.elapsedMs)}`));
const kinds = Object.entries(summary.counts).map(([kind, count]) => `${n(count)} ${kind}`).join(', ');
console.log(`seed: wrote ${n(summary.records)} records to ${path} in ${s(summary.elapsedMs)}: ${kinds}; validated ${n(summary.validated)}`);
