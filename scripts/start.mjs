// npm start (README, "Operator commands"). Plain JavaScript on purpose: this process lives as long as
// the server, and a process that loads one TypeScript file keeps Node's type stripping in memory for
// good (~18 MB). So it prepares in a child process (start/prepare.ts: --help, the demo seed, a
// snapshot build, the app and the server's bundles), which tells it what to serve, then runs the
// supervisor as build:app bundled it (start/supervisor.ts; docs/architecture.md, "The server runs as
// bundled JavaScript").
import { fork } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const prepare = fork(new URL('./start/prepare.ts', import.meta.url), process.argv.slice(2));
/** @type {import('./start/supervisor.ts').Prepared | undefined} */
let prepared;
prepare.on('message', (message) => { prepared = /** @type {import('./start/supervisor.ts').Prepared} */ (message); });
// a signal sent to npm start stops the preparation (a build under way) as it would have stopped it
/** @param {NodeJS.Signals} signal */
const forward = (signal) => { prepare.kill(signal); };
process.on('SIGINT', forward);
process.on('SIGTERM', forward);
/** @type {[number | null, NodeJS.Signals | null]} */
const [code, signal] = await new Promise((done) => prepare.once('exit', (...ended) => done(ended)));
process.off('SIGINT', forward);
process.off('SIGTERM', forward);
if (signal !== null) process.kill(process.pid, signal);
else if (prepared === undefined) process.exitCode = code ?? 1; // --help, or a failure prepare.ts has named
else await (await import(pathToFileURL(resolve(prepared.supervisor)).href)).runSupervisor(prepared);
