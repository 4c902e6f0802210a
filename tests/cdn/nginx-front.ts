// A real nginx (Debian's) in front of a test server: the configuration `npm run nginx-config`
// writes, over the fixture's current snapshot, started as an ordinary process with its own prefix.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { installedBrotliModule, nginxConfig, preparePrefix } from '../../src/cdn/nginx-config.ts';
import { layoutOf } from '../../src/snapshot/layout.ts';


export function nginxBinary(): string {
  for (const candidate of ['/usr/sbin/nginx', '/usr/bin/nginx']) if (existsSync(candidate)) return candidate;
  throw new Error('nginx is not installed: apt-get install nginx-light libnginx-mod-http-brotli-static (.ci/run does)');
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(`http://127.0.0.1:${port}/v1/health`);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`nginx did not start listening on ${port}`);
}

export interface NginxFront {
  readonly base: string;
  /** writes the configuration for the fixture's current snapshot again and reloads nginx */
  reload(): Promise<void>;
  close(): void;
}

export async function startNginx(distDir: string, origins: readonly string[]): Promise<NginxFront> {
  const nginx = nginxBinary();
  // Started by root (as in CI), nginx's workers run as nobody: the fixture's private temporary
  // folder must be readable to them, as a deployment's snapshot folder would be.
  chmodSync(dirname(distDir), 0o755);
  const prefix = mkdtempSync(join(tmpdir(), 'vpa-nginx-'));
  preparePrefix(prefix);
  const port = await freePort();
  const conf = join(prefix, 'nginx.conf');
  const write = () => writeFileSync(conf, nginxConfig({
    listen: port, origins, prefix, snapshotDir: realpathSync(layoutOf(distDir).current), publicBaseUrl: origins[0]!,
    brotliModule: installedBrotliModule(),
  }));
  const run = (...args: string[]) => {
    const result = spawnSync(nginx, ['-p', prefix, '-c', conf, ...args], { encoding: 'utf8' });
    if (result.status !== 0) {
      const log = existsSync(join(prefix, 'error.log')) ? readFileSync(join(prefix, 'error.log'), 'utf8').slice(-2000) : '';
      throw new Error(`nginx ${args.join(' ')} failed: ${result.stderr}${log}`);
    }
  };
  write();
  run();
  await waitForPort(port);
  return {
    base: `http://127.0.0.1:${port}`,
    async reload() {
      write();
      run('-s', 'reload');
      // the old workers finish their requests; new ones take new connections
      await new Promise((resolve) => setTimeout(resolve, 300));
    },
    close() {
      try {
        execFileSync(nginx, ['-p', prefix, '-c', conf, '-s', 'quit'], { stdio: 'ignore' });
      } catch {
        // already gone
      }
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}
