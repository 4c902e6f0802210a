// `npm start` swaps snapshots by swapping serving processes (docs/reliability.md, "Swaps between
// processes"): the real scripts/start.mjs, its supervisor and its serving processes, on a free port.
// While `current` moves to another snapshot, a request every 20 ms is answered 200 every time by
// the old process until the new one has loaded the snapshot whole; then the old one exits. A
// damaged snapshot is refused by the process that tried it: the old one keeps serving and
// /v1/status names it, and it is tried again once its files change. A serving process that dies
// is replaced, and SIGTERM stops every process.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, realpathSync, rmSync, mkdtempSync, writeFileSync, truncateSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalogue } from '../../src/catalogue/seed-catalogue.ts';
import { buildSnapshot } from '../../src/snapshot/build-snapshot.ts';
import { MODEL_FILE } from '../../src/snapshot/layout.ts';
import { swapCurrent } from '../../src/snapshot/swap.ts';
import { SERVING_NODE_FLAGS } from '../../src/server/supervise-servers.ts';
import { startScript } from '../../scripts/bench/latency-probe.ts';
import { freePort } from '../../scripts/bench/redis-server.ts';
import { runSql } from '../unit/support/snapshots.ts';

/**
 * The worst wait allowed during a swap, as a share of the new process's own load (from its start
 * to its snapshot loaded whole, as the supervisor logs it). Loading in the process that answers,
 * the model's build and the collection of the old one stalled answers for a large part of that.
 */
const SWAP_BOUND_SHARE = 0.5;

let dir: string;
let root: string;
let port: number;
let first: string;
let second: string;
let supervisor: ChildProcess;
let output = '';

interface Answer { status: number; body: string; ms: number }

function get(path: string): Promise<Answer> {
  const at = performance.now();
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { body += c; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, ms: performance.now() - at }));
    });
    req.on('error', () => resolve({ status: 0, body: '', ms: performance.now() - at }));
    req.end();
  });
}

const served = async (): Promise<string | undefined> => {
  const health = await get('/v1/health');
  return health.status === 200 ? (JSON.parse(health.body) as { data: { snapshot: { id: string } } }).data.snapshot.id : undefined;
};

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 120_000): Promise<T> {
  const end = performance.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (performance.now() > end) throw new Error(`${what} did not happen within ${ms} ms\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The serving processes: the supervisor's children. */
function servingPids(): number[] {
  try {
    return readFileSync(`/proc/${supervisor.pid}/task/${supervisor.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A request every 20 ms, alternating a prerendered page and a dynamic query, until `stop` is called. */
function probeEvery20ms(): { stop(): Promise<Answer[]> } {
  const answers: Answer[] = [];
  const pending: Promise<void>[] = [];
  let stopped = false;
  const ticker = (async () => {
    for (let n = 0; !stopped && n < 10_000; n++) {
      pending.push(get(n % 2 === 0 ? '/v1/categories' : `/v1/videos?limit=${7 + (n % 11)}&sort=likes`).then((a) => { answers.push(a); }));
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await ticker;
      await Promise.all(pending);
      return answers;
    },
  };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vpa-processes-'));
  const catalogue = join(dir, 'catalogue.db');
  const distDir = join(dir, 'dist');
  root = join(distDir, 'snapshots');
  port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  seedCatalogue(catalogue, { videos: 3000, seed: 5 });
  first = (await buildSnapshot({ catalogue, distDir, baseUrl: base })).id;
  runSql(catalogue, "UPDATE videos SET views = views + 1 WHERE id = (SELECT id FROM videos WHERE privacy = 'public' ORDER BY id LIMIT 1)");
  second = (await buildSnapshot({ catalogue, distDir, baseUrl: base })).id;
  const start = startScript();
  supervisor = spawn(process.execPath, start.args, {
    env: { ...process.env, ...start.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_BASE_URL: base, CATALOGUE_DB: catalogue, DIST_DIR: distDir, RATE_LIMIT_PUBLIC: '10000000' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  supervisor.stdout!.on('data', (c: Buffer) => { output += c.toString(); });
  supervisor.stderr!.on('data', (c: Buffer) => { output += c.toString(); });
  await until('the start', () => (output.includes('listening on') ? true : undefined));
  await until('the first model loaded', async () => ((await get('/v1/videos?limit=2')).status === 200 ? true : undefined));
}, 600_000);

afterAll(async () => {
  if (supervisor && supervisor.exitCode === null) {
    supervisor.kill('SIGKILL');
    for (const pid of servingPids()) process.kill(pid, 'SIGKILL');
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('npm start swapping serving processes', () => {
  it('answers every request from the old process while the new one loads, then the old one exits', async () => {
    expect(await served()).toBe(second);
    const [old] = servingPids();
    expect(servingPids()).toHaveLength(1);
    const probe = probeEvery20ms();
    const logged = output.length;
    swapCurrent(root, first);
    await until('the swap', async () => ((await served()) === first ? true : undefined));
    await new Promise((r) => setTimeout(r, 300));
    const answers = await probe.stop();
    const loadMs = Number(/loaded in (\d+) ms/.exec(output.slice(logged).split('\n').find((line) => line.includes(`serves snapshot ${first}`)) ?? '')?.[1]);
    expect(loadMs).toBeGreaterThan(0);
    expect(answers.length).toBeGreaterThan(10);
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    const worst = Math.max(...answers.map((a) => a.ms));
    expect(worst, `worst ${worst.toFixed(0)} ms over ${answers.length} requests; the new process loaded in ${loadMs} ms`).toBeLessThan(SWAP_BOUND_SHARE * loadMs);
    // the old process ends once its connections are done: none is left open here
    await until('the old process exiting', () => (alive(old!) ? undefined : true), 20_000);
    expect(servingPids()).toHaveLength(1);
    expect(servingPids()[0]).not.toBe(old);
    // dynamic answers come from the new process's model
    expect((await get('/v1/videos?limit=3&sort=likes')).status).toBe(200);
  }, 300_000);

  it('ends a kept-alive connection to the old process after its answer, and answers a new one that had sent nothing yet before ending it', async () => {
    const open = async () => {
      const socket = connect(port, '127.0.0.1');
      const state = { received: '', ended: false, socket };
      socket.on('data', (c: Buffer) => { state.received += c.toString('latin1'); });
      socket.on('end', () => { state.ended = true; });
      await new Promise<void>((r) => socket.once('connect', () => r()));
      return state;
    };
    const [old] = servingPids();
    const kept = await open();
    kept.socket.write('GET /v1/categories HTTP/1.1\r\nHost: x\r\n\r\n');
    await until('the first answer', () => (kept.received.includes('\r\n\r\n') ? true : undefined), 10_000);
    // accepted by the old process, its request not sent yet: a client sends it without waiting and
    // would not send it again if the connection were ended first
    const quiet = await open();
    const to = (await served()) === first ? second : first;
    swapCurrent(root, to);
    await until('the swap', async () => ((await served()) === to ? true : undefined));
    // the retired process ended the idle connection after its answer: nothing was cut short
    await until('the kept-alive connection closing', () => (kept.ended ? true : undefined), 15_000);
    expect(kept.received.startsWith('HTTP/1.1 200')).toBe(true);
    expect(kept.received.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    // the quiet connection still open on the old process, which waits for it
    expect(quiet.ended).toBe(false);
    expect(alive(old!)).toBe(true);
    quiet.socket.write('GET /v1/categories HTTP/1.1\r\nHost: x\r\n\r\n');
    await until('the quiet connection answered and ended', () => (quiet.ended ? true : undefined), 15_000);
    expect(quiet.received.startsWith('HTTP/1.1 200')).toBe(true);
    expect(quiet.received.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    // and said that it ends the connection
    expect(quiet.received.toLowerCase()).toContain('\r\nconnection: close\r\n');
    await until('the old process exiting', () => (alive(old!) ? undefined : true), 20_000);
    kept.socket.destroy();
    quiet.socket.destroy();
  }, 300_000);

  it('never ends a kept-alive connection to the old process as a request may be sent on it: one in use across the swap is answered "Connection: close", then ended', async () => {
    // A proxy (nginx) sends each request on the connection it used last. Ended under a request, the
    // connection fails that request, and nginx takes the whole origin out of its rotation for 10 s.
    const [old] = servingPids();
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((r) => socket.once('connect', () => r()));
    let received = Buffer.alloc(0);
    let ended = false;
    socket.on('data', (c: Buffer) => { received = Buffer.concat([received, c]); });
    socket.on('end', () => { ended = true; });
    socket.on('error', () => { ended = true; });
    /** the answers whole on this connection: each head, and the bytes after its body */
    const answers = (): string[] => {
      const heads: string[] = [];
      let at = 0;
      for (;;) {
        const end = received.indexOf('\r\n\r\n', at);
        if (end < 0) return heads;
        const head = received.toString('latin1', at, end);
        const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1]);
        if (!Number.isFinite(length) || received.length < end + 4 + length) return heads;
        heads.push(head);
        at = end + 4 + length;
      }
    };
    const to = (await served()) === first ? second : first;
    swapCurrent(root, to);
    let sent = 0;
    let swappedAt: number | undefined;
    // one request at a time, the next 100 ms after each answer, until the old process ends it
    while (!ended && performance.now() - (swappedAt ?? performance.now()) < 5000) {
      socket.write('GET /v1/categories HTTP/1.1\r\nHost: x\r\n\r\n');
      sent++;
      await until('an answer on the kept-alive connection', () => (answers().length === sent || ended ? true : undefined), 15_000);
      if (ended) break;
      await new Promise((r) => setTimeout(r, 100));
      if (swappedAt === undefined && (await served()) === to) swappedAt = performance.now();
    }
    await until('the connection ending', () => (ended ? true : undefined), 15_000);
    const heads = answers();
    // every request sent was answered, 200, and only the last said the connection ends
    expect(heads).toHaveLength(sent);
    expect(heads.every((h) => h.startsWith('HTTP/1.1 200'))).toBe(true);
    expect(heads.slice(0, -1).some((h) => /\r\nconnection: close/i.test(h))).toBe(false);
    expect(heads.at(-1)).toMatch(/\r\nconnection: close/i);
    expect(sent).toBeGreaterThan(1);
    await until('the old process exiting', () => (alive(old!) ? undefined : true), 20_000);
    socket.destroy();
  }, 300_000);

  it('refuses a damaged snapshot in the process that tried it: the old one keeps serving and /v1/status names it, until it is mended', async () => {
    const serving = (await served())!;
    const other = serving === first ? second : first;
    const model = join(root, other, MODEL_FILE);
    const intact = readFileSync(model);
    truncateSync(model, Math.floor(intact.length / 2));
    swapCurrent(root, other);
    const status = await until('the refusal in /v1/status', async () => {
      const s = await get('/v1/status');
      const snapshot = (JSON.parse(s.body) as { data: { components: { id: string; status: string; detail: string }[] } }).data.components.find((c) => c.id === 'snapshot');
      return snapshot && snapshot.detail.includes(`Snapshot ${other} (current) is not served`) && !snapshot.detail.includes('being verified') ? snapshot : undefined;
    });
    expect(status.status).toBe('degraded');
    expect(status.detail).toContain(`Snapshot ${serving}:`);
    expect(await served()).toBe(serving);
    expect((await get('/v1/videos?limit=4&sort=views')).status).toBe(200);
    // the refusing process leaves; the refusal is not tried again while the files stay as they are
    await until('one serving process', () => (servingPids().length === 1 ? true : undefined), 20_000);
    await new Promise((r) => setTimeout(r, 2500));
    expect(servingPids()).toHaveLength(1);
    // mended: tried again, served
    writeFileSync(model, intact);
    await until('the mended snapshot served', async () => ((await served()) === other ? true : undefined));
    expect(basename(realpathSync(join(root, 'current')))).toBe(other);
  }, 300_000);

  it("runs each serving process with the serving processes' V8 flags, npm start's own after them (the same flag named there wins)", () => {
    // a process retired by the swap before may not be reaped yet: its command line reads empty
    const running = servingPids().map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8')).filter((line) => line !== '');
    expect(running.length).toBeGreaterThan(0);
    const own = startScript().args.filter((a) => a.startsWith('--'));
    for (const line of running) {
      const args = line.split('\0');
      const at = SERVING_NODE_FLAGS.map((flag) => args.indexOf(flag));
      expect(at.every((i) => i > 0), args.join(' ')).toBe(true);
      for (const flag of own) expect(args.indexOf(flag), args.join(' ')).toBeGreaterThan(Math.max(...at));
    }
  });

  it('replaces a serving process that dies', async () => {
    // the process retired by the last swap gone first: the one left is the one serving
    await until('one serving process', () => (servingPids().length === 1 ? true : undefined), 20_000);
    const [serving] = servingPids();
    const snapshot = await served();
    process.kill(serving!, 'SIGKILL');
    const replacement = await until('a replacement', () => servingPids().find((pid) => pid !== serving));
    expect(replacement).not.toBe(serving);
    await until('answers again', async () => ((await get('/v1/videos?limit=2')).status === 200 ? true : undefined));
    expect(await served()).toBe(snapshot);
    expect(output).toContain(`serving process ${serving} stopped (signal SIGKILL)`);
  }, 300_000);

  it('stops every process on SIGTERM', async () => {
    const pids = servingPids();
    expect(pids.length).toBeGreaterThan(0);
    const exited = new Promise<number | null>((r) => supervisor.once('exit', (code) => r(code)));
    supervisor.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const pid of pids) expect(alive(pid)).toBe(false);
    expect((await get('/v1/health')).status).toBe(0);
  }, 60_000);
});
