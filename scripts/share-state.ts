// npm run share-state: sends the catalogue's live records, alerts and developer keys (with their
// revocations) to the shared store, for every origin (docs/reliability.md, Shared state). The
// other operator commands send what they change; this one sends everything again: after Redis was
// restarted empty, after a command could not reach it, or when origins first share a store.
import { existsSync } from 'node:fs';
import { openCatalogue } from '../src/catalogue/open-catalogue.ts';
import { loadConfig } from '../src/config.ts';
import { runCommand, UsageError } from './cli.ts';

const SHARE_COMMAND = {
  run: 'npm run share-state',
  about: "Sends the catalogue's live records, operator alerts and developer keys (hashes and apps, never the keys; revoked ones as revoked) to the Redis named by SHARED_STATE_STORE, where every origin reads them within 2 s.",
  options: {
    db: { type: 'string', value: 'PATH', help: 'the catalogue file (default CATALOGUE_DB, or data/catalogue.db)' },
  },
  notes: ['environment: SHARED_STATE_STORE (or RATE_LIMIT_STORE), a redis:// URL; CATALOGUE_DB.'],
} as const;

await runCommand('share-state', SHARE_COMMAND, async (parsed) => {
  const config = loadConfig();
  const catalogueDb = parsed.values.db || config.catalogueDb;
  if (config.sharedStore === undefined) throw new UsageError('no shared store: set SHARED_STATE_STORE=redis://host:6379 (docs/reliability.md, Shared state)');
  if (!existsSync(catalogueDb)) throw new UsageError(`no catalogue at ${catalogueDb}: run npm run seed or npm run import first`);
  // loaded only here: the other commands need no Redis client
  const { publishCatalogue, withStore } = await import('../src/shared-state/publish-catalogue.ts');
  const { describeStore } = await import('../src/shared-state/redis-connection.ts');
  const db = openCatalogue(catalogueDb);
  try {
    const sent = await withStore(config.sharedStore, 'npm run share-state', (reason) => `nothing was sent: ${reason}; run npm run share-state again once Redis answers`,
      (redis) => publishCatalogue(redis, db, ['live', 'alerts', 'keys']));
    const n = (count: number, what: string) => `${count} ${what}${count === 1 ? '' : 's'}`;
    console.log(`share-state: sent to ${describeStore(config.sharedStore)}: ${n(sent.live, 'live record')}, ${n(sent.alerts, 'alert')}, ${n(sent.keys, 'developer key')} (${sent.revoked} revoked); every origin sees them within 2 s`);
  } finally {
    db.close();
  }
});
