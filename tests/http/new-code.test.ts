// New code deployed under a running server: `npm run build:app` replaces the Astro bundle's files
// (its page modules' names change with their contents), and the running process must keep
// answering every page with its own code until a process of the new code replaces it
// (src/server/astro-modules.ts; docs/reliability.md, "New code under a running server").
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { seedCatalogue } from '../../src/catalogue/seed-catalogue.ts';
import { openCatalogue } from '../../src/catalogue/open-catalogue.ts';
import { buildSnapshot } from '../../src/snapshot/build-snapshot.ts';
import { ASTRO_ENTRY, startServer, type RunningServer } from '../../src/server/start-server.ts';
import { freePort } from '../../scripts/bench/redis-server.ts';

let dir: string;
let copy: string;
let bundle: string;
let base: string;
let server: RunningServer;
let video: { id: string; channel: string };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vpa-new-code-'));
  const catalogue = join(dir, 'catalogue.db');
  seedCatalogue(catalogue, { videos: 40, seed: 8 });
  const db = openCatalogue(catalogue, { readonly: true });
  video = db.prepare("SELECT id, channel FROM videos WHERE privacy = 'public' LIMIT 1").get() as { id: string; channel: string };
  db.close();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const distDir = join(dir, 'dist');
  await buildSnapshot({ catalogue, distDir, baseUrl: base });
  // a copy of the Astro bundle beside the real one (its packages resolve from the project's
  // node_modules; the adapter finds itself by the folder's name, "server")
  copy = mkdtempSync(join(dirname(dirname(ASTRO_ENTRY)), 'copy-'));
  bundle = join(copy, 'server');
  cpSync(dirname(ASTRO_ENTRY), bundle, { recursive: true });
  const config = loadConfig({ PORT: String(port), HOST: '127.0.0.1', PUBLIC_BASE_URL: base, CATALOGUE_DB: catalogue, DIST_DIR: distDir });
  server = await startServer(config, { log: () => {}, astroEntry: join(bundle, 'entry.mjs') });
  await server.snapshots.loaded;
}, 120_000);

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe('a deploy of new code under a running server', () => {
  it('answers every page, none asked before, after the bundle it started from is gone', async () => {
    // what build:app does to the running process's files: the chunks it would import are gone
    rmSync(join(bundle, 'chunks'), { recursive: true, force: true });
    const pages = ['/', `/watch/${encodeURIComponent(video.id)}`, `/embed/${encodeURIComponent(video.id)}`, `/channels/${encodeURIComponent(video.channel)}`,
      `/channels/${encodeURIComponent(video.channel)}/live`, '/search?q=a', '/docs', '/no/such/page'];
    for (const path of pages) {
      const res = await fetch(base + path, { headers: { accept: 'text/html' } });
      const body = await res.text();
      expect({ path, status: res.status }).toEqual({ path, status: path === '/no/such/page' ? 404 : 200 });
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(body).toContain('</html>');
    }
  });
});
