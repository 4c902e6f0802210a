// Bundles the browser SDK with esbuild: /sdk.js (a classic script defining the global
// `VideoPlatform`) and /sdk.mjs (the same as an ES module), minified, for current browsers.
import { build } from 'esbuild';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';

export interface BundledFile {
  readonly path: string;
  readonly bytes: number;
  readonly gzipBytes: number;
}

/** The SDK's target browsers: those with AbortSignal.any and URLSearchParams.size (2023 on). */
const TARGET = ['chrome116', 'firefox124', 'safari17.4'];

export async function bundleSdk(outDir: string): Promise<BundledFile[]> {
  const common = { bundle: true, minify: true, target: TARGET, legalComments: 'none', logLevel: 'error', charset: 'utf8' } as const;
  const outputs = [
    { entry: 'src/sdk/entry-classic.ts', file: join(outDir, 'sdk.js'), format: 'iife', globalName: 'VideoPlatform' },
    { entry: 'src/sdk/entry-module.ts', file: join(outDir, 'sdk.mjs'), format: 'esm' },
  ] as const;
  const files: BundledFile[] = [];
  for (const output of outputs) {
    await build({
      ...common,
      entryPoints: [output.entry],
      outfile: output.file,
      format: output.format,
      ...('globalName' in output && { globalName: output.globalName }),
    });
    const body = readFileSync(output.file);
    files.push({ path: output.file, bytes: body.length, gzipBytes: gzipSync(body, { level: 9 }).length });
  }
  return files;
}
