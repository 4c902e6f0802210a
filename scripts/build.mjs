// npm run build: runs the build as npm run build:app bundled it (dist/app/build/build.mjs) when it
// was bundled from the sources as they are now, else the sources (scripts/build.ts): the same
// build, the same snapshot, without loading Node's type stripping into the process and each of its
// worker threads (docs/architecture.md, "The build runs as bundled JavaScript"). Plain JavaScript
// for that reason; the command itself, its options and --help are scripts/build.ts's.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { currentBundle } from '../src/snapshot/build-bundle.mjs';

const bundle = currentBundle(fileURLToPath(new URL('..', import.meta.url)), 'build');
await import(bundle === undefined ? new URL('./build.ts', import.meta.url).href : pathToFileURL(bundle).href);
