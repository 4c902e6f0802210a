// npm run build:app, a step: bundles the build as npm run build runs it into plain JavaScript in a
// folder of its own under dist/build-bundles/, and makes it the current one (docs/architecture.md,
// "The build runs as bundled JavaScript").
import { bundleBuild } from '../src/snapshot/bundle-build.ts';
import { runCommand } from './cli.ts';

const COMMAND = {
  run: 'node scripts/bundle-build.ts',
  about: 'Bundles npm run build (its command, the benchmarks\' timed build and their worker threads) into plain JavaScript in a folder of its own under dist/build-bundles/, recording what it was made from; npm run build runs it while the sources are those. A step of npm run build:app.',
  options: {},
} as const;

await runCommand('bundle-build', COMMAND, async () => {
  const made = await bundleBuild();
  for (const file of made.files) console.log(`bundle-build: ${file.path}: ${file.bytes} bytes`);
});
