// npm run nginx-config -- --listen PORT --origin URL [--origin URL ...] --out FILE [--snapshot DIR]
// [--workers N]: writes a complete nginx configuration (docs/cdn.md) that serves the current
// snapshot's static files from disk and sends everything else to the origins. Runnable by an
// ordinary user: `nginx -p DIR -c FILE`, where DIR is the folder of FILE (pid, logs, temp files).
// After a rebuild, run it again and reload nginx (`nginx -p DIR -c FILE -s reload`).
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { installedBrotliModule, nginxConfig, preparePrefix } from '../src/cdn/nginx-config.ts';
import { loadConfig } from '../src/config.ts';
import { layoutOf, MANIFEST_FILE } from '../src/snapshot/layout.ts';
import type { Manifest } from '../src/snapshot/manifest.ts';
import { STATIC_DIR, writeStaticFiles } from '../src/snapshot/static-files.ts';
import { elapsed, runCommand, UsageError } from './cli.ts';

const NGINX_CONFIG_COMMAND = {
  run: 'npm run nginx-config',
  about: 'Writes a complete nginx configuration (docs/cdn.md) that serves the current snapshot\'s static files from disk (writing them first if the snapshot lacks them) and sends everything else to the origins. Run it with nginx -p DIR -c FILE, DIR being the folder of FILE; after a rebuild, run this again and reload nginx.',
  options: {
    listen: { type: 'string', value: 'PORT', help: 'the port nginx listens on (required)' },
    origin: { type: 'string', value: 'URL', multiple: true, help: 'an origin server, http://HOST:PORT (at least one)' },
    out: { type: 'string', value: 'FILE', help: 'the configuration file to write (required); its folder holds nginx\'s pid, logs and temporary files' },
    snapshot: { type: 'string', value: 'DIR', help: 'the snapshot directory to serve (default: DIST_DIR/snapshots/current)' },
    workers: { type: 'string', value: 'N', help: 'nginx worker processes, 1 to 64 (default 1)' },
  },
  notes: ['environment: DIST_DIR (default dist).'],
} as const;

function port(text: string, name: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1 || value > 65535) throw new UsageError(`${name} must be a port from 1 to 65535, not ${text}`);
  return value;
}

await runCommand('nginx-config', NGINX_CONFIG_COMMAND, ({ values }) => {
  const required = (name: 'listen' | 'out') => {
    const value = values[name];
    if (value === undefined) throw new UsageError(`--${name} is required; see npm run nginx-config -- --help`);
    return value;
  };
  const listen = port(required('listen'), '--listen');
  const origins = values.origin ?? [];
  if (origins.length === 0) throw new UsageError('--origin is required (one or more); see npm run nginx-config -- --help');
  for (const origin of origins) {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      throw new UsageError(`--origin ${origin} is not a URL such as http://127.0.0.1:4321`);
    }
    if (url.protocol !== 'http:' || url.pathname !== '/' || url.search !== '' || url.port === '') {
      throw new UsageError(`--origin ${origin} must be http://HOST:PORT, with nothing after it`);
    }
  }
  const out = resolve(required('out'));
  const workersArg = values.workers;
  if (workersArg !== undefined && !/^([1-9]|[1-5][0-9]|6[0-4])$/.test(workersArg)) throw new UsageError(`--workers must be a number from 1 to 64, not ${workersArg}`);
  const workers = workersArg === undefined ? 1 : Number(workersArg);
  const snapshotArg = values.snapshot;
  const snapshot = snapshotArg ?? layoutOf(loadConfig().distDir).current;
  if (!existsSync(snapshot)) throw new UsageError(`no snapshot at ${snapshot}: run npm run build first`);
  const snapshotDir = realpathSync(snapshot);
  const manifest = JSON.parse(readFileSync(join(snapshotDir, MANIFEST_FILE), 'utf8')) as Manifest;
  if (!existsSync(join(snapshotDir, STATIC_DIR))) {
    // built without --static-files: write them now, from the snapshot's own page files
    console.log(`nginx-config: the snapshot has no static files yet; writing them into ${join(snapshotDir, STATIC_DIR)}`);
    const started = performance.now();
    const files = writeStaticFiles(snapshotDir, manifest, (m) => console.log(`nginx-config: ${m}`));
    console.log(`nginx-config: ${files} static files written in ${elapsed(started)}`);
  }
  const prefix = dirname(out);
  preparePrefix(prefix);
  const brotliModule = installedBrotliModule();
  writeFileSync(out, nginxConfig({ listen, origins, snapshotDir, prefix, brotliModule, workers, publicBaseUrl: manifest.baseUrl }));
  console.log(`nginx-config: wrote ${out}: port ${listen}, ${origins.length} origin(s), snapshot ${snapshotDir}${brotliModule ? ', brotli_static' : ' (no brotli_static module: br requests get gzip or identity from nginx)'}`);
  console.log(`nginx-config: start with  nginx -p ${prefix} -c ${out}   (reload after a rebuild: nginx-config again, then -s reload)`);
});
