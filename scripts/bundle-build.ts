// npm run build:app, a step: bundles the build as npm run build runs it into plain JavaScript in
// dist/app/build/ (docs/architecture.md, "The build runs as bundled JavaScript").
import { bundleBuild } from '../src/snapshot/bundle-build.ts';
import { runCommand } from './cli.ts';

const COMMAND = {
  run: 'node scripts/bundle-build.ts',
  about: 'Bundles npm run build (its command, the benchmarks\' timed build and their worker threads) into plain JavaScript in dist/app/build/, with the code id of the sources it was made from; npm run build runs it while the sources keep that id. A step of npm run build:app.',
  options: {},
} as const;

await runCommand('bundle-build', COMMAND, async () => {
  for (const file of await bundleBuild()) console.log(`bundle-build: ${file.path}: ${file.bytes} bytes`);
});
