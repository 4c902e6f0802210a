// npm run keys -- create "App name" | list | revoke APP_ID|KEY_PREFIX: developer keys for /v1/partner.
// A new key is printed once; the catalogue keeps only its hash.
import { existsSync } from 'node:fs';
import { createApp, listApps, revokeKeys } from '../src/catalogue/api-keys.ts';
import { openCatalogue } from '../src/catalogue/open-catalogue.ts';
import { loadConfig } from '../src/config.ts';
import { runCommand, UsageError } from './cli.ts';

const USAGE = 'usage: npm run keys -- create "App name" | list | revoke APP_ID|KEY_PREFIX';

const KEYS_COMMAND = {
  run: 'npm run keys',
  about: 'Developer keys for /v1/partner. create "App name": makes an app and prints its key once (only its hash is stored); list: the apps, their keys and usage; revoke APP_ID|KEY_PREFIX: running servers refuse the key within seconds.',
  options: {},
  positionals: { usage: 'create "App name" | list | revoke APP_ID|KEY_PREFIX', min: 1, max: 2 },
  notes: ['environment: CATALOGUE_DB (default data/catalogue.db).', 'A name starting with "-" goes after a lone --: npm run keys -- create -- "-app-"'],
} as const;

await runCommand('keys', KEYS_COMMAND, ({ positionals }) => {
  const [command, ...rest] = positionals;
  if (!(command === 'create' && rest.length === 1) && !(command === 'list' && rest.length === 0) && !(command === 'revoke' && rest.length === 1)) {
    throw new UsageError(command === 'create' ? `give the app's name as one argument; ${USAGE}` : USAGE);
  }
  const { catalogueDb } = loadConfig();
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
    } else if (command === 'list') {
      const apps = listApps(db);
      if (apps.length === 0) console.log('keys: no apps yet; create one with npm run keys -- create "App name"');
      for (const app of apps) {
        const keys = app.keys.map((k) => `${k.prefix}… ${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}`).join(', ');
        console.log(`${app.appId}  "${app.name}"  created ${app.createdAt}  ${app.requests} requests  keys: ${keys}`);
      }
    } else {
      const revoked = revokeKeys(db, rest[0]!, now);
      if (revoked === 0) throw new UsageError(`no active key has the app id or key prefix "${rest[0]}" (see npm run keys -- list)`);
      console.log(`keys: revoked ${revoked} key${revoked === 1 ? '' : 's'}; running servers refuse ${revoked === 1 ? 'it' : 'them'} within seconds`);
    }
  } finally {
    db.close();
  }
});
