// npm run build:app, second step: bundles the browser SDK into the app's static files
// (dist/app/client/sdk.js and sdk.mjs), served at /sdk.js and /sdk.mjs.
import { bundleSdk } from '../src/sdk/bundle-sdk.ts';
import { CLIENT_DIR } from '../src/server/start-server.ts';
import { runCli } from './cli.ts';

await runCli('build-sdk', async () => {
  for (const file of await bundleSdk(CLIENT_DIR)) {
    console.log(`build-sdk: ${file.path}: ${file.bytes} bytes, ${file.gzipBytes} gzipped`);
  }
});
