// Starts the API server: serves the snapshots under DIST_DIR (following `current` in place, or, in
// a serving process of `npm start`, keeping the first while its supervisor swaps processes:
// supervise-servers.ts), mounts the built Astro app, listens, and closes cleanly (each connection
// after what it was asked).
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo, Server as NetServer } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Config } from '../config.ts';
import { layoutOf } from '../snapshot/layout.ts';
import { ASTRO_ENTRY, CLIENT_DIR } from '../lib/app-files.ts';
import { loadAstroModules } from './astro-modules.ts';
import { createFrontServer } from './fast-path.ts';
import { PAGE_BODY_BYTES } from './page-bodies.ts';
import { createApiServer, type AstroHandler } from './http-server.ts';
import { createQueryAnswerer, type ServerOptions } from './handle-request.ts';
import { loadClientAssets } from './client-assets.ts';
import { createUrls } from '../model/urls.ts';
import { createGate } from './gate.ts';
import { startCatalogueThread } from './catalogue-thread.ts';
import { createLiveSource } from './live-source.ts';
import { createSitePass } from './site-pass.ts';
import { createPartners } from './partners.ts';
import { RateLimiter } from './rate-limit.ts';
import { createHealthMonitor } from './service-health.ts';
import { createStatusChecks } from './status-checks.ts';
import { holdSnapshots, type SnapshotHolder } from './snapshot-holder.ts';
import { majorCollection } from './major-collection.ts';

export { ASTRO_ENTRY, CLIENT_DIR };

/** how long the start waits for the first reads of the catalogue before listening anyway */
const FIRST_READ_MS = 2000;

export interface RunningServer {
  /** the node:http pipeline, fed connections by `front` */
  readonly server: Server;
  /** the listening socket server: the static fast path, handing everything else to `server` */
  readonly front: NetServer;
  readonly snapshots: SnapshotHolder;
  readonly port: number;
  /**
   * Stops listening and closes every connection once it has answered what it read, its answers
   * from then on saying `Connection: close`; a connection with nothing to answer is closed once it
   * has been quiet `quietMs` (default 0: at once; a process handing its port over waits, so that a
   * proxy never sends a request on a connection as it is closed). Connections still open after
   * `graceMs` (default 1 s) are cut. Then writes the counts it holds and stops its threads.
   */
  close(options?: { graceMs?: number; quietMs?: number }): Promise<void>;
}

export interface StartOptions {
  readonly log?: (m: string) => void;
  readonly astroEntry?: string;
  readonly clientDir?: string;
  /** follow `current` and swap in place (the default), or keep the first snapshot (snapshot-holder.ts `follow`) */
  readonly follow?: boolean;
  /**
   * Listen only once the snapshot is loaded whole (model and search index), and only when it is
   * `current`'s (not refused): a process taking over from another (supervise-servers.ts). Without
   * it the server listens as soon as its pages are served. `port` is 0 when it did not listen.
   */
  readonly whole?: boolean;
  /**
   * With `whole`: make one V8 major collection once the snapshot is loaded, before listening
   * (major-collection.ts): the load's garbage goes while the process before this one still serves.
   */
  readonly collectBeforeListening?: boolean;
}

export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const log = options.log ?? ((m: string) => console.log(m));
  const entryFile = resolve(options.astroEntry ?? ASTRO_ENTRY);
  const { handler } = (await import(pathToFileURL(entryFile).href)) as { handler: AstroHandler };
  // the pages' modules now, not at their first request: a deploy may replace their files (astro-modules.ts)
  await loadAstroModules(entryFile);
  const snapshots = holdSnapshots(layoutOf(config.distDir).root, { cacheBytes: config.snapshotCacheBytes, baseUrl: config.publicBaseUrl, log, follow: options.follow ?? true, pagesFirst: !options.whole, fallBack: !options.whole });
  // every read and write of the catalogue runs in this thread, never on the event loop
  const catalogue = startCatalogueThread(config.catalogueDb);
  // SHARED_STATE_STORE: rate limits, live state, alerts, keys and usage shared by every origin
  // through Redis (docs/reliability.md, Shared state); its client is loaded only then
  const shared = config.sharedStore === undefined ? undefined
    : (await import('../shared-state/start-shared-state.ts')).startSharedState(config.sharedStore, config.rateLimits, { origins: config.origins, log });
  const ownLive = createLiveSource(catalogue, { log });
  const live = shared ? shared.live(ownLive) : ownLive;
  const partners = createPartners(catalogue, { log, revoked: shared?.revoked, sharedKeys: shared?.records, usageStore: shared?.usage });
  // a deployment of several servers shares SITE_PASS_SECRET; alone, a server makes its own
  const sitePass = createSitePass({ secret: config.sitePassSecret ?? randomBytes(32), secure: config.publicBaseUrl.startsWith('https:') });
  const gate = createGate({ limiter: shared?.limiter ?? new RateLimiter(config.rateLimits), siteOrigin: config.siteOrigin, trustProxy: config.trustProxy, partners, sitePass });
  const monitor = createHealthMonitor();
  const checks = createStatusChecks({
    catalogue, snapshotRoot: layoutOf(config.distDir).root, snapshots, monitor,
    catalogueFailures: () => [live.failure, partners.failure],
    ...(shared && { sharedStore: shared.component, sharedAlerts: shared.records.alerts }),
    searchLoaded: () => (snapshots.current?.complete ? snapshots.current.search !== undefined : undefined),
  });
  const assets = loadClientAssets(options.clientDir ?? CLIENT_DIR);
  const serverOptions: ServerOptions = {
    baseUrl: config.publicBaseUrl, snapshots, astro: handler, assets, live, gate, partners, monitor, status: checks.report, log,
    timeouts: { headMs: config.headTimeoutMs, requestMs: config.requestTimeoutMs },
  };
  const server = createApiServer(serverOptions);
  server.timeout = 120_000; // handed-over connections idle this long are closed
  const front = createFrontServer({
    snapshots, http: server, gate, record: monitor.record, urls: createUrls(config.publicBaseUrl), answerQuery: createQueryAnswerer(serverOptions),
    connectionsPerClient: config.connectionsPerClient, headTimeoutMs: config.headTimeoutMs,
    // page bytes kept in memory stay within SNAPSHOT_CACHE_MB (0: every page read from disk, checked)
    pageBodyBytes: Math.min(PAGE_BODY_BYTES, config.snapshotCacheBytes),
  });
  // The first snapshot is verified and loaded off the event loop (snapshot-holder.ts); the server
  // listens once its pages are served (its model follows), or once it is refused and no intact
  // one exists (then it answers 503).
  await (options.whole ? snapshots.loaded : snapshots.ready);
  const accept = !options.whole || (snapshots.current?.complete === true && snapshots.problem === undefined);
  // the load's garbage collected while no request can wait for it (the process before serves)
  if (options.collectBeforeListening === true && options.whole === true && accept) majorCollection();
  // the first reads of keys, live state and alerts, so the first requests see them (bounded: a
  // locked or missing catalogue does not hold the start up)
  await Promise.race([Promise.all([partners.ready(), live.refresh(), checks.ready()]), new Promise((r) => setTimeout(r, FIRST_READ_MS).unref())]);
  if (accept) {
    await new Promise<void>((done, fail) => {
      front.server.once('error', fail);
      front.server.listen(config.port, config.host, () => done());
    });
  }
  const port = accept ? (front.server.address() as AddressInfo).port : 0;
  return {
    server,
    front: front.server,
    snapshots,
    port,
    close: async ({ graceMs = 1000, quietMs = 0 } = {}) => {
      await new Promise<void>((done) => {
        snapshots.close();
        live.close();
        checks.close();
        monitor.close();
        // each connection is closed once it has answered what it read and been quiet `quietMs`
        // (fast-path.ts retire); its answers from now on say so
        const sweep = setInterval(() => front.retire({ quietMs }), 50);
        const force = setTimeout(() => front.closeAll(), graceMs);
        front.server.close(() => {
          clearInterval(sweep);
          clearTimeout(force);
          front.closeAll();
          server.close(() => {}); // stops node:http's deadline checks; it was never listening itself
          done();
        });
        front.retire({ quietMs });
      });
      // after the last request: every count is written before the thread stops
      await partners.close();
      await catalogue.close();
      await shared?.close();
    },
  };
}
