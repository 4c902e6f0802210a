// npm run bench:build-input -- [--db FILE] [--compare DIR] [--runs N]: times the build's phases before
// the model (reading the catalogue, trending and related, writing the model data) directly, wall and
// CPU time (CPU is the better guide on a shared machine), and prints the model data's SHA-256. With
// --compare DIR (another checkout of this project, e.g. main's), its code runs the same phases on the
// same catalogue in the same process, alternating run by run, and the two hashes must agree.
// Figures and the conditions they were measured under: docs/performance.md, "Reading the catalogue".
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { wholeNumber } from '../src/cli/args.ts';
import { runCommand, UsageError } from './cli.ts';

const COMMAND = {
  run: 'npm run bench:build-input',
  about: 'Times reading the catalogue (readBuildInput), trending and related (deriveCatalogue) and writing the model data (writeText of modelLines), wall and CPU seconds, and prints the model data\'s SHA-256; with --compare DIR, also with the code of another checkout, alternating, on the same catalogue.',
  options: {
    db: { type: 'string', value: 'FILE', help: 'the catalogue to read (default CATALOGUE_DB, or data/catalogue.db)' },
    compare: { type: 'string', value: 'DIR', help: 'another checkout of this project (with node_modules) to time side by side' },
    runs: { type: 'string', value: 'N', help: 'runs of each code, 1 to 20 (default 2)' },
  },
} as const;

interface Phases {
  readBuildInput(file: string): { catalogue: unknown };
  deriveCatalogue(catalogue: unknown): unknown;
  modelLines(catalogue: unknown, derived: unknown, baseUrl: string): Iterable<string>;
  writeText(file: string, pieces: Iterable<string>): { size: number; sha256: string };
}

async function loadPhases(root: string): Promise<Phases> {
  const from = (path: string) => import(join(root, path)) as Promise<Record<string, unknown>>;
  return {
    ...(await from('src/snapshot/read-build-input.ts')),
    ...(await from('src/model/build-model.ts')),
    ...(await from('src/snapshot/model-data.ts')),
    ...(await from('src/snapshot/text-files.ts')),
  } as unknown as Phases;
}

/** Runs `f`; its result and "wall/CPU" seconds (CPU of every thread of the process). */
function timed<T>(f: () => T): [T, string] {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = f();
  const used = process.cpuUsage(cpu);
  return [result, `${((performance.now() - started) / 1000).toFixed(2)}/${((used.user + used.system) / 1e6).toFixed(2)}`];
}

await runCommand('bench:build-input', COMMAND, async ({ values }) => {
  const db = resolve(values.db ?? process.env['CATALOGUE_DB'] ?? 'data/catalogue.db');
  if (!existsSync(db)) throw new UsageError(`no catalogue at ${db}: create one with npm run seed or npm run import -- FILE`);
  const runs = wholeNumber('runs', values.runs, { min: 1, max: 20, fallback: 2 });
  const trees: [string, string][] = [['this', resolve('.')]];
  if (values.compare !== undefined) trees.push(['compare', resolve(values.compare)]);
  const codes: [string, Phases][] = [];
  for (const [name, root] of trees) {
    try {
      codes.push([name, await loadPhases(root)]);
    } catch (error) {
      throw new UsageError(`cannot load the build's phases from ${root}: ${(error as Error).message}`);
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'vpa-bench-build-input-'));
  const hashes = new Set<string>();
  try {
    console.log(`bench:build-input: ${db}, ${runs} run(s) of ${codes.map(([name]) => name).join(' and ')}; wall/CPU seconds`);
    for (let run = 1; run <= runs; run++) {
      for (const [name, phases] of codes) {
        const load = loadavg()[0]!.toFixed(1);
        const [input, read] = timed(() => phases.readBuildInput(db));
        const [derived, derive] = timed(() => phases.deriveCatalogue(input.catalogue));
        const [record, model] = timed(() => phases.writeText(join(dir, `model-${name}.ndjson`), phases.modelLines(input.catalogue, derived, 'http://127.0.0.1:4321')));
        rmSync(join(dir, `model-${name}.ndjson`), { force: true });
        hashes.add(record.sha256);
        console.log(`run ${run} ${name.padEnd(7)} read ${read}  trending+related ${derive}  model data ${model}  (${(record.size / 1e6).toFixed(1)} MB, sha256 ${record.sha256.slice(0, 16)}; load ${load} → ${loadavg()[0]!.toFixed(1)})`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (hashes.size > 1) throw new Error(`the model data differs between the codes (${[...hashes].map((h) => h.slice(0, 16)).join(', ')})`);
  console.log(`bench:build-input: the model data is the same${codes.length > 1 ? ' with both codes' : ' in every run'}`);
});
