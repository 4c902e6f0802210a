// ./node_modules/.bin/node scripts/bench/model-memory.ts [--snapshot DIR]: what the served model holds
// per video (docs/architecture.md, "One representation per video"). Reads the model data of the
// snapshot in DIR (default: DIST_DIR's current one) as the server does, builds the model, and prints
// the JS heap and the buffers it keeps (built as its lines are read, as the server does), each measured after a full garbage collection, in all and
// per public video, with the time the build took. The model data's own parse is not counted: only
// what is still held once it is dropped.
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { loadConfig } from '../../src/config.ts';
import type { Model } from '../../src/model/build-model.ts';
import { layoutOf, MODEL_FILE } from '../../src/snapshot/layout.ts';
import { readModel } from '../../src/snapshot/model-data.ts';
import { runCommand } from '../cli.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const MODEL_MEMORY_COMMAND = {
  run: './node_modules/.bin/node scripts/bench/model-memory.ts',
  about: 'What the model of a snapshot holds per video: the JS heap and buffers kept once it is built (after a full garbage collection), in all and per public video.',
  options: {
    snapshot: { type: 'string', value: 'DIR', help: 'a snapshot directory (default: the current snapshot of DIST_DIR)' },
  },
  notes: ['environment: DIST_DIR (default dist).'],
} as const;

/** Heap and buffers in use after two full collections. */
function measure(): { heap: number; buffers: number } {
  gc();
  gc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, buffers: m.arrayBuffers };
}

/** Built in a function of its own, so nothing of the parse outlives it but the model. */
function load(dir: string): { model: Model; ms: number } {
  const started = performance.now();
  const model = readModel(join(dir, MODEL_FILE));
  return { model, ms: performance.now() - started };
}

await runCommand('model-memory', MODEL_MEMORY_COMMAND, ({ values }) => {
  const dir = values.snapshot ?? layoutOf(loadConfig().distDir).current;
  const before = measure();
  const { model, ms } = load(dir);
  const after = measure();
  const visible = model.orders.latest.length;
  const heap = after.heap - before.heap;
  const buffers = after.buffers - before.buffers;
  const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
  console.log(`model-memory: ${model.entries.length} videos (${visible} public), built in ${(ms / 1000).toFixed(1)} s`);
  console.log(`model-memory: JS heap ${mb(heap)} (${Math.round(heap / visible)} B per public video), buffers ${mb(buffers)} (${Math.round(buffers / visible)} B per public video: related lists, list indexes, descriptions), in all ${Math.round((heap + buffers) / visible)} B per public video`);
  console.log(`model-memory: process RSS ${mb(process.memoryUsage().rss)}`);
});
