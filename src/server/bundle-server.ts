// Bundles the server as `npm start` runs it (docs/architecture.md, "The server runs as bundled
// JavaScript"): the supervisor, the serving process and each worker thread the server starts
// (src/server/*-worker.ts, found by worker-url.ts beside the bundle that starts them), each into one
// ES module of plain JavaScript (lib/node-bundle.ts).
import { build } from 'esbuild';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SERVER_BUNDLE_DIR } from '../lib/app-files.ts';
import { NODE_BUNDLE_OPTIONS } from '../lib/node-bundle.ts';

export interface BundledServerFile {
  readonly path: string;
  readonly bytes: number;
}

export async function bundleServer(outDir: string = SERVER_BUNDLE_DIR): Promise<BundledServerFile[]> {
  const workers = readdirSync(join('src', 'server')).filter((name) => name.endsWith('-worker.ts'));
  const entryPoints = {
    supervisor: join('scripts', 'start', 'supervisor.ts'),
    serving: join('scripts', 'start', 'serving.ts'),
    ...Object.fromEntries(workers.map((name) => [name.slice(0, -'.ts'.length), join('src', 'server', name)])),
  };
  const result = await build({
    ...NODE_BUNDLE_OPTIONS, entryPoints, outdir: outDir, metafile: true,
  });
  return Object.keys(result.metafile.outputs).map((path) => ({ path, bytes: statSync(path).size }));
}
