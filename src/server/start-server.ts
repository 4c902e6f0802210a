// Starts the API server: follows the snapshots under DIST_DIR, mounts the built Astro app, listens,
// and shuts down cleanly on SIGINT/SIGTERM (finishing requests in flight).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Config } from '../config.ts';
import { layoutOf } from '../snapshot/layout.ts';
import { createApiServer, type AstroHandler } from './http-server.ts';
import { holdSnapshots, type SnapshotHolder } from './snapshot-holder.ts';

export const ASTRO_ENTRY = join('dist', 'app', 'server', 'entry.mjs');

export interface RunningServer {
  readonly server: Server;
  readonly snapshots: SnapshotHolder;
  readonly port: number;
  close(): Promise<void>;
}

export async function startServer(config: Config, options: { log?: (m: string) => void; astroEntry?: string } = {}): Promise<RunningServer> {
  const log = options.log ?? ((m: string) => console.log(m));
  const entry = pathToFileURL(resolve(options.astroEntry ?? ASTRO_ENTRY)).href;
  const { handler } = (await import(entry)) as { handler: AstroHandler };
  const snapshots = holdSnapshots(layoutOf(config.distDir).root, config.snapshotCacheBytes, log);
  const server = createApiServer({ baseUrl: config.publicBaseUrl, snapshots, astro: handler, log });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(config.port, config.host, () => done());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    snapshots,
    port,
    close: () => new Promise<void>((done) => {
      snapshots.close();
      server.close(() => done());
      server.closeIdleConnections();
    }),
  };
}
