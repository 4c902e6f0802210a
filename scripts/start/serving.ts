// A serving process of npm start (scripts/start.mjs), bundled by build:app (dist/app/start/serving.mjs)
// and started by its supervisor (src/server/supervise-servers.ts): serves until it is retired.
import { loadConfig } from '../../src/config.ts';
import { runServingProcess } from '../../src/server/serving-process.ts';

await runServingProcess(loadConfig()).catch((error: unknown) => {
  console.error(`start: ${(error as Error).message}`);
  process.exit(1);
});
