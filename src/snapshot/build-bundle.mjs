// The build as plain JavaScript (docs/architecture.md, "The build runs as bundled JavaScript"):
// `npm run build:app` bundles `npm run build` and its worker threads into dist/app/build/
// (bundle-build.ts), and records beside them, last, what it bundled: the code id of src/
// (sourceCodeId) and the SHA-256 of each of its other inputs (scripts/build.ts, scripts/cli.ts, ...).
// scripts/build.mjs runs that bundle only when the sources are still exactly those (currentBundle),
// else the sources themselves: a bundle older than a change is never run. Plain JavaScript, so that
// the launcher decides without loading Node's type stripping (which costs a process ~50 ms of CPU
// and each of its worker threads as much again).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Where `npm run build:app` puts the build's bundle, under the project's root. */
export const BUILD_BUNDLE_DIR = join('dist', 'app', 'build');
/**
 * The file of the bundle naming what it was made from (written last): `{ code, inputs }`, the code
 * id of src/ and the SHA-256 of every other input file by its path under the root.
 */
export const BUNDLED_FROM_FILE = 'bundled-from.json';

/**
 * The SHA-256 of a file, hex.
 * @param {string} file
 * @returns {string}
 */
export const fileSha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

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
 * The bundled `entry` (`build`: npm run build; `run-build`: the benchmarks' timed build) of the
 * project at `root` when the bundle was made from its sources as they are now (the same code id, so
 * the same Node too, and the same other inputs), else undefined: then the sources are run.
 * @param {string} root
 * @param {'build' | 'run-build'} entry
 * @returns {string | undefined}
 */
export function currentBundle(root, entry) {
  const dir = join(root, BUILD_BUNDLE_DIR);
  /** @type {{ code?: unknown, inputs?: Record<string, unknown> }} */
  let made;
  try {
    made = JSON.parse(readFileSync(join(dir, BUNDLED_FROM_FILE), 'utf8'));
  } catch {
    return undefined;
  }
  const file = join(dir, `${entry}.mjs`);
  if (typeof made.inputs !== 'object' || made.inputs === null || !existsSync(file) || made.code !== sourceCodeId(root)) return undefined;
  for (const [input, sha256] of Object.entries(made.inputs)) {
    try {
      if (fileSha256(join(root, input)) !== sha256) return undefined;
    } catch {
      return undefined;
    }
  }
  return file;
}
