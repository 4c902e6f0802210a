// npm run build:app, a last step: publishes the JSON Schema of import records, generated from the
// zod definitions (src/catalogue/record-schema.ts), at /schemas/catalogue-record.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildRecordJsonSchema, RECORD_SCHEMA_PATH } from '../src/catalogue/record-schema.ts';
import { CLIENT_DIR } from '../src/server/start-server.ts';
import { runCommand } from './cli.ts';

const COMMAND = {
  run: 'node scripts/build-record-schema.ts',
  about: 'Generates the JSON Schema of catalogue import records from the zod definitions (src/catalogue/records.ts) into the app\'s static files: /schemas/catalogue-record.json. A step of npm run build:app.',
  options: {},
} as const;

await runCommand('build-record-schema', COMMAND, () => {
  const file = join(CLIENT_DIR, RECORD_SCHEMA_PATH);
  mkdirSync(dirname(file), { recursive: true });
  const json = `${JSON.stringify(buildRecordJsonSchema(), null, 2)}\n`;
  writeFileSync(file, json);
  console.log(`build-record-schema: ${RECORD_SCHEMA_PATH}, ${json.length} bytes`);
});
