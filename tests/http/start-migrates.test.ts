// `npm start` on a catalogue of an older schema (an operator upgrading the code): the serving
// process never writes the catalogue and refuses an outdated one (its live state, alerts and keys
// then unreadable, /v1/status "outage"), so npm start, an operator command, migrates it first
// (scripts/start/prepare.ts; docs/catalogue.md, "The change log").
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeLogTriggers } from '../../src/catalogue/change-log.ts';
import { openCatalogue } from '../../src/catalogue/open-catalogue.ts';
import { SCHEMA_VERSION } from '../../src/catalogue/schema.ts';
import { seedCatalogue } from '../../src/catalogue/seed-catalogue.ts';
import { startScript } from '../../scripts/bench/latency-probe.ts';
import { freePort } from '../../scripts/bench/redis-server.ts';

let dir: string;
let catalogue: string;
let port: number;
let server: ChildProcess;
let output = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vpa-start-migrates-'));
  catalogue = join(dir, 'catalogue.db');
  seedCatalogue(catalogue, { videos: 60, seed: 4 });
  // the file as schema 3 left it: no change log, no digests
  const db = openCatalogue(catalogue);
  for (const trigger of changeLogTriggers()) db.exec(`DROP TRIGGER IF EXISTS "${trigger}"`);
  db.exec('DROP TABLE change_log; DROP TABLE record_digests');
  db.exec("DELETE FROM meta WHERE key LIKE 'change_log%'");
  db.exec("UPDATE meta SET value = '3' WHERE key = 'schema_version'");
  db.close();
  port = await freePort();
  const start = startScript();
  server = spawn(process.execPath, start.args, {
    env: { ...process.env, ...start.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, CATALOGUE_DB: catalogue, DIST_DIR: join(dir, 'dist') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (c: Buffer) => { output += c.toString(); });
  server.stderr!.on('data', (c: Buffer) => { output += c.toString(); });
  const end = Date.now() + 120_000;
  while (!output.includes('listening on')) {
    if (Date.now() > end || server.exitCode !== null) throw new Error(`npm start did not listen:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}, 180_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    await new Promise<void>((done) => {
      server.once('exit', () => done());
      server.kill('SIGTERM');
    });
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('npm start on a catalogue of an older schema', () => {
  it('migrates it, says so, and serves with the catalogue readable', async () => {
    expect(output).toContain(`start: the catalogue has schema version 3; migrating it to ${SCHEMA_VERSION}`);
    const db = openCatalogue(catalogue, { readonly: true });
    try {
      expect(db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get()).toBe(String(SCHEMA_VERSION));
      expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'change_log_%'").pluck().get()).toBe(changeLogTriggers().length);
    } finally {
      db.close();
    }
    const status = await fetch(`http://127.0.0.1:${port}/v1/status`).then((r) => r.json()) as { data: { components: { id: string; status: string; detail: string }[] } };
    const component = status.data.components.find((c) => c.id === 'catalogue')!;
    expect(component.status, component.detail).toBe('operational');
    expect(output).not.toMatch(/older schema|schema version 3, older/);
  });
});
