// npm run changes [-- --snapshot ID]: prints the absolute URLs whose bodies changed in the build of
// the current snapshot (or of ID), one a line, for a CDN's purge API (docs/cdn.md). nginx needs
// none: it serves the new snapshot's files after its reload.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../src/config.ts';
import { layoutOf } from '../src/snapshot/layout.ts';
import { currentSnapshotId } from '../src/snapshot/swap.ts';
import { runCli, UsageError } from './cli.ts';

await runCli('changes', () => {
  const layout = layoutOf(loadConfig().distDir);
  const i = process.argv.indexOf('--snapshot');
  const id = i === -1 ? currentSnapshotId(layout.root) : process.argv[i + 1];
  if (!id || !/^[0-9a-f]{16}$/.test(id)) throw new UsageError(i === -1 ? 'no snapshot yet: run npm run build' : `--snapshot needs a snapshot id (16 hex digits), not ${id ?? 'nothing'}`);
  const file = join(layout.changes, `${id}.txt`);
  if (!existsSync(file)) {
    console.error(`changes: the build of snapshot ${id} changed no URL (or its list was pruned)`);
    return;
  }
  process.stdout.write(readFileSync(file, 'utf8'));
  console.error(`changes: ${readFileSync(file, 'utf8').split('\n').filter(Boolean).length} URLs changed in the build of snapshot ${id}`);
});
