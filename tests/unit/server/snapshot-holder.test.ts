import { copyFileSync, cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { holdSnapshots, type SnapshotHolder } from '../../../src/server/snapshot-holder.ts';
import { buildSnapshot } from '../../../src/snapshot/build-snapshot.ts';
import { layoutOf } from '../../../src/snapshot/layout.ts';
import { swapCurrent } from '../../../src/snapshot/swap.ts';
import { BASE_URL, tempDirs } from '../support/fixtures.ts';
import { runSql, smallCatalogue, writeCatalogueFile } from '../support/snapshots.ts';

const dirs = tempDirs();
const sharedDirs = tempDirs();
const holders: SnapshotHolder[] = [];
afterEach(() => {
  for (const h of holders.splice(0)) h.close();
  dirs.cleanup();
});
afterAll(() => sharedDirs.cleanup());

let built: { catalogue: string; distDir: string; id: string } | undefined;

/** A private copy of one built snapshot (and its catalogue), so each test may change it. */
async function setup() {
  if (!built) {
    const dir = sharedDirs.make();
    const catalogue = writeCatalogueFile(join(dir, 'catalogue.db'), smallCatalogue());
    const distDir = join(dir, 'dist');
    built = { catalogue, distDir, id: (await buildSnapshot({ catalogue, distDir, baseUrl: BASE_URL })).id };
  }
  const dir = dirs.make();
  const options = { catalogue: join(dir, 'catalogue.db'), distDir: join(dir, 'dist'), baseUrl: BASE_URL };
  copyFileSync(built.catalogue, options.catalogue);
  cpSync(built.distDir, options.distDir, { recursive: true, verbatimSymlinks: true });
  return { options, root: layoutOf(options.distDir).root, first: built.id };
}

function hold(root: string, log: string[] = []): SnapshotHolder {
  const holder = holdSnapshots(root, 1 << 30, (m) => log.push(m));
  holders.push(holder);
  return holder;
}

describe('holdSnapshots', () => {
  it('serves nothing while no snapshot has been built', () => {
    const root = join(dirs.make(), 'snapshots');
    mkdirSync(root);
    const holder = hold(root);
    expect(holder.current).toBeUndefined();
    expect(holder.refresh()).toBe(false);
  });

  it('loads the current snapshot at once', async () => {
    const { root, first } = await setup();
    expect(hold(root).current?.id).toBe(first);
  });

  it('swaps in a new snapshot after a build, and only once', async () => {
    const { options, root, first } = await setup();
    const holder = hold(root);
    runSql(options.catalogue, "UPDATE videos SET views = 12345 WHERE id = 'v1'");
    const second = (await buildSnapshot(options)).id;
    expect(second).not.toBe(first);
    holder.refresh();
    expect(holder.current?.id).toBe(second);
    expect(holder.refresh()).toBe(false);
  });

  it('keeps serving the loaded snapshot when the new one cannot be loaded', async () => {
    const { root, first } = await setup();
    const log: string[] = [];
    const holder = hold(root, log);
    mkdirSync(join(root, 'ffffffffffffffff'));
    swapCurrent(root, 'ffffffffffffffff');
    expect(holder.refresh()).toBe(false);
    expect(holder.current?.id).toBe(first);
    expect(log.some((m) => m.includes('ffffffffffffffff') && m.includes(first))).toBe(true);
  });
});
