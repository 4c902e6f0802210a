// Postinstall: make better-sqlite3 loadable by the Node.js the project runs on (pinned by the
// `node` devDependency). npm compiles native addons against the system Node's headers, whose
// ABI differs, so we rebuild once against the pinned version's own headers when needed.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const require = createRequire(join(root, 'package.json'));
const version = process.versions.node;

function loads() {
  const probe = "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()";
  return spawnSync(process.execPath, ['-e', probe], { cwd: root, stdio: 'ignore' }).status === 0;
}

function findHeaders() {
  const platform = `node-${process.platform}-${process.arch}`;
  const candidates = [
    join(root, 'node_modules', 'node', 'node_modules', platform),
    join(root, 'node_modules', platform),
    join(root, 'node_modules', '.cache', 'node-headers', version, 'package'),
  ];
  const found = candidates.find((dir) => existsSync(join(dir, 'include', 'node', 'node.h')));
  if (found) return found;
  const cache = join(root, 'node_modules', '.cache', 'node-headers', version);
  mkdirSync(cache, { recursive: true });
  console.log(`build-native: fetching headers for Node ${version} (${platform}) from the npm registry`);
  execFileSync('npm', ['pack', `${platform}@${version}`, '--pack-destination', cache, '--silent'], { stdio: 'inherit' });
  const tarball = readdirSync(cache).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack ${platform}@${version} produced no tarball`);
  execFileSync('tar', ['-xzf', join(cache, tarball), '-C', cache, 'package/include']);
  return join(cache, 'package');
}

if (loads()) {
  console.log(`build-native: better-sqlite3 loads on Node ${version}`);
} else {
  const nodedir = findHeaders();
  const pkgDir = resolve(require.resolve('better-sqlite3/package.json'), '..');
  const gyp = process.env.npm_config_node_gyp ?? require.resolve('node-gyp/bin/node-gyp.js');
  console.log(`build-native: compiling better-sqlite3 for Node ${version} (about a minute)`);
  execFileSync(process.execPath, [gyp, 'rebuild', '--release', `--nodedir=${nodedir}`], {
    cwd: pkgDir,
    env: { ...process.env, npm_config_nodedir: nodedir },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (!loads()) throw new Error('build-native: better-sqlite3 still does not load after the rebuild');
  console.log(`build-native: better-sqlite3 rebuilt for Node ${version}`);
}
