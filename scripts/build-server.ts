// npm run build:app, last step: bundles the server as `npm start` runs it into plain JavaScript
// (dist/app/start/: the supervisor, the serving process and its worker threads), so that its
// long-lived processes do not load TypeScript's type stripping (docs/architecture.md, "The server
// runs as bundled JavaScript").
import { bundleServer } from '../src/server/bundle-server.ts';
import { runCommand } from './cli.ts';

const COMMAND = {
  run: 'node scripts/build-server.ts',
  about: 'Bundles the server npm start runs (its supervisor, its serving process and their worker threads) into plain JavaScript in dist/app/start/. A step of npm run build:app.',
  options: {},
} as const;

await runCommand('build-server', COMMAND, async () => {
  for (const file of await bundleServer()) console.log(`build-server: ${file.path}: ${file.bytes} bytes`);
});
