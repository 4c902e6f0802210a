// Starts the real server on a free port over a freshly built snapshot in a temporary folder, for
// HTTP tests: real SQLite catalogue, real snapshot build, real node:http + Astro. Extra environment
// variables (rate limits, TRUST_PROXY…) go through loadConfig like the real server's.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importCatalogue } from '../../src/catalogue/import-catalogue.ts';
import { openCatalogue } from '../../src/catalogue/open-catalogue.ts';
import { seedCatalogue } from '../../src/catalogue/seed-catalogue.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { buildSnapshot } from '../../src/snapshot/build-snapshot.ts';
import { startServer, type RunningServer } from '../../src/server/start-server.ts';

export interface Fixture {
  /** e.g. http://127.0.0.1:40123 — also the PUBLIC_BASE_URL the snapshot was built for */
  readonly base: string;
  readonly dir: string;
  readonly catalogue: string;
  readonly distDir: string;
  /** the configuration the server was started with */
  readonly config: Config;
  /** the server now running (a new one after restart()) */
  readonly running: RunningServer;
  /** rebuilds the snapshot from the catalogue (after a test changed it) */
  rebuild(): ReturnType<typeof buildSnapshot>;
  /** closes the server and starts another; `whole: false` returns once it serves its pages, before its model is loaded */
  restart(options?: { whole?: boolean }): Promise<RunningServer>;
  close(): Promise<void>;
}

/** Where the catalogue comes from, and environment variables for loadConfig beyond the fixture's own. */
export type CatalogueSource = ({ seed: { videos: number; seed?: number } } | { ndjson: string }) & {
  readonly env?: Readonly<Record<string, string>>;
  /** builds also write the pages as static files (for nginx) */
  readonly staticFiles?: boolean;
};

/**
 * Rate-limit budgets for suites that are not about rate limits: a contract suite makes far more
 * than 600 requests a minute from one address. A test about the lanes sets its own in `env`.
 */
const AMPLE_RATE_LIMITS: Readonly<Record<string, string>> = { RATE_LIMIT_PUBLIC: '10000000', RATE_LIMIT_SITE: '10000000', RATE_LIMIT_KEY: '10000000' };

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export async function startFixture(source: CatalogueSource): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), 'vpa-http-'));
  const catalogue = join(dir, 'catalogue.db');
  const distDir = join(dir, 'dist');
  if ('seed' in source) {
    seedCatalogue(catalogue, { videos: source.seed.videos, seed: source.seed.seed ?? 42 });
  } else {
    const db = openCatalogue(catalogue);
    try {
      await importCatalogue(db, source.ndjson);
    } finally {
      db.close();
    }
  }
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let running: RunningServer | undefined;
  // The server verifies and loads a new snapshot off the event loop: a rebuild returns once it serves it.
  const rebuild = async () => {
    const summary = await buildSnapshot({ catalogue, distDir, baseUrl: base, staticFiles: source.staticFiles ?? false });
    await running?.snapshots.refresh();
    return summary;
  };
  await rebuild();
  const config = loadConfig({ ...AMPLE_RATE_LIMITS, ...source.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_BASE_URL: base, CATALOGUE_DB: catalogue, DIST_DIR: distDir });
  /** Starts the server and (unless told not to) waits until its snapshot is loaded whole: it listens once the pages are served. */
  const start = async (whole = true) => {
    const started = await startServer(config, { log: () => {} });
    if (whole) await started.snapshots.loaded;
    return started;
  };
  running = await start();
  return {
    base, dir, catalogue, distDir, config, rebuild,
    get running() {
      return running!;
    },
    async restart(options: { whole?: boolean } = {}) {
      await running!.close();
      // lets keep-alive clients in this process see their connections closed, so that none reuses one
      await new Promise((resolve) => setTimeout(resolve, 50));
      running = await start(options.whole ?? true);
      return running;
    },
    async close() {
      await running!.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
