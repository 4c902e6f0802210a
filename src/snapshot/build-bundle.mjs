// The build as plain JavaScript (docs/architecture.md, "The build runs as bundled JavaScript"):
// `npm run build:app` bundles `npm run build` and its worker threads (bundle-build.ts) into a folder
// of its own under dist/build-bundles/, never rewritten, and then points dist/build-bundles/current.json
// at it with what it was made from: the code id of src/ (sourceCodeId) and the SHA-256 of each of
// its other inputs (scripts/build.ts, scripts/cli.ts, ...), as esbuild compiled them.
// scripts/build.mjs runs that bundle only when the sources are still exactly those (currentBundle),
// else the sources themselves: a bundle older than a change is never run. Plain JavaScript, so that
// the launcher decides without loading Node's type stripping (which costs a process about 50 ms of
// CPU, and each of its worker threads as much again).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Where `npm run build:app` puts the build's bundles, under the project's root (outside dist/app/, which Astro empties). */
export const BUILD_BUNDLES_DIR = join('dist', 'build-bundles');
/**
 * The file naming the bundle to run (written last, by a rename): `{ folder, code, inputs }`, the
 * bundle's folder, the code id of src/ and the SHA-256 of every other input by its path under the root.
 */
export const CURRENT_BUNDLE_FILE = 'current.json';

/**
 * The SHA-256 of a file's bytes, hex.
 * @param {string | Uint8Array} bytesOrFile a file's path, or its bytes
 * @returns {string}
 */
export const sha256Of = (bytesOrFile) => createHash('sha256').update(typeof bytesOrFile === 'string' ? readFileSync(bytesOrFile) : bytesOrFile).digest('hex');

/**
 * Names the code that turns a catalogue into a snapshot, from the project at `root`: the SHA-256 of
 * every file under src/ (its path and bytes), of the locked dependencies (package-lock.json: zod,
 * MiniSearch, ...) and of the Node, zlib, brotli, ICU and Unicode versions (ICU's segmenting and
 * normalising shape the search index's terms: a Node built against the system's ICU may change them
 * without changing its own version). Two builds with the same id render, validate, index and
 * compress alike, so a page whose bytes did not change has the same compressed variants.
 * @param {string} root
 * @returns {string}
 */
export function sourceCodeId(root) {
  const src = join(root, 'src');
  const hash = createHash('sha256');
  /** @type {(dir: string) => string[]} */
  const walk = (dir) => readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]))
    .sort();
  for (const file of walk(src)) hash.update(`${relative(src, file)}\0`).update(readFileSync(file)).update('\0');
  const lock = join(root, 'package-lock.json');
  hash.update(existsSync(lock) ? readFileSync(lock) : 'no lock file');
  hash.update(JSON.stringify([process.versions.node, process.versions.zlib, process.versions.brotli, process.versions.icu, process.versions.unicode]));
  return hash.digest('hex').slice(0, 16);
}

/**
 * Which build `npm run build` runs for the project at `root`: the bundled `entry` (`build`: npm run
 * build; `run-build`: the benchmarks' timed build) when the current bundle was made from its sources
 * as they are now (the same code id, so the same Node too, and the same other inputs), else the
 * sources, with the reason in words for the operator. Any failure to tell (a source that cannot be
 * read, a record that is not one) makes the sources run: the failure is theirs to report.
 * @param {string} root
 * @param {'build' | 'run-build'} entry
 * @returns {{ file: string } | { reason: string }}
 */
export function bundleChoice(root, entry) {
  const remake = 'npm run build:app makes it current';
  const notARecord = `${join(BUILD_BUNDLES_DIR, CURRENT_BUNDLE_FILE)} is not a bundle's record (${remake})`;
  const dir = join(root, BUILD_BUNDLES_DIR);
  /** @type {unknown} */
  let made;
  try {
    made = JSON.parse(readFileSync(join(dir, CURRENT_BUNDLE_FILE), 'utf8'));
  } catch (error) {
    return { reason: /** @type {{ code?: unknown }} */ (error)?.code === 'ENOENT' ? 'no bundle was made (npm run build:app makes one)' : notARecord };
  }
  const record = /** @type {{ folder?: unknown, code?: unknown, inputs?: unknown }} */ (made);
  if (typeof record?.folder !== 'string' || !/^[0-9a-f]{16}$/.test(record.folder) || typeof record.inputs !== 'object' || record.inputs === null) {
    return { reason: notARecord };
  }
  const file = join(dir, record.folder, `${entry}.mjs`);
  if (!existsSync(file)) return { reason: `the current bundle has no ${entry}.mjs (${remake})` };
  try {
    if (record.code !== sourceCodeId(root)) return { reason: `src/, package-lock.json or Node's version changed since the bundle was made (${remake})` };
    for (const [input, sha256] of Object.entries(record.inputs)) {
      if (sha256Of(join(root, input)) !== sha256) return { reason: `${input} changed since the bundle was made (${remake})` };
    }
  } catch (error) {
    return { reason: `the sources could not be compared with the bundle (${String(/** @type {Error} */ (error)?.message).split('\n')[0]})` };
  }
  return { file };
}

/**
 * The bundled `entry` of the project at `root` when bundleChoice runs it, else undefined.
 * @param {string} root
 * @param {'build' | 'run-build'} entry
 * @returns {string | undefined}
 */
export function currentBundle(root, entry) {
  const choice = bundleChoice(root, entry);
  return 'file' in choice ? choice.file : undefined;
}
