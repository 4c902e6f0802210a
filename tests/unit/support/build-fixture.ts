// Builds of one catalogue for a test file of the incremental builds: a full build made once per
// file, and each test given its own copy of it (catalogue and dist) to change and rebuild; and a
// full build of a copy of any catalogue in a fresh dist folder, with the files it wrote, to compare
// a rebuild with byte for byte.
import { copyFileSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { buildSnapshot, type BuildOptions, type BuildSummary } from '../../../src/snapshot/build-snapshot.ts';
import { layoutOf } from '../../../src/snapshot/layout.ts';
import type { Raw, TempDirs } from './fixtures.ts';
import { readTree, writeCatalogueFile } from './snapshots.ts';

export interface Built {
  readonly options: BuildOptions;
  readonly summary: BuildSummary;
}

export interface BuildFixture {
  /** a copy of the file's one full build of the catalogue (its summary is the original build's) */
  built(): Promise<Built>;
  /** a full build of a copy of `options`' catalogue in a fresh dist folder: its summary and files */
  fullBuildOf(options: BuildOptions): Promise<{ summary: BuildSummary; files: Map<string, Buffer> }>;
}

/** `shared` holds the one build (cleaned after the file), `dirs` each test's copies (cleaned after each test). */
export function buildFixture(catalogue: () => readonly Raw[], baseUrl: string, shared: TempDirs, dirs: TempDirs): BuildFixture {
  let first: Promise<Built> | undefined;
  return {
    async built() {
      first ??= (async () => {
        const dir = shared.make();
        const options = { catalogue: writeCatalogueFile(join(dir, 'catalogue.db'), catalogue()), distDir: join(dir, 'dist'), baseUrl };
        return { options, summary: await buildSnapshot(options) };
      })();
      const { options, summary } = await first;
      const dir = dirs.make();
      const copy = { catalogue: join(dir, 'catalogue.db'), distDir: join(dir, 'dist'), baseUrl: options.baseUrl };
      copyFileSync(options.catalogue, copy.catalogue);
      cpSync(options.distDir, copy.distDir, { recursive: true, verbatimSymlinks: true });
      return { options: copy, summary };
    },
    async fullBuildOf(options) {
      const dir = dirs.make();
      const fresh = { catalogue: join(dir, 'catalogue.db'), distDir: join(dir, 'dist'), baseUrl: options.baseUrl };
      copyFileSync(options.catalogue, fresh.catalogue);
      const summary = await buildSnapshot({ ...fresh, full: true });
      return { summary, files: readTree(join(layoutOf(fresh.distDir).root, summary.id)) };
    },
  };
}
