// The timed build the benchmarks run in a fresh process: as npm run build runs it, the bundle
// npm run build:app made when it is current (src/snapshot/build-bundle.mjs), else the sources.
import { fileURLToPath } from 'node:url';
import { currentBundle } from '../../src/snapshot/build-bundle.mjs';

export const runBuildScript = (): string =>
  currentBundle(fileURLToPath(new URL('../..', import.meta.url)), 'run-build') ?? fileURLToPath(new URL('./run-build.ts', import.meta.url));
