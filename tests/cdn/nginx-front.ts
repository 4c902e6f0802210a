// A real nginx (Debian's) in front of a test server: the configuration `npm run nginx-config`
// writes, over the fixture's current snapshot, started as an ordinary process with its own prefix.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
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

/** How long nginx gets to finish its requests and exit after `quit`, then after a fast stop, before it is killed. */
const QUIT_MS = 5_000;
const STOP_MS = 2_000;

/** Whether a process still runs: a zombie (an exited daemon not yet reaped by init) does not. */
function running(pid: number): boolean {
  try {
    // the state follows the command name, which is in parentheses and may hold spaces
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** The processes whose parent is `pid` (nginx's workers, cache loader and manager). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) children.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

const signal = (pids: readonly number[], name: NodeJS.Signals) => {
  for (const pid of pids) {
    try {
      process.kill(pid, name);
    } catch {
      // gone meanwhile
    }
  }
};

/** Waits up to `ms` for every one of `pids` to end; whether they did. */
async function ended(pids: readonly number[], ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (pids.some(running)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/**
 * Stops the nginx whose master is `master` and waits until it and its children are gone: a graceful
 * quit, then a fast stop, then SIGKILL, each bounded. Its prefix can only be removed after that:
 * an nginx still exiting writes its log and removes its pid file there, leaving the folder behind.
 */
async function stopNginx(master: number): Promise<void> {
  const all = [master, ...childrenOf(master)];
  signal([master], 'SIGQUIT');
  if (await ended(all, QUIT_MS)) return;
  signal([master], 'SIGTERM');
  if (await ended(all, STOP_MS)) return;
  signal(all, 'SIGKILL');
  await ended(all, STOP_MS);
}

export interface NginxFront {
  readonly base: string;
  /** nginx's own folder (-p): configuration, pid file, logs, temporary files */
  readonly prefix: string;
  /** writes the configuration for the fixture's current snapshot again and reloads nginx */
  reload(): Promise<void>;
  /** stops nginx, waiting (bounded) until its processes are gone, then removes its prefix */
  close(): Promise<void>;
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
    prefix,
    async reload() {
      write();
      run('-s', 'reload');
      // the old workers finish their requests; new ones take new connections
      await new Promise((resolve) => setTimeout(resolve, 300));
    },
    async close() {
      const pidFile = join(prefix, 'nginx.pid');
      const master = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim()) : Number.NaN;
      if (Number.isInteger(master) && master > 1) await stopNginx(master);
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}
