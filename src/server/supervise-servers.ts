// `npm start` serves from a process of its own, and swaps snapshots by swapping processes
// (docs/reliability.md, "Swaps between processes"). This process, the supervisor, holds the
// listening socket (node:cluster, each serving process accepting from it itself) and follows
// `current`: when it names another snapshot, a new serving process loads it whole (verified, its
// model and search index) while the old one keeps answering; once loaded it starts accepting, and
// the old one stops accepting, ends each connection once it has answered what it read, and exits.
// The old model is never collected in a heap that is answering requests: the process ends instead.
// A snapshot the new process refuses (or that it fails to load) is told to the old one, which keeps
// serving and names it in /v1/status; it is tried again when its files change (snapshot-holder.ts
// snapshot-signature.ts). A serving process that stops unexpectedly is replaced.
import cluster, { type Worker } from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { currentSnapshotId } from '../snapshot/swap.ts';
import type { SnapshotProblem, Told } from './snapshot-holder.ts';
import { signatureOf } from './snapshot-signature.ts';

/** What a serving process tells its supervisor. */
export type ServingMessage =
  | { readonly type: 'listening'; readonly port: number }
  /** its first load is over: the snapshot it serves whole (if any), and why `current` is not it */
  | { readonly type: 'loaded'; readonly serving: string | undefined; readonly problem: SnapshotProblem | undefined };

/** What a supervisor tells a serving process. */
export type SupervisorMessage =
  | { readonly type: 'retire' }
  /** what is known of `current` when it is not the snapshot served (snapshot-holder.ts `tell`) */
  | { readonly type: 'told'; readonly told: Told };

/**
 * The environment variable that tells a serving process its role: the first listens as soon as its
 * pages are served (start-up); the next listens only once its snapshot is loaded whole.
 */
export const SERVING_ROLE = 'VPA_SERVING_ROLE';
export type ServingRole = 'first' | 'next';

export interface SuperviseOptions {
  /** the snapshots' folder (layout.ts root) */
  readonly root: string;
  readonly log: (message: string) => void;
  /** the server's SITE_PASS_SECRET, when set: otherwise one is made here, shared by every serving process */
  readonly sitePassSecret: string | undefined;
  /** the module each serving process runs (app-files.ts SERVING_BUNDLE) */
  readonly serving: string;
  /** how often `current` is looked at besides watching it (ms) */
  readonly pollMs?: number;
}

export interface Supervisor {
  /** the port listened on, once the first serving process listens */
  readonly listening: Promise<number>;
  /** the process ids serving now (the one accepting, then any loading or retiring) */
  pids(): number[];
  /** retires every serving process and waits for them to exit (SIGKILL after `graceMs` and 5 s more) */
  stop(): Promise<void>;
}

/** How long a retiring process may take to finish what its connections asked before they are cut. */
export const RETIRE_GRACE_MS = 10_000;
/**
 * How long a retiring process's kept-alive connection must have been quiet before it is ended.
 * A proxy (nginx) takes the connection it used last first, so one quiet this long is not about to
 * be sent on; ending a busy one as the proxy sends on it fails that request there, and nginx takes
 * the whole origin out of its rotation for 10 s (docs/reliability.md, "Swaps between processes").
 */
export const RETIRE_QUIET_MS = 1000;
/** A serving process that stops sooner than this after its start is replaced only after a pause. */
const CRASH_PAUSE_MS = 1000;
/**
 * V8 flags of a serving process, before the supervisor's own (package.json's start script, an
 * operator's), which win where they name the same flag. `--heap-growing-percent=50`: after each
 * major collection the old generation may grow by half its live size before the next, whatever V8
 * measured of the allocation rate. By itself V8 sets that room from the rate: after a quiet while
 * (or its memory reducer's collections when idle) it left 1.1–1.2 times the live size, less than
 * the room at which it starts marking, so the first burst after a pause met a major collection at
 * once, and then another each second (docs/architecture.md, "The serving process's old
 * generation").
 */
export const SERVING_NODE_FLAGS: readonly string[] = ['--heap-growing-percent=50'];

interface Serving {
  readonly worker: Worker;
  readonly started: number;
  /** the snapshot it serves whole, once loaded */
  serving: string | undefined;
  loaded: boolean;
  retiring: boolean;
}

export function superviseServers(options: SuperviseOptions): Supervisor {
  const { root, log } = options;
  // every serving process checks the passes the others issued
  const sitePassSecret = options.sitePassSecret ?? randomBytes(32).toString('base64');
  cluster.schedulingPolicy = cluster.SCHED_NONE; // each serving process accepts connections itself
  cluster.setupPrimary({ exec: options.serving, execArgv: [...SERVING_NODE_FLAGS, ...process.execArgv] });
  const all = new Set<Serving>();
  let active: Serving | undefined;
  let next: { readonly process: Serving; readonly target: string; readonly signature: string } | undefined;
  /** snapshots refused, with the signature of their files then */
  const refused = new Map<string, string>();
  let toldActive: Told | undefined;
  let stopping = false;
  let listened: (port: number) => void = () => {};
  let failed: (error: Error) => void = () => {};
  const listening = new Promise<number>((resolve, reject) => { listened = resolve; failed = reject; });
  let everListened = false;

  const tell = (to: Serving, message: SupervisorMessage) => {
    if (to.worker.isConnected()) to.worker.send(message);
  };
  const tellActive = (told: Told | undefined) => {
    toldActive = told;
    if (active) tell(active, { type: 'told', told: told ?? {} });
  };
  const retire = (s: Serving) => {
    if (s.retiring) return;
    s.retiring = true;
    tell(s, { type: 'retire' });
  };

  const start = (role: ServingRole): Serving => {
    const worker = cluster.fork({ [SERVING_ROLE]: role, SITE_PASS_SECRET: sitePassSecret });
    const s: Serving = { worker, started: performance.now(), serving: undefined, loaded: false, retiring: false };
    all.add(s);
    worker.on('message', (message: ServingMessage) => onMessage(s, message));
    worker.on('exit', (code, signal) => onExit(s, code, signal));
    return s;
  };

  const onMessage = (s: Serving, message: Partial<ServingMessage> | undefined) => {
    if (message?.type === 'listening' && typeof message.port === 'number') {
      if (!everListened) {
        everListened = true;
        listened(message.port);
      }
      return;
    }
    if (message?.type !== 'loaded') return;
    s.loaded = true;
    s.serving = message.serving;
    if (s === active) {
      if (message.problem) refused.set(message.problem.id, signatureOf(join(root, message.problem.id)));
      check();
      return;
    }
    if (next?.process !== s) return;
    const { target, signature } = next;
    next = undefined;
    if (message.serving === target && !stopping) {
      // it accepts connections already (it listened once loaded): the old one stops and ends
      const old = active;
      active = s;
      toldActive = undefined;
      log(`start: process ${s.worker.process.pid} serves snapshot ${target} (loaded in ${Math.round(performance.now() - s.started)} ms)${old ? `; process ${old.worker.process.pid} finishes its connections and exits` : ''}`);
      if (old) retire(old);
      check();
      return;
    }
    // the new process refused `current` (it does not fall back): the old one keeps serving
    refused.set(target, signature);
    const problem = message.problem?.id === target ? message.problem : { id: target, reason: 'it could not be loaded' };
    log(`start: snapshot ${target} refused (${problem.reason}); process ${active?.worker.process.pid ?? '-'} keeps serving ${active?.serving ?? 'nothing'}`);
    retire(s);
    tellActive({ problem });
  };

  const onExit = (s: Serving, code: number | null, signal: string | null) => {
    all.delete(s);
    if (stopping || s.retiring) return;
    const how = signal ? `signal ${signal}` : `exit code ${code}`;
    if (!everListened && s === active) {
      // the start failed (the process said why): nothing is left to supervise
      stopping = true;
      watcher?.close();
      clearInterval(poll);
      failed(new Error(`the serving process stopped (${how}) before listening`));
      return;
    }
    if (next?.process === s) {
      const { target, signature } = next;
      next = undefined;
      refused.set(target, signature);
      log(`start: the process loading snapshot ${target} stopped (${how}); process ${active?.worker.process.pid ?? '-'} keeps serving`);
      tellActive({ problem: { id: target, reason: `its serving process stopped (${how}) while loading it` } });
      return;
    }
    if (s !== active) return;
    // the serving process stopped: a new first one takes its place, serving the pages at once
    active = undefined;
    log(`start: serving process ${s.worker.process.pid} stopped (${how}); starting another`);
    const pause = performance.now() - s.started < CRASH_PAUSE_MS ? CRASH_PAUSE_MS : 0;
    setTimeout(() => {
      if (stopping || active) return;
      if (next) {
        // a process loading a snapshot would listen only once loaded: it is stopped instead
        retire(next.process);
        next = undefined;
      }
      active = start('first');
    }, pause).unref();
  };

  /** Starts a process for `current` when it names a snapshot that is neither served nor refused as it is. */
  function check(): void {
    if (stopping || !active?.loaded) return;
    const id = currentSnapshotId(root);
    if (id === undefined) return;
    if (id === active.serving) {
      if (toldActive) tellActive(undefined);
      if (next) {
        retire(next.process);
        next = undefined;
      }
      return;
    }
    if (next?.target === id) return;
    const signature = signatureOf(join(root, id));
    if (refused.get(id) === signature) return;
    if (next) retire(next.process);
    next = { process: start('next'), target: id, signature };
    log(`start: process ${next.process.worker.process.pid} loads snapshot ${id}; process ${active.worker.process.pid} serves ${active.serving ?? 'nothing'} until then`);
    tellActive({ loading: id });
  }

  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(root, () => check());
  } catch {
    watcher = undefined;
  }
  const poll = setInterval(check, options.pollMs ?? 1000);
  active = start('first');

  return {
    listening,
    pids: () => [...all].map((s) => s.worker.process.pid!).filter((pid) => pid !== undefined),
    async stop() {
      stopping = true;
      watcher?.close();
      clearInterval(poll);
      const exits = [...all].map((s) => new Promise<void>((done) => {
        if (s.worker.isDead()) return done();
        s.worker.once('exit', () => done());
        retire(s);
      }));
      const kill = setTimeout(() => { for (const s of all) s.worker.process.kill('SIGKILL'); }, RETIRE_GRACE_MS + 5000);
      await Promise.all(exits);
      clearTimeout(kill);
    },
  };
}
