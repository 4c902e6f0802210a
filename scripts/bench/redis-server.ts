// A real Redis (Debian's redis-server, installed by scripts/ensure-redis.sh) for the shared-state
// tests and benchmarks: started as an ordinary child process on a free loopback port with its own folder, no
// persistence unless asked, stopped and started again on the same port.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function redisBinary(): string {
  for (const candidate of ['/usr/bin/redis-server', '/usr/local/bin/redis-server']) if (existsSync(candidate)) return candidate;
  throw new Error('redis-server is not installed: bash scripts/ensure-redis.sh installs it (.ci/run and npm test do)');
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    let text = '';
    socket.setTimeout(500, () => { socket.destroy(); resolve(false); });
    socket.on('error', () => resolve(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if (text.includes('\r\n')) { socket.destroy(); resolve(text.startsWith('+PONG')); }
    });
  });
}

export interface RedisProcess {
  readonly url: string;
  readonly port: number;
  /** stops the server (SIGTERM) and waits until it has exited */
  stop(): Promise<void>;
  /** starts it again on the same port */
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startRedis(options: { persist?: boolean } = {}): Promise<RedisProcess> {
  const binary = redisBinary();
  const dir = mkdtempSync(join(tmpdir(), 'vpa-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--daemonize', 'no', '--loglevel', 'warning',
    '--save', '', ...(options.persist ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'])];

  async function start(): Promise<void> {
    child = spawn(binary, args, { stdio: 'ignore' });
    for (let i = 0; i < 100; i++) {
      if (await answersPing(port)) return;
      if (child.exitCode !== null) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`redis-server did not start on port ${port}`);
  }
  async function stop(): Promise<void> {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
  }
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
