// `npm start` as a process manager runs it (systemd, a container's entry point): a SIGTERM sent to
// npm alone must stop the whole service, the supervisor and its serving processes, and leave the
// port free. npm passes the signal to its child, which must be node itself (package.json's start
// script `exec`s it), not a shell that dies and leaves node serving.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seedCatalogue } from '../../src/catalogue/seed-catalogue.ts';
import { freePort } from '../../scripts/bench/redis-server.ts';

const dir = mkdtempSync(join(tmpdir(), 'vpa-npm-start-'));
const marker = `VPA_NPM_START_TEST=${process.pid}`;
afterAll(() => {
  // whatever a failure left running is stopped
  for (const pid of processesOf(marker)) process.kill(pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** The processes whose environment holds `marker` (this test's own: npm and what it started). */
function processesOf(marker: string): number[] {
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(marker);
    } catch {
      return false;
    }
  });
}

describe('npm start stopped by a SIGTERM to npm', () => {
  it('stops the supervisor and every serving process, and frees the port', async () => {
    const catalogue = join(dir, 'catalogue.db');
    seedCatalogue(catalogue, { videos: 30, seed: 5 });
    const port = await freePort();
    const npm = spawn('npm', ['start'], {
      cwd: join(import.meta.dirname, '..', '..'),
      env: { ...process.env, VPA_NPM_START_TEST: String(process.pid), PORT: String(port), HOST: '127.0.0.1', PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, CATALOGUE_DB: catalogue, DIST_DIR: join(dir, 'dist') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    npm.stdout.on('data', (c: Buffer) => { output += c.toString(); });
    npm.stderr.on('data', (c: Buffer) => { output += c.toString(); });
    const end = Date.now() + 120_000;
    while (!output.includes('listening on')) {
      if (Date.now() > end || npm.exitCode !== null) throw new Error(`npm start did not listen:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await fetch(`http://127.0.0.1:${port}/v1/status`)).status).toBe(200);
    // npm, the supervisor (node scripts/start.mjs) and at least one serving process
    expect(processesOf(marker).length).toBeGreaterThanOrEqual(3);
    const exited = new Promise<void>((done) => npm.once('exit', () => done()));
    npm.kill('SIGTERM');
    await exited;
    const gone = Date.now() + 15_000;
    while (processesOf(marker).length > 0 && Date.now() < gone) await new Promise((r) => setTimeout(r, 100));
    expect(processesOf(marker)).toEqual([]);
    await expect(fetch(`http://127.0.0.1:${port}/v1/status`)).rejects.toThrow();
  }, 180_000);
});
