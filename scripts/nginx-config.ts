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
import { elapsed, runCli, UsageError } from './cli.ts';

const USAGE = 'usage: npm run nginx-config -- --listen PORT --origin URL [--origin URL ...] --out FILE [--snapshot DIR] [--workers N]';

function values(name: string): string[] {
  const found: string[] = [];
  process.argv.forEach((arg, i) => {
    if (arg === name) {
      const value = process.argv[i + 1];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`${name} needs a value\n${USAGE}`);
      found.push(value);
    }
  });
  return found;
}

function one(name: string, required: boolean): string | undefined {
  const found = values(name);
  if (found.length > 1) throw new UsageError(`${name} is given ${found.length} times\n${USAGE}`);
  if (required && found.length === 0) throw new UsageError(`${name} is required\n${USAGE}`);
  return found[0];
}

function port(text: string, name: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1 || value > 65535) throw new UsageError(`${name} must be a port from 1 to 65535, not ${text}`);
  return value;
}

await runCli('nginx-config', () => {
  const listen = port(one('--listen', true)!, '--listen');
  const origins = values('--origin');
  if (origins.length === 0) throw new UsageError(`--origin is required (one or more)\n${USAGE}`);
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
  const out = resolve(one('--out', true)!);
  const workersArg = one('--workers', false);
  if (workersArg !== undefined && !/^([1-9]|[1-5][0-9]|6[0-4])$/.test(workersArg)) throw new UsageError(`--workers must be a number from 1 to 64, not ${workersArg}`);
  const workers = workersArg === undefined ? 1 : Number(workersArg);
  const snapshotArg = one('--snapshot', false);
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
