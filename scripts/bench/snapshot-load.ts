// MALLOC_MMAP_THRESHOLD_=262144 ./node_modules/.bin/node --max-semi-space-size=16 scripts/bench/snapshot-load.ts [--snapshot DIR] [--loads N]
// (the environment and flags of package.json's start script):
// what loading a snapshot costs the server's process, measured in that process: the snapshot is
// opened as the server opens it (openSnapshot: verification and the search index off the event
// loop, the rest in slices), N times in a row, each load holding the previous snapshot until it
// is done (a swap). Prints, for each load, its time, the longest the event loop was held (a timer
// asked every millisecond, and each wait over 50 ms with when it came), the peak RSS while it ran,
// and, after two full garbage collections, the RSS, JS heap and buffers held with one snapshot
// served. Add --trace-gc to the node flags to see the collections. docs/performance.md,
// "Server memory and swap stalls".
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { loadConfig } from '../../src/config.ts';
import { layoutOf } from '../../src/snapshot/layout.ts';
import { closeSnapshot, openSnapshot, type Snapshot } from '../../src/server/snapshot-store.ts';
import { wholeNumber } from '../../src/cli/args.ts';
import { runCommand } from '../cli.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const SNAPSHOT_LOAD_COMMAND = {
  run: 'MALLOC_MMAP_THRESHOLD_=262144 ./node_modules/.bin/node --max-semi-space-size=16 scripts/bench/snapshot-load.ts',
  about: 'What loading a snapshot costs the server process: load time, the longest the event loop was held, peak RSS, and RSS, heap and buffers held once loaded (after a full garbage collection).',
  options: {
    snapshot: { type: 'string', value: 'DIR', help: 'a snapshot directory (default: the current snapshot of DIST_DIR)' },
    loads: { type: 'string', value: 'N', help: 'loads in a row, each one a swap from the one before (default 3)' },
  },
  notes: ['environment: DIST_DIR (default dist), PUBLIC_BASE_URL (the snapshot\'s), SNAPSHOT_CACHE_MB.'],
} as const;

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

await runCommand('snapshot-load', SNAPSHOT_LOAD_COMMAND, async ({ values }) => {
  const config = loadConfig();
  const dir = values.snapshot ?? layoutOf(config.distDir).current;
  const loads = wholeNumber('loads', values.loads, { min: 1, max: 20, fallback: 3 });
  const id = (await import('node:fs')).realpathSync(dir).split('/').pop()!;
  let served: Snapshot | undefined;
  for (let n = 1; n <= loads; n++) {
    const started = performance.now();
    let last = started;
    let worst = 0;
    let peak = 0;
    const stalls: string[] = [];
    let running = true;
    const watch = (async () => {
      while (running) {
        await new Promise((r) => setTimeout(r, 1));
        const now = performance.now();
        const held = now - last;
        if (held > worst) worst = held;
        if (held > 50) stalls.push(`${held.toFixed(0)} ms at ${(last - started).toFixed(0)} ms`);
        last = now;
        peak = Math.max(peak, process.memoryUsage.rss());
      }
    })();
    const next = await openSnapshot(dir, id, { cacheBytes: config.snapshotCacheBytes, baseUrl: config.publicBaseUrl });
    running = false;
    await watch;
    const ms = performance.now() - started;
    if (served) closeSnapshot(served);
    served = next;
    gc();
    gc();
    const m = process.memoryUsage();
    console.log(`load ${n}: ${(ms / 1000).toFixed(1)} s, event loop held at most ${worst.toFixed(0)} ms (${stalls.length} waits over 50 ms${stalls.length ? `: ${stalls.slice(0, 12).join(', ')}` : ''}); peak RSS ${mb(peak)}; after a full GC: RSS ${mb(m.rss)}, JS heap ${mb(m.heapUsed)} of ${mb(m.heapTotal)}, buffers ${mb(m.arrayBuffers)}, external ${mb(m.external)}`);
  }
  console.log(`snapshot-load: ${served!.info.videos} videos, ${served!.info.pages} pages, page files ${served!.held === 'memory' ? 'in memory' : 'read from disk'}`);
  closeSnapshot(served!);
});
