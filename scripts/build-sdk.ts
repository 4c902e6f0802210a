// npm run build:app, second step: bundles the browser SDK into the app's static files
// (dist/app/client/sdk.js and sdk.mjs, served at /sdk.js and /sdk.mjs) and writes its
// TypeScript declarations beside them (/sdk.d.ts).
import { join } from 'node:path';
import { bundleSdk } from '../src/sdk/bundle-sdk.ts';
import { writeSdkTypes } from '../src/sdk/bundle-sdk-types.ts';
import { CLIENT_DIR } from '../src/server/start-server.ts';
import { runCommand } from './cli.ts';

const COMMAND = {
  run: 'node scripts/build-sdk.ts',
  about: 'Bundles the browser SDK into the app\'s static files (sdk.js and sdk.mjs, served at /sdk.js and /sdk.mjs) and writes its declarations (/sdk.d.ts). A step of npm run build:app.',
  options: {},
} as const;

await runCommand('build-sdk', COMMAND, async () => {
  for (const file of await bundleSdk(CLIENT_DIR)) {
    console.log(`build-sdk: ${file.path}: ${file.bytes} bytes, ${file.gzipBytes} gzipped`);
  }
  const types = join(CLIENT_DIR, 'sdk.d.ts');
  console.log(`build-sdk: ${types}: ${writeSdkTypes(types)} bytes`);
});
