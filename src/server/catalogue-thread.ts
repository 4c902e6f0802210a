// The catalogue thread: one worker_threads worker (catalogue-worker.ts) that owns the server's
// connections to the catalogue database. The event loop only posts a named operation
// (catalogue-operations.ts) and awaits its answer, so a slow query, another process's lock or a
// write of usage never stalls an answer (docs/reliability.md, "Catalogue database and status").
// Inside the thread SQLite waits at most `busyTimeoutMs` for a lock, then the operation fails as
// `locked` and its caller tries again later; an operation that gets no answer within `timeoutMs`
// fails as `unreadable`. A thread that dies is started again at the next operation.
import { Worker } from 'node:worker_threads';
import type { CatalogueFailure } from './catalogue-connection.ts';
import type { ArgumentOf, Operation, ResultOf } from './catalogue-operations.ts';
import type { Reply, Request, WorkerSettings } from './catalogue-worker.ts';
import { workerUrl } from '../lib/worker-url.ts';

/** An operation's failure, with the kind the status endpoint names. */
export class CatalogueOperationError extends Error {
  readonly failure: CatalogueFailure;
  constructor(failure: CatalogueFailure) {
    super(failure.message);
    this.failure = failure;
  }
}

export interface CatalogueThread {
  /** the catalogue file, for messages */
  readonly path: string;
  run<O extends Operation>(operation: O, argument: ArgumentOf<O>): Promise<ResultOf<O>>;
  /** Lets operations in flight finish, then stops the thread. */
  close(): Promise<void>;
}

export interface ThreadOptions {
  readonly busyTimeoutMs?: number;
  readonly timeoutMs?: number;
}

const WORKER_URL = workerUrl('./catalogue-worker.ts', import.meta.url);

export function startCatalogueThread(path: string, options: ThreadOptions = {}): CatalogueThread {
  const settings: WorkerSettings = { path, busyTimeoutMs: options.busyTimeoutMs ?? 100 };
  const timeoutMs = options.timeoutMs ?? 5000;
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void; timer: NodeJS.Timeout }>();
  let nextId = 1;
  let worker: Worker | undefined;
  let closed = false;

  // The thread keeps the process alive only while an operation waits for its answer (a last flush
  // of usage at shutdown must land), never while it is idle.
  const settle = (id: number) => {
    const w = waiting.get(id);
    if (!w) return undefined;
    waiting.delete(id);
    clearTimeout(w.timer);
    if (waiting.size === 0) worker?.unref();
    return w;
  };

  const failAll = (message: string) => {
    for (const id of [...waiting.keys()]) settle(id)?.reject(new CatalogueOperationError({ kind: 'unreadable', message }));
  };

  function current(): Worker {
    if (worker) return worker;
    const started = new Worker(WORKER_URL, { workerData: settings });
    started.unref();
    started.on('message', (reply: Reply) => {
      const w = settle(reply.id);
      if (!w) return;
      if (reply.ok) w.resolve(reply.value);
      else w.reject(new CatalogueOperationError(reply.failure));
    });
    started.on('error', (error) => {
      if (worker === started) worker = undefined;
      failAll(`the catalogue thread failed: ${error.message}`);
    });
    started.on('exit', () => {
      if (worker === started) worker = undefined;
      failAll('the catalogue thread stopped');
    });
    return (worker = started);
  }

  return {
    path,
    run(operation, argument) {
      if (closed) return Promise.reject(new CatalogueOperationError({ kind: 'unreadable', message: 'the catalogue thread is closed' }));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          settle(id);
          reject(new CatalogueOperationError({ kind: 'unreadable', message: `${path}: no answer to ${operation} within ${timeoutMs} ms` }));
        }, timeoutMs);
        timer.unref();
        waiting.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
        const thread = current();
        thread.ref();
        thread.postMessage({ id, operation, argument } satisfies Request);
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      const running = worker;
      if (!running) return;
      const exited = new Promise<void>((done) => running.once('exit', () => done()));
      running.postMessage({ id: 0, operation: 'close' } satisfies Request);
      const force = setTimeout(() => void running.terminate(), timeoutMs);
      force.unref();
      await exited;
      clearTimeout(force);
    },
  };
}
