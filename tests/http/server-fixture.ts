// Starts the real server on a free port over a freshly built snapshot in a temporary folder, for
// HTTP tests: real SQLite catalogue, real snapshot build, real node:http + Astro.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importCatalogue } from '../../src/catalogue/import-catalogue.ts';
import { openCatalogue } from '../../src/catalogue/open-catalogue.ts';
import { seedCatalogue } from '../../src/catalogue/seed-catalogue.ts';
import { loadConfig } from '../../src/config.ts';
import { buildSnapshot } from '../../src/snapshot/build-snapshot.ts';
import { startServer, type RunningServer } from '../../src/server/start-server.ts';

export interface Fixture {
  /** e.g. http://127.0.0.1:40123 — also the PUBLIC_BASE_URL the snapshot was built for */
  readonly base: string;
  readonly dir: string;
  readonly catalogue: string;
  readonly distDir: string;
  readonly running: RunningServer;
  /** rebuilds the snapshot from the catalogue (after a test changed it) */
  rebuild(): ReturnType<typeof buildSnapshot>;
  close(): Promise<void>;
}

export type CatalogueSource = { seed: { videos: number; seed?: number } } | { ndjson: string };

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
      importCatalogue(db, source.ndjson);
    } finally {
      db.close();
    }
  }
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const rebuild = () => buildSnapshot({ catalogue, distDir, baseUrl: base });
  await rebuild();
  const config = loadConfig({ PORT: String(port), HOST: '127.0.0.1', PUBLIC_BASE_URL: base, CATALOGUE_DB: catalogue, DIST_DIR: distDir });
  const running = await startServer(config, { log: () => {} });
  return {
    base, dir, catalogue, distDir, running, rebuild,
    async close() {
      await running.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
