// npm run changes [-- --snapshot ID] [--tags]: prints the absolute URLs whose bodies changed in the
// build of the current snapshot (or of ID), one a line, for a CDN's purge API (docs/cdn.md); with
// --tags, the cache tags of those URLs instead (src/cdn/cache-tags.ts), for a purge by tag. nginx
// needs none: it serves the new snapshot's files after its reload.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { changedTags } from '../src/cdn/cache-tags.ts';
import { loadConfig } from '../src/config.ts';
import { layoutOf, MANIFEST_FILE } from '../src/snapshot/layout.ts';
import { readManifestBaseUrl } from '../src/snapshot/manifest.ts';
import { currentSnapshotId } from '../src/snapshot/swap.ts';
import { runCommand, UsageError } from './cli.ts';

const CHANGES_COMMAND = {
  run: 'npm run changes',
  about: 'Prints the absolute URLs whose bodies changed in the build of the current snapshot (or of --snapshot ID), one a line, for a CDN\'s purge API (docs/cdn.md). The count goes to stderr.',
  options: {
    snapshot: { type: 'string', value: 'ID', help: 'the snapshot whose build to list (16 hex digits; default: the current one)' },
    tags: { type: 'boolean', help: 'print the cache tags (Cache-Tag, Surrogate-Key) of the changed URLs, sorted, once each, instead of the URLs' },
  },
  notes: ['environment: DIST_DIR (default dist).', 'HTML pages are not listed: they are cached at the edge for at most a few minutes (docs/cdn.md).'],
} as const;

await runCommand('changes', CHANGES_COMMAND, ({ values }) => {
  const layout = layoutOf(loadConfig().distDir);
  const given = values.snapshot;
  const id = given ?? currentSnapshotId(layout.root);
  if (id === undefined) throw new UsageError('no snapshot yet: run npm run build');
  if (!/^[0-9a-f]{16}$/.test(id)) throw new UsageError(`--snapshot needs a snapshot id (16 hex digits), not "${id}"`);
  const file = join(layout.changes, `${id}.txt`);
  if (!existsSync(file)) {
    // a mistyped or long-gone id is not a build that changed nothing
    if (given !== undefined && !existsSync(join(layout.root, id))) throw new UsageError(`no snapshot ${id} in ${layout.root} and no list of its changes in ${layout.changes}; leave --snapshot out for the current one`);
    console.error(`changes: the build of snapshot ${id} changed no URL (or its list was pruned)`);
    return;
  }
  const text = readFileSync(file, 'utf8');
  const urls = text.split('\n').filter(Boolean);
  if (values.tags) {
    const manifest = join(layout.root, id, MANIFEST_FILE);
    const baseUrl = (existsSync(manifest) ? readManifestBaseUrl(manifest) : undefined) ?? loadConfig().publicBaseUrl;
    const tags = changedTags(urls, baseUrl);
    process.stdout.write(tags.map((t) => `${t}\n`).join(''));
    console.error(`changes: ${tags.length} tags name the ${urls.length} URLs changed in the build of snapshot ${id}`);
    return;
  }
  process.stdout.write(text);
  console.error(`changes: ${urls.length} URLs changed in the build of snapshot ${id}`);
});
