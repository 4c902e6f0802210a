// The catalogue thread's body (a worker_threads worker started by catalogue-thread.ts): it owns the
// server's connections to the catalogue database and runs the named operations of
// catalogue-operations.ts one at a time, so no query, lock wait or write ever runs on the event
// loop. A failure is answered with its kind (catalogue-connection.ts), never thrown away.
import { parentPort, workerData } from 'node:worker_threads';
import { failureOf, followCatalogue } from './catalogue-connection.ts';
import { OPERATIONS, type Operation } from './catalogue-operations.ts';

export interface WorkerSettings {
  readonly path: string;
  readonly busyTimeoutMs: number;
}

export type Request =
  | { readonly id: number; readonly operation: Operation; readonly argument: unknown }
  | { readonly id: number; readonly operation: 'close' };

export type Reply =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly id: number; readonly ok: false; readonly failure: ReturnType<typeof failureOf> };

const settings = workerData as WorkerSettings;
const reader = followCatalogue(settings.path, { writable: false, busyTimeoutMs: settings.busyTimeoutMs });
const writer = followCatalogue(settings.path, { writable: true, busyTimeoutMs: settings.busyTimeoutMs });

parentPort!.on('message', (request: Request) => {
  if (request.operation === 'close') {
    reader.close();
    writer.close();
    parentPort!.close();
    return;
  }
  const operation = OPERATIONS[request.operation];
  let reply: Reply;
  try {
    const run = operation.run as (db: Parameters<typeof operation.run>[0], argument: unknown) => unknown;
    const value = (operation.writes ? writer : reader).use((db) => run(db, request.argument));
    reply = { id: request.id, ok: true, value };
  } catch (error) {
    reply = { id: request.id, ok: false, failure: failureOf(error) };
  }
  parentPort!.postMessage(reply);
});
