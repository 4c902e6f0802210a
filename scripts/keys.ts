// npm run keys -- create "App name" | list | revoke APP_ID|KEY_PREFIX: developer keys for /v1/partner.
// A new key is printed once; the catalogue keeps only its hash. With SHARED_STATE_STORE (or
// RATE_LIMIT_STORE), a new key and a revocation also go to Redis, where origins on other machines
// read them (src/shared-state/), and list shows the usage counted there.
import { existsSync } from 'node:fs';
import { createApp, listApps, readKeys, revokedHashes, revokeKeys } from '../src/catalogue/api-keys.ts';
import { openCatalogue } from '../src/catalogue/open-catalogue.ts';
import { loadConfig } from '../src/config.ts';
import { runCommand, UsageError } from './cli.ts';

const USAGE = 'usage: npm run keys -- create "App name" | list | revoke APP_ID|KEY_PREFIX';

const KEYS_COMMAND = {
  run: 'npm run keys',
  about: 'Developer keys for /v1/partner. create "App name": makes an app and prints its key once (only its hash is stored); list: the apps, their keys and usage; revoke APP_ID|KEY_PREFIX: running servers refuse the key within seconds.',
  options: {},
  positionals: { usage: 'create "App name" | list | revoke APP_ID|KEY_PREFIX', min: 1, max: 2 },
  notes: ['environment: CATALOGUE_DB (default data/catalogue.db); SHARED_STATE_STORE (or RATE_LIMIT_STORE): a new key and a revocation also go to that Redis, for origins on other machines (revoking again sends it again; npm run share-state sends every key), and list shows the usage counted there.', 'A name starting with "-" goes after a lone --: npm run keys -- create -- "-app-"'],
} as const;

await runCommand('keys', KEYS_COMMAND, async ({ positionals }) => {
  const [command, ...rest] = positionals;
  if (!(command === 'create' && rest.length === 1) && !(command === 'list' && rest.length === 0) && !(command === 'revoke' && rest.length === 1)) {
    throw new UsageError(command === 'create' ? `give the app's name as one argument; ${USAGE}`
      : command === 'revoke' ? `give one app id or key prefix to revoke (npm run keys -- list shows them); ${USAGE}`
      : command === 'list' ? `list takes no argument, not "${rest[0]}"; ${USAGE}`
      : `unknown command "${command}": the commands are create, list and revoke; ${USAGE}`);
  }
  const { catalogueDb, sharedStore } = loadConfig();
  if (!existsSync(catalogueDb)) throw new UsageError(`no catalogue at ${catalogueDb}: run npm run seed or npm run import first`);
  const db = openCatalogue(catalogueDb);
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  try {
    if (command === 'create') {
      const name = rest[0]!.trim();
      if (name === '' || name.length > 200) throw new UsageError(`give the app's name (1 to 200 characters) as one argument; ${USAGE}`);
      const created = createApp(db, name, now);
      console.log(`keys: created app ${created.appId} "${created.name}"`);
      console.log(`keys: its key, shown only this once (send it as Authorization: Bearer <key>):\n${created.key}`);
      if (sharedStore !== undefined) {
        const { publishKeys } = await import('../src/shared-state/shared-records.ts');
        const { notShared, withStore } = await import('../src/shared-state/publish-catalogue.ts');
        const key = readKeys(db).find((k) => k.prefix === created.prefix && k.appId === created.appId)!;
        await withStore(sharedStore, 'npm run keys', notShared('npm run share-state'), (redis) => publishKeys(redis, [key]));
        console.log('keys: told Redis: every origin accepts the key within 2 s');
      }
    } else if (command === 'list') {
      let apps = listApps(db);
      if (sharedStore !== undefined && apps.length > 0) {
        // with a shared store, usage is counted in Redis (src/shared-state/shared-usage.ts)
        const { readUsageTotals } = await import('../src/shared-state/shared-usage.ts');
        const { withStore } = await import('../src/shared-state/publish-catalogue.ts');
        const ids = apps.map((a) => a.appId);
        const totals = await withStore(sharedStore, 'npm run keys', (reason) => `cannot read the usage counted in Redis: ${reason}`, (redis) => readUsageTotals(redis, ids));
        apps = apps.map((a) => ({ ...a, requests: a.requests + (totals.get(a.appId) ?? 0) }));
      }
      if (apps.length === 0) console.log('keys: no apps yet; create one with npm run keys -- create "App name"');
      for (const app of apps) {
        const keys = app.keys.map((k) => `${k.prefix}… ${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}`).join(', ');
        console.log(`${app.appId}  "${app.name}"  created ${app.createdAt}  ${app.requests} requests  keys: ${keys}`);
      }
    } else {
      const revoked = revokeKeys(db, rest[0]!, now);
      const hashes = sharedStore === undefined ? [] : revokedHashes(db, rest[0]!);
      if (revoked === 0 && hashes.length === 0) throw new UsageError(`no active key has the app id or key prefix "${rest[0]}" (see npm run keys -- list)`);
      if (revoked > 0) console.log(`keys: revoked ${revoked} key${revoked === 1 ? '' : 's'}; running servers refuse ${revoked === 1 ? 'it' : 'them'} within seconds`);
      if (sharedStore !== undefined) await shareRevocations(sharedStore, hashes);
    }
  } finally {
    db.close();
  }
});

/** Sends revoked keys' hashes to the shared store, or fails saying the revocation is not shared yet. */
async function shareRevocations(store: string, hashes: readonly string[]): Promise<void> {
  // loaded only here: the other commands need no Redis client
  const { connectRedis, describeStore } = await import('../src/shared-state/redis-connection.ts');
  const { publishRevocations } = await import('../src/shared-state/revocations.ts');
  const redis = connectRedis(store, { log: () => {}, name: 'npm run keys' });
  try {
    await new Promise<void>((ready, fail) => {
      const timer = setTimeout(() => fail(new Error('no answer within 5 s')), 5000);
      redis.once('ready', () => { clearTimeout(timer); ready(); });
    });
    await publishRevocations(redis, hashes);
    console.log(`keys: told Redis (${describeStore(store)}): every origin refuses ${hashes.length === 1 ? 'the key' : `the ${hashes.length} revoked keys`} within 2 s`);
  } catch (error) {
    throw new Error(`the revocation is in the catalogue, but Redis at ${describeStore(store)} could not be told (${error instanceof Error ? error.message : String(error)}): origins on other machines still accept the key; run the same revoke again once Redis answers`);
  } finally {
    redis.disconnect();
  }
}
