// Shared by the side-by-side serving benchmarks (bench:static, bench:cdn): options, the tools they
// need, free ports, waiting for a server, and wrk runs over a URL list (servers on core 0, wrk on
// core 1, the method docs/performance.md describes).
import { execFileSync, type ChildProcess } from 'node:child_process';
import { type Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { wholeNumber } from '../../src/cli/args.ts';
import { UsageError } from '../cli.ts';

/** The options the serving benchmarks share (src/cli/args.ts declarations). */
export const SERVING_OPTIONS = {
  videos: { type: 'string', value: 'N', help: 'videos in the seeded catalogue (default 20000)' },
  seconds: { type: 'string', value: 'S', help: 'length of each measured run (default 10)' },
  rounds: { type: 'string', value: 'R', help: 'measured rounds, each side once per round (default 2)' },
} as const;

/** A positive whole-number option's value (`--name N`), or `fallback`. */
export const positive = (name: string, text: string | undefined, fallback: number): number => wholeNumber(name, text, { min: 1, max: 100_000_000, fallback });

/** Fails with what to install when a command is missing. */
export function need(commands: readonly string[], install: string): void {
  for (const command of commands) {
    try {
      execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    } catch {
      throw new UsageError(`${command} is needed: apt-get install -y ${install}`);
    }
  }
}

export const freePort = (): Promise<number> => new Promise((done) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as { port: number };
    probe.close(() => done(port));
  });
});

/** Requests/s of wrk (-t1 -c50, on core 1) over the paths listed in `urls`; throws on any error. */
export function wrk(port: number, urls: string, seconds: number): number {
  const out = execFileSync('taskset', ['-c', '1', 'wrk', '-t1', '-c50', `-d${seconds}s`, '-s', resolve('scripts/bench/random-urls.lua'), `http://127.0.0.1:${port}`],
    { env: { ...process.env, URLS: urls }, encoding: 'utf8' });
  const match = /Requests\/sec:\s+([\d.]+)/.exec(out);
  if (!match || /Non-2xx|Socket errors/.test(out)) throw new Error(`wrk run failed or saw errors:\n${out}`);
  return Number(match[1]);
}

/** Waits until `url` answers 2xx, polling every 100 ms for at most `seconds` (a model of a million videos loads in minutes). */
export async function waitFor(url: string, seconds = 60): Promise<void> {
  const deadline = performance.now() + seconds * 1000;
  while (performance.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up in ${seconds} s`);
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
};

/** A GET on loopback through `agent`, resolving with its status once the body is drained. */
export function getStatus(agent: Agent, port: number, path: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path, headers, agent }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode ?? 0));
    });
    req.on('error', fail);
    req.end();
  });
}

/** Resolves once a spawned `scripts/start.mjs` prints that it listens; rejects if it exits first. */
export function untilListening(server: ChildProcess): Promise<void> {
  return new Promise((ready, fail) => {
    let out = '';
    server.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('listening on')) {
        server.stdout!.removeAllListeners('data');
        server.stdout!.resume();
        ready();
      }
    });
    server.once('exit', (code) => fail(new Error(`the server exited with ${code} before listening`)));
  });
}
