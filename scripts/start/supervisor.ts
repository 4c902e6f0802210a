// npm start's supervisor, bundled by build:app (dist/app/start/supervisor.mjs) and run by
// scripts/start.mjs once start/prepare.ts has said what to serve: it serves from a process of its
// own, replaced by another at each snapshot swap (src/server/supervise-servers.ts). It loads only
// that module, so this process stays small beside the one serving.
import { superviseServers } from '../../src/server/supervise-servers.ts';

/** What start/prepare.ts tells the launcher once the catalogue, the snapshot and the app are ready. */
export interface Prepared {
  /** the snapshots' folder (layout.ts root) */
  readonly root: string;
  readonly publicBaseUrl: string;
  readonly sitePassSecret: string | undefined;
  /** the bundles of this module and of the serving process (app-files.ts) */
  readonly supervisor: string;
  readonly serving: string;
}

export async function runSupervisor(prepared: Prepared): Promise<void> {
  const supervisor = superviseServers({ root: prepared.root, log: (m) => console.log(m), sitePassSecret: prepared.sitePassSecret, serving: prepared.serving });
  const stop = () => {
    console.log('start: shutting down');
    void supervisor.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const port = await supervisor.listening;
    console.log(`start: listening on port ${port}, serving ${prepared.publicBaseUrl}`);
  } catch (error) {
    console.error(`start: ${(error as Error).message}`);
    process.exit(1);
  }
}
