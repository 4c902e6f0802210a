// npm run build:app, last step: generates the published API description from the code
// (src/openapi) into the app's static files: /openapi.json and /openapi.yaml.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOpenApiDocument } from '../src/openapi/build-document.ts';
import { renderYaml } from '../src/openapi/render-yaml.ts';
import { CLIENT_DIR } from '../src/server/start-server.ts';
import { runCommand } from './cli.ts';

const COMMAND = {
  run: 'node scripts/build-openapi.ts',
  about: 'Generates the published API description from the code (src/openapi) into the app\'s static files: /openapi.json and /openapi.yaml. The last step of npm run build:app.',
  options: {},
} as const;

await runCommand('build-openapi', COMMAND, () => {
  const started = performance.now();
  const document = buildOpenApiDocument();
  const json = `${JSON.stringify(document, null, 2)}\n`;
  writeFileSync(join(CLIENT_DIR, 'openapi.json'), json);
  writeFileSync(join(CLIENT_DIR, 'openapi.yaml'), renderYaml(document));
  const operations = Object.values(document.paths).reduce((n, item) => n + Object.keys(item).length, 0);
  console.log(`build-openapi: ${Object.keys(document.paths).length} paths, ${operations} operations, ${Object.keys(document.components['schemas'] as object).length} schemas; ${json.length} bytes (${((performance.now() - started) / 1000).toFixed(1)} s)`);
});
