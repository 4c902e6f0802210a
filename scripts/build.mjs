// npm run build: runs the build as npm run build:app bundled it (dist/build-bundles/) when it was
// bundled from the sources as they are now, else the sources (scripts/build.ts): the same build,
// the same snapshot, without loading Node's type stripping into the process and each of its worker
// threads (docs/architecture.md, "The build runs as bundled JavaScript"). Plain JavaScript for that
// reason; the command itself, its options and --help are scripts/build.ts's.
import { utimesSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleChoice } from '../src/snapshot/build-bundle.mjs';

const sources = new URL('./build.ts', import.meta.url).href;
const choice = bundleChoice(fileURLToPath(new URL('..', import.meta.url)), 'build');
if ('reason' in choice) {
  console.error(`build: running from the TypeScript sources, about 0.4 s slower than the bundle: ${choice.reason}`);
  await import(sources);
} else {
  const bundle = choice.file;
  // in use: an older bundle is removed only once unused for a day (bundle-build.ts)
  try {
    const now = new Date();
    utimesSync(dirname(bundle), now, now);
  } catch { /* the bundle runs all the same */ }
  try {
    await import(pathToFileURL(bundle).href);
  } catch (error) {
    // the bundle could not be loaded (a package it imports not found from where it lies, say):
    // nothing of the build has run (its failures are its own to report), and the sources build alike
    if (/** @type {{ code?: unknown }} */ (error)?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    console.error(`build: the bundled build could not be loaded (${String(/** @type {Error} */ (error).message).split('\n')[0]}): running it from its sources`);
    await import(sources);
  }
}
