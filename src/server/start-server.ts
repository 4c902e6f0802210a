// Starts the API server: follows the snapshots under DIST_DIR, mounts the built Astro app, listens,
// and shuts down cleanly on SIGINT/SIGTERM (finishing requests in flight).
import type { Server } from 'node:http';
import type { AddressInfo, Server as NetServer } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Config } from '../config.ts';
import { layoutOf } from '../snapshot/layout.ts';
import { ASTRO_ENTRY, CLIENT_DIR } from './app-files.ts';
import { createFrontServer } from './fast-path.ts';
import { createApiServer, type AstroHandler } from './http-server.ts';
import { loadClientAssets } from './client-assets.ts';
import { createUrls } from '../model/urls.ts';
import { createGate } from './gate.ts';
import { createLiveSource } from './live-source.ts';
import { createPartners } from './partners.ts';
import { RateLimiter } from './rate-limit.ts';
import { createHealthMonitor } from './service-health.ts';
import { createStatusChecks } from './status-checks.ts';
import { holdSnapshots, type SnapshotHolder } from './snapshot-holder.ts';

export { ASTRO_ENTRY, CLIENT_DIR };

export interface RunningServer {
  /** the node:http pipeline, fed connections by `front` */
  readonly server: Server;
  /** the listening socket server: the static fast path, handing everything else to `server` */
  readonly front: NetServer;
  readonly snapshots: SnapshotHolder;
  readonly port: number;
  close(): Promise<void>;
}

export async function startServer(config: Config, options: { log?: (m: string) => void; astroEntry?: string; clientDir?: string } = {}): Promise<RunningServer> {
  const log = options.log ?? ((m: string) => console.log(m));
  const entry = pathToFileURL(resolve(options.astroEntry ?? ASTRO_ENTRY)).href;
  const { handler } = (await import(entry)) as { handler: AstroHandler };
  const snapshots = holdSnapshots(layoutOf(config.distDir).root, config.snapshotCacheBytes, log);
  const live = createLiveSource(config.catalogueDb, { log });
  const partners = createPartners(config.catalogueDb, { log });
  const gate = createGate({ limiter: new RateLimiter(config.rateLimits), siteOrigin: config.siteOrigin, trustProxy: config.trustProxy, partners });
  const monitor = createHealthMonitor();
  const checks = createStatusChecks({
    catalogueDb: config.catalogueDb, snapshotRoot: layoutOf(config.distDir).root, snapshots, monitor,
    catalogueErrors: () => [live.error, partners.error],
    searchLoaded: () => snapshots.current?.search !== undefined,
  });
  const assets = loadClientAssets(options.clientDir ?? CLIENT_DIR);
  const server = createApiServer({
    baseUrl: config.publicBaseUrl, snapshots, astro: handler, assets, live, gate, partners, monitor, status: checks.report, log,
    timeouts: { headMs: config.headTimeoutMs, requestMs: config.requestTimeoutMs },
  });
  server.timeout = 120_000; // handed-over connections idle this long are closed
  const front = createFrontServer({
    snapshots, http: server, gate, record: monitor.record, urls: createUrls(config.publicBaseUrl),
    connectionsPerClient: config.connectionsPerClient, headTimeoutMs: config.headTimeoutMs,
  });
  await new Promise<void>((done, fail) => {
    front.server.once('error', fail);
    front.server.listen(config.port, config.host, () => done());
  });
  const port = (front.server.address() as AddressInfo).port;
  return {
    server,
    front: front.server,
    snapshots,
    port,
    // Stops listening, closes idle connections at once and busy ones after a grace period.
    close: () => new Promise<void>((done) => {
      snapshots.close();
      live.close();
      partners.close();
      checks.close();
      monitor.close();
      const force = setTimeout(() => front.closeAll(), 1000);
      front.server.close(() => {
        clearTimeout(force);
        front.closeAll();
        server.close(() => {}); // stops node:http's deadline checks; it was never listening itself
        done();
      });
      front.closeIdle();
      server.closeIdleConnections();
    }),
  };
}
