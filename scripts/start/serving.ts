// A serving process of npm start (scripts/start.mjs), bundled by build:app (dist/app/start/serving.mjs)
// and started by its supervisor (src/server/supervise-servers.ts): serves until it is retired.
import { loadConfig } from '../../src/config.ts';
import { runServingProcess } from '../../src/server/serving-process.ts';

const config = loadConfig();
await runServingProcess(config).catch((error: unknown) => {
  // node's "bind EADDRINUSE null:4321" names the port but not what to do
  const code = (error as NodeJS.ErrnoException).code;
  const message = code === 'EADDRINUSE' ? `port ${config.port} is in use: another process listens on it; stop it, or set PORT to a free port`
    : code === 'EACCES' ? `port ${config.port} needs privileges this process lacks; set PORT to one from 1024 up`
    : (error as Error).message;
  console.error(`start: ${message}`);
  process.exit(1);
});
