import { copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { holdSnapshots, type SnapshotHolder } from '../../../src/server/snapshot-holder.ts';
import { buildSnapshot } from '../../../src/snapshot/build-snapshot.ts';
import { layoutOf, MANIFEST_FILE, MODEL_FILE, SEARCH_FILE } from '../../../src/snapshot/layout.ts';
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

function hold(root: string, log: string[] = [], baseUrl: string | undefined = BASE_URL): SnapshotHolder {
  const holder = holdSnapshots(root, { cacheBytes: 1 << 30, baseUrl, log: (m) => log.push(m) });
  holders.push(holder);
  return holder;
}

/** A second snapshot beside the first: the catalogue changed, then built (current points at it). */
async function buildSecond(options: { catalogue: string; distDir: string; baseUrl: string }): Promise<string> {
  runSql(options.catalogue, "UPDATE videos SET views = 12345 WHERE id = 'v1'");
  return (await buildSnapshot(options)).id;
}

describe('holdSnapshots', () => {
  it('serves nothing while no snapshot has been built', async () => {
    const root = join(dirs.make(), 'snapshots');
    mkdirSync(root);
    const holder = hold(root);
    await holder.loaded;
    expect(holder.current).toBeUndefined();
    expect(await holder.refresh()).toBe(false);
    expect(holder.problem).toBeUndefined();
  });

  it('serves the pages of the current snapshot once ready, then the whole snapshot once loaded', async () => {
    const { root, first } = await setup();
    const log: string[] = [];
    const holder = hold(root, log);
    await holder.ready;
    // the pages first: looked up in the verified manifest, read from the verified page files
    const early = holder.current!;
    expect(early.id).toBe(first);
    expect(early.complete).toBe(false);
    expect(early.sources.body.read(early.pages.get('/v1/categories')!.body).toString()).toContain('"data"');
    expect(early.model.entries).toHaveLength(0);
    expect(holder.problem).toEqual({ id: first, reason: expect.stringContaining('its model and search index are being loaded') });
    await holder.loaded;
    expect(holder.current?.id).toBe(first);
    expect(holder.current?.complete).toBe(true);
    expect(holder.current?.model.entries.length).toBeGreaterThan(0);
    expect(holder.current?.search).toBeDefined();
    // the same page files, not opened twice
    expect(holder.current?.sources).toBe(early.sources);
    expect(holder.problem).toBeUndefined();
    expect(log.filter((m) => m.includes(`snapshot ${first}`)).map((m) => m.slice(0, 28))).toEqual([`serving the pages of snapshot ${first}`.slice(0, 28), `serving snapshot ${first}`.slice(0, 28)]);
  });

  it('drops the pages it served at start-up when the model then fails its check, and falls back', async () => {
    const { options, root, first } = await setup();
    const second = await buildSecond(options);
    utimesSync(join(root, first, MANIFEST_FILE), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    // the right size, the wrong bytes: found only when the model is read, after the pages are served
    flipByte(join(root, second, MODEL_FILE));
    const holder = hold(root);
    await holder.loaded;
    expect(holder.current?.id).toBe(first);
    expect(holder.current?.complete).toBe(true);
    expect(holder.problem).toEqual({ id: second, reason: 'model.ndjson does not match the SHA-256 the manifest records (damaged or changed)' });
  });

  it('swaps in a new snapshot after a build, and only once', async () => {
    const { options, root, first } = await setup();
    const holder = hold(root);
    await holder.loaded;
    const second = await buildSecond(options);
    expect(second).not.toBe(first);
    await holder.refresh();
    expect(holder.current?.id).toBe(second);
    expect(await holder.refresh()).toBe(false);
  });

  it('keeps serving the loaded snapshot when the new one cannot be loaded', async () => {
    const { root, first } = await setup();
    const log: string[] = [];
    const holder = hold(root, log);
    await holder.loaded;
    mkdirSync(join(root, 'ffffffffffffffff'));
    swapCurrent(root, 'ffffffffffffffff');
    expect(await holder.refresh()).toBe(false);
    expect(holder.current?.id).toBe(first);
    expect(holder.problem).toEqual({ id: 'ffffffffffffffff', reason: 'manifest.json is missing' });
    expect(log.some((m) => m.includes('ffffffffffffffff') && m.includes(first))).toBe(true);
  });

  it.each([
    ['model.ndjson missing', (dir: string) => rmSync(join(dir, MODEL_FILE)), /^model\.ndjson is missing$/],
    ['a shard of page bodies truncated', (dir: string) => truncateSync(largest(dir, 'bin'), statSync(largest(dir, 'bin')).size - 10), /^pages-\d{3}\.bin holds \d+ bytes, not the \d+ the manifest records/],
    ['a shard of gzip variants truncated', (dir: string) => truncateSync(largest(dir, 'gz.bin'), 5), /^pages-\d{3}\.gz\.bin holds 5 bytes/],
    ['a byte of a shard of br variants changed', (dir: string) => flipByte(largest(dir, 'br.bin')), /^pages-\d{3}\.br\.bin does not match the SHA-256/],
    ['a byte of model.ndjson changed', (dir: string) => flipByte(join(dir, MODEL_FILE)), /^model\.ndjson does not match the SHA-256/],
    ['a byte of search.json changed', (dir: string) => flipByte(join(dir, SEARCH_FILE)), /^search\.json does not match the SHA-256/],
    ['a byte of the manifest changed', (dir: string) => flipByte(join(dir, MANIFEST_FILE)), /^manifest\.json does not match the snapshot's id/],
  ])('refuses a swap to a snapshot with %s: the previous keeps serving and the problem is named', async (_what, damage, reason) => {
    const { options, root, first } = await setup();
    const holder = hold(root);
    await holder.loaded;
    const second = await buildSecond(options);
    damage(join(root, second));
    await holder.refresh();
    expect(holder.current?.id).toBe(first);
    expect(holder.problem?.id).toBe(second);
    expect(holder.problem?.reason).toMatch(reason);
    expect(holder.problem?.reason).not.toContain(root);
  });

  it('refuses a swap to a snapshot whose model data has a damaged line though its files match the manifest: the previous keeps serving whole', async () => {
    const { options, root, first } = await setup();
    const log: string[] = [];
    const holder = hold(root, log);
    await holder.loaded;
    const second = await buildSecond(options);
    // a video line cut short, the file sealed again: only reading the line can find it
    const damaged = resealed(root, second, MODEL_FILE, (bytes) => {
      const lines = bytes.toString('utf8').split('\n');
      const at = lines.findIndex((l) => l.startsWith('["video"'));
      lines[at] = lines[at]!.slice(0, 40);
      return Buffer.from(lines.join('\n'));
    });
    swapCurrent(root, damaged);
    expect(await holder.refresh()).toBe(false);
    expect(holder.current?.id).toBe(first);
    expect(holder.current?.complete).toBe(true);
    expect(holder.current?.model.entries.length).toBeGreaterThan(0);
    expect(holder.problem).toEqual({ id: damaged, reason: expect.stringMatching(/^model\.ndjson: line \d+ is not valid JSON \(damaged\)$/) });
    expect(log.some((m) => m.includes(`refused snapshot ${damaged}`) && m.includes(`still serving ${first}`))).toBe(true);
  });

  it('refuses a snapshot whose model data holds a line of no known kind, naming the line', async () => {
    const { options, root, first } = await setup();
    const holder = hold(root);
    await holder.loaded;
    const second = await buildSecond(options);
    const damaged = resealed(root, second, MODEL_FILE, (bytes) => Buffer.concat([bytes, Buffer.from('["mystery",{}]\n')]));
    swapCurrent(root, damaged);
    await holder.refresh();
    expect(holder.current?.id).toBe(first);
    expect(holder.problem?.reason).toMatch(/^model\.ndjson: line \d+ is a record of no known kind$/);
  });

  it('falls back at start-up to the newest intact snapshot when current is damaged, and says which was refused', async () => {
    const { options, root, first } = await setup();
    const second = await buildSecond(options);
    runSql(options.catalogue, "UPDATE videos SET views = 777 WHERE id = 'v1'");
    const third = (await buildSnapshot(options)).id;
    // the newest intact one beside current is `second`, not the older `first`
    utimesSync(join(root, first, MANIFEST_FILE), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    rmSync(join(root, third, MODEL_FILE));
    const log: string[] = [];
    const holder = hold(root, log);
    await holder.loaded;
    expect(holder.current?.id).toBe(second);
    expect(holder.problem).toEqual({ id: third, reason: 'model.ndjson is missing' });
    expect(log.some((m) => m.includes(`serving snapshot ${second}`) && m.includes(`in place of ${third}`))).toBe(true);
  });

  it('serves nothing when no intact snapshot is left, naming the refused one', async () => {
    const { root, first } = await setup();
    truncateSync(largest(join(root, first), 'bin'), 3);
    const holder = hold(root);
    await holder.loaded;
    expect(holder.current).toBeUndefined();
    expect(holder.problem?.id).toBe(first);
    expect(holder.problem?.reason).toMatch(/^pages-\d{3}\.bin holds 3 bytes/);
  });

  it('loads a refused snapshot once its files are repaired', async () => {
    const { options, root, first } = await setup();
    const holder = hold(root);
    await holder.loaded;
    const second = await buildSecond(options);
    const model = join(root, second, MODEL_FILE);
    renameSync(model, `${model}.aside`);
    await holder.refresh();
    expect(holder.current?.id).toBe(first);
    renameSync(`${model}.aside`, model);
    await holder.refresh();
    expect(holder.current?.id).toBe(second);
    expect(holder.problem).toBeUndefined();
  });

  it('never serves a snapshot built for another base URL, at start-up or on a swap', async () => {
    const { options, root, first } = await setup();
    const atStart = hold(root, [], 'https://other.example');
    await atStart.loaded;
    expect(atStart.current).toBeUndefined();
    expect(atStart.problem).toEqual({ id: first, reason: `it was built for ${BASE_URL}, not for this server's https://other.example: run npm run build with PUBLIC_BASE_URL=https://other.example` });

    const holder = hold(root);
    await holder.loaded;
    // a build for another origin must say so (docs/reliability.md, "Builds and the file system")
    const other = (await buildSnapshot({ ...options, baseUrl: 'https://other.example', newOrigin: true })).id;
    await holder.refresh();
    expect(holder.current?.id).toBe(first);
    expect(holder.problem).toMatchObject({ id: other, reason: expect.stringContaining('it was built for https://other.example, not for this server') });
  });
});

/**
 * The snapshot `id` with `file` rewritten by `change` and sealed again: its manifest records the new
 * size and SHA-256 (so the snapshot passes verification) under the id its manifest's hash gives.
 */
function resealed(root: string, id: string, file: string, change: (bytes: Buffer) => Buffer): string {
  const old = readFileSync(join(root, id, file));
  const now = change(old);
  const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
  const manifest = readFileSync(join(root, id, MANIFEST_FILE), 'latin1');
  const record = `"${file}":{"size":${old.length},"sha256":"${sha(old)}"}`;
  expect(manifest.includes(record)).toBe(true);
  const sealed = Buffer.from(manifest.replace(record, `"${file}":{"size":${now.length},"sha256":"${sha(now)}"}`), 'latin1');
  const next = sha(sealed).slice(0, 16);
  renameSync(join(root, id), join(root, next));
  writeFileSync(join(root, next, file), now);
  writeFileSync(join(root, next, MANIFEST_FILE), sealed);
  return next;
}

/** The largest page file of a snapshot whose name ends `.<suffix>` after the shard (`bin`, `br.bin`, `gz.bin`). */
function largest(dir: string, suffix: string): string {
  const names = readdirSync(dir).filter((name) => new RegExp(`^pages-\\d{3}\\.${suffix.replace('.', '\\.')}$`).test(name));
  return join(dir, names.sort((a, b) => statSync(join(dir, b)).size - statSync(join(dir, a)).size)[0]!);
}

function flipByte(file: string): void {
  const bytes = readFileSync(file);
  const at = Math.floor(bytes.length / 2);
  bytes[at] = bytes[at]! ^ 0x20;
  writeFileSync(file, bytes);
}
