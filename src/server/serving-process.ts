// A serving process of `npm start` (supervise-servers.ts): the server of start-server.ts keeping
// the snapshot it loaded first, telling its supervisor when it listens and when that load is over,
// and exiting once retired, after its connections have had what they asked (docs/reliability.md,
// "Swaps between processes").
import type { Config } from '../config.ts';
import { startServer } from './start-server.ts';
import { RETIRE_GRACE_MS, RETIRE_QUIET_MS, SERVING_ROLE, type ServingMessage, type SupervisorMessage } from './supervise-servers.ts';

export async function runServingProcess(config: Config): Promise<void> {
  const send = (message: ServingMessage) => process.send?.(message);
  // the next process listens only once its snapshot is loaded whole: until then the one before it serves
  const running = await startServer(config, { follow: false, whole: process.env[SERVING_ROLE] === 'next', collectBeforeListening: true });
  let closing = false;
  const close = () => {
    if (closing) return;
    closing = true;
    void running.close({ graceMs: RETIRE_GRACE_MS, quietMs: RETIRE_QUIET_MS }).then(() => process.exit(0));
  };
  // a supervisor of another version (the code updated under a running npm start) may say what this
  // one does not know: only the messages read here are acted on
  process.on('message', (message: Partial<SupervisorMessage> | undefined) => {
    if (message?.type === 'retire') close();
    else if (message?.type === 'told' && typeof message.told === 'object' && message.told !== null) running.snapshots.tell(message.told);
  });
  // the supervisor gone (killed): nothing would retire this process
  process.once('disconnect', close);
  process.once('SIGTERM', close);
  // Ctrl-C reaches every process of the group: the supervisor retires this one
  process.on('SIGINT', () => {});
  if (running.port !== 0) send({ type: 'listening', port: running.port });
  await running.snapshots.loaded;
  const current = running.snapshots.current;
  send({ type: 'loaded', serving: current?.complete ? current.id : undefined, problem: running.snapshots.problem });
}
