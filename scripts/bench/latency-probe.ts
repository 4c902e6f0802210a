// What a running server's clients see while something happens to it (a swap, a rebuild), for
// bench:swap and bench:rebuild: a request every 50 ms from the moment it starts, each timed, and
// the process tree's RSS from /proc. Loopback only.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { request } from 'node:http';
import type { Readable } from 'node:stream';

export const EVERY_MS = 50;

export interface Sample { at: number; ms: number; status: number; path: string }

export function get(port: number, path: string, timeoutMs = 30_000): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false, timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { body += c; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', () => resolve({ status: 0, body: '' }));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve({ status: 0, body: '' }));
    req.end();
  });
}

/** A process and its descendants (npm → sh → node → the serving processes of npm start), from /proc. */
export function processTree(pid: number): number[] {
  const pids: number[] = [];
  const walk = (p: number) => {
    try {
      const children = readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
      pids.push(p);
      for (const child of children) walk(Number(child));
    } catch { /* gone */ }
  };
  walk(pid);
  return pids;
}

/** VmRSS and VmHWM (peak) of a process and its descendants, in MB: each process's own, summed. */
export function memoryOfTree(pid: number): { now: number; peak: number } {
  let now = 0;
  let peak = 0;
  for (const p of processTree(pid)) {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      now += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
      peak += Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    } catch { /* gone */ }
  }
  return { now, peak };
}

/**
 * The proportional set size of a process and its descendants, in MB: RSS counts the pages they
 * share (the node binary's, ~34 MB) once per process, this once in all. Read once, not while
 * timing: the kernel walks the process's page tables for it, holding its memory map's lock, which
 * delays the process's own page faults (read in a loop during a swap it raised the p99 of the
 * requests from ~20 to ~65 ms).
 */
export function proportionalSetOfTree(pid: number): number {
  let pss = 0;
  for (const p of processTree(pid)) {
    try {
      pss += Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${p}/smaps_rollup`, 'utf8'))?.[1] ?? 0) / 1024;
    } catch { /* gone */ }
  }
  return pss;
}

/** RSS of a process and its descendants, in MB. */
export const rssOf = (pid: number): number => memoryOfTree(pid).now;

export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
};

export interface Probe {
  /** every answered request so far (clear it to start a new window) */
  readonly samples: Sample[];
  stop(): Promise<void>;
}

/** Sends GET `pathFor(n)` every 50 ms (the n-th request), each timed, until stopped. */
export function startProbe(port: number, pathFor: (n: number) => string): Probe {
  const samples: Sample[] = [];
  let n = 0;
  let stopped = false;
  const ticker = (async () => {
    while (!stopped) {
      const at = performance.now();
      const path = pathFor(n++);
      void get(port, path).then(({ status }) => samples.push({ at, ms: performance.now() - at, status, path }));
      await new Promise((r) => setTimeout(r, Math.max(0, EVERY_MS - (performance.now() - at))));
    }
  })();
  return {
    samples,
    async stop() {
      stopped = true;
      await ticker;
    },
  };
}

/** The requests sent since `from` (performance.now()): worst, p99 and p50 latency and failures. */
export function summarise(samples: readonly Sample[], from: number): { count: number; worst: number; p99: number; p50: number; failures: number; byStatus: string } {
  const during = samples.filter((s) => s.at >= from);
  const times = during.map((s) => s.ms);
  const failed = during.filter((s) => s.status !== 200);
  /** "3 × 503, 1 × no answer": the failures by what was answered */
  const byStatus = [...new Set(failed.map((s) => s.status))].map((status) => `${failed.filter((s) => s.status === status).length} × ${status === 0 ? 'no answer' : status}`).join(', ');
  return { count: during.length, worst: times.length === 0 ? 0 : Math.max(...times), p99: percentile(times, 0.99), p50: percentile(times, 0.5), failures: failed.length, byStatus };
}

/**
 * package.json's `start` script as a command to spawn: the environment it sets (leading `NAME=value`
 * words) and the arguments after `node` (its node flags and the script), read from package.json
 * itself: a benchmark runs the server exactly as `npm start` does, the flags declared once there.
 */
export function startScript(): { env: Record<string, string>; args: string[] } {
  const packageJson = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as { scripts?: Record<string, string> };
  const script = packageJson.scripts?.['start'] ?? '';
  const words = script.trim().split(/\s+/);
  const env: Record<string, string> = {};
  for (let word = words[0]; word !== undefined && /^[A-Za-z_][A-Za-z0-9_]*=\S*$/.test(word); word = words[0]) {
    const at = word.indexOf('=');
    env[word.slice(0, at)] = word.slice(at + 1);
    words.shift();
  }
  // `exec`: the shell npm runs the script in is replaced by node, so a signal npm passes on reaches it
  if (words[0] === 'exec') words.shift();
  const [command, ...args] = words;
  if (command !== 'node' || args.length === 0) throw new Error(`package.json's start script is not "[NAME=value ...] [exec] node [flags] script": ${script || '(none)'}`);
  return { env, args };
}

/**
 * The real server (`npm start`'s script, with its environment and flags: startScript) in its own process, its output collected. The probe sends
 * 20 requests a second from one address, above the default public budget, so the budget is raised:
 * a 429 would count as a failure and say nothing about the swap.
 */
export function spawnServer(env: NodeJS.ProcessEnv): { server: ChildProcessByStdio<null, Readable, Readable>; log: () => string; clearLog: () => void } {
  const start = startScript();
  const server = spawn(process.execPath, start.args, { env: { ...env, ...start.env, RATE_LIMIT_PUBLIC: '10000000' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  server.stdout.on('data', (c: Buffer) => { log += c.toString(); });
  server.stderr.on('data', (c: Buffer) => { log += c.toString(); });
  return { server, log: () => log, clearLog: () => { log = ''; } };
}
