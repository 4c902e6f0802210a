// What the server asks of the catalogue database at request time, by name: the catalogue thread
// (catalogue-thread.ts) runs these on its own connections, off the event loop. Reads use a
// read-only connection; `add-usage` the writable one.
import { addUsage, readKeys, readUsage, type UsageRow } from '../catalogue/api-keys.ts';
import type { Catalogue } from '../catalogue/open-catalogue.ts';
import { readAlerts } from '../catalogue/read-alerts.ts';
import { readLiveStreams } from '../catalogue/read-live.ts';
import { readRevision } from '../catalogue/revision.ts';

export const OPERATIONS = {
  keys: { writes: false, run: (db: Catalogue, _: undefined) => readKeys(db) },
  live: { writes: false, run: (db: Catalogue, _: undefined) => readLiveStreams(db) },
  status: { writes: false, run: (db: Catalogue, _: undefined) => ({ alerts: readAlerts(db), revision: readRevision(db) }) },
  usage: { writes: false, run: (db: Catalogue, appId: string) => readUsage(db, appId) },
  'add-usage': { writes: true, run: (db: Catalogue, rows: readonly UsageRow[]) => addUsage(db, rows) },
} as const;

export type Operation = keyof typeof OPERATIONS;
export type ArgumentOf<O extends Operation> = Parameters<(typeof OPERATIONS)[O]['run']>[1];
export type ResultOf<O extends Operation> = ReturnType<(typeof OPERATIONS)[O]['run']>;
