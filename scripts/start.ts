// npm start: the supervisor (start/supervisor.ts: seed, build and app checks, then the serving
// processes it starts and replaces at each snapshot swap: src/server/supervise-servers.ts), or, in
// a process the supervisor started, the server itself (start/serving.ts). Each loads only its own code.
import cluster from 'node:cluster';

await (cluster.isWorker ? import('./start/serving.ts') : import('./start/supervisor.ts'));
