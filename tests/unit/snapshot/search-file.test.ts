// The search index of a build (src/snapshot/search-file.ts, search-index-worker.ts): written on a
// worker thread while the pages are rendered, it must hold exactly the bytes the index serialised
// on the main thread holds, and a worker that fails must fail the build as any other step does:
// nothing of it left, the served snapshot untouched.
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildModel, deriveCatalogue } from '../../../src/model/build-model.ts';
import { buildSearchIndex, serialiseSearchIndex } from '../../../src/search/search-index.ts';
import { buildSnapshot, type BuildOptions } from '../../../src/snapshot/build-snapshot.ts';
import { layoutOf, SEARCH_FILE } from '../../../src/snapshot/layout.ts';
import { readBuildInput } from '../../../src/snapshot/read-build-input.ts';
import { startSearchIndex } from '../../../src/snapshot/search-file.ts';
import { BASE_URL, catalogueOf, modelOf, rawChannel, rawPlaylist, rawVideo, tempDirs, video } from '../support/fixtures.ts';
import { readManifest, readTree, runSql, smallCatalogue, writeCatalogueFile } from '../support/snapshots.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const WORDS = ['python', 'pandas', 'pytest', 'asyncio', 'café', 'naïve', 'données', 'Москва', '東京の会議', 'ข้อมูล', 'typing', 'django'];
/** The small catalogue and 60 videos whose text mixes scripts, accents and repeated words. */
const catalogue = () => [
  ...smallCatalogue(),
  rawChannel('carol', { displayName: 'Carol Café', description: 'Talks about données and naïve code' }),
  ...Array.from({ length: 60 }, (_, i) => rawVideo(`w${i}`, {
    category: i % 2 === 0 ? 'music' : 'tech',
    channel: ['alice', 'bob', 'carol'][i % 3]!,
    title: `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} talk ${i}`,
    tags: [WORDS[(i * 5) % WORDS.length]!, 'conference'],
    publishedAt: `2026-03-${String((i % 28) + 1).padStart(2, '0')}T10:00:00Z`,
    description: `${WORDS.slice(0, (i % WORDS.length) + 1).join(' ')}. ${'An hour on testing, typing and the event loop. '.repeat(i % 30)}`,
  })),
  rawPlaylist('plw', ['w1', 'w2', 'w3'], { title: 'Pytest and pandas', description: 'données' }),
];

const snapshotDir = (options: BuildOptions, id: string) => join(layoutOf(options.distDir).root, id);
const currentId = (options: BuildOptions) => readlinkSync(layoutOf(options.distDir).current);
const rootEntries = (options: BuildOptions) => readdirSync(layoutOf(options.distDir).root).sort();

function setup(): BuildOptions {
  const dir = dirs.make();
  return { catalogue: writeCatalogueFile(join(dir, 'catalogue.db'), catalogue()), distDir: join(dir, 'dist'), baseUrl: BASE_URL };
}

/** search.json as the main thread serialises it, from the model of the catalogue as the build reads it. */
function serialSearchBytes(options: BuildOptions): Buffer {
  const { catalogue } = readBuildInput(options.catalogue);
  const model = buildModel(catalogue, deriveCatalogue(catalogue), options.baseUrl);
  return Buffer.from(serialiseSearchIndex(buildSearchIndex(model)));
}

describe('the search index of a build', () => {
  it('is written on its worker byte for byte as the index serialised on the main thread, in a first build and after a change', async () => {
    const options = setup();
    const first = await buildSnapshot(options);
    expect(first.reuse.search).toBe(false);
    const written = readFileSync(join(snapshotDir(options, first.id), SEARCH_FILE));
    expect(written.equals(serialSearchBytes(options))).toBe(true);
    expect(readManifest(snapshotDir(options, first.id)).files[SEARCH_FILE]!.size).toBe(written.length);

    // an incremental build after a change that reaches the index builds it anew, the same way
    runSql(options.catalogue, "UPDATE videos SET title = 'Pandas after the change' WHERE id = 'w4'");
    const second = await buildSnapshot(options);
    expect(second.reuse.none).toBeUndefined();
    expect(second.reuse.search).toBe(false);
    const rewritten = readFileSync(join(snapshotDir(options, second.id), SEARCH_FILE));
    expect(rewritten.equals(written)).toBe(false);
    expect(rewritten.equals(serialSearchBytes(options))).toBe(true);
  });

  it('fails the build when its worker fails (out of its heap), removing what the build wrote and leaving the served snapshot serving', async () => {
    const options = setup();
    const good = await buildSnapshot(options);
    const served = readTree(snapshotDir(options, good.id));
    const before = rootEntries(options);
    // a catalogue whose index needs more heap than the worker is given: 2,000 descriptions of distinct words
    const words = (i: number) => Array.from({ length: 120 }, (_, j) => `w${((i * 7919 + j * 104729) % 1_000_003).toString(36)}q${j}`).join(' ');
    writeCatalogueFile(options.catalogue, Array.from({ length: 2000 }, (_, i) => rawVideo(`big${i}`, { category: 'tech', channel: 'alice', publishedAt: '2026-04-01T10:00:00Z', description: words(i).slice(0, 1000) })));
    await expect(buildSnapshot({ ...options, searchLimits: { maxOldGenerationSizeMb: 12 } })).rejects.toThrow(/search index could not be built.*memory/);
    expect(currentId(options)).toBe(good.id);
    expect(rootEntries(options)).toEqual(before); // no .building- folder, no lock, no new snapshot
    expect(readTree(snapshotDir(options, good.id))).toEqual(served);

    // and the next build, with the default heap, succeeds and serves the change
    const next = await buildSnapshot(options);
    expect(next.id).not.toBe(good.id);
    expect(currentId(options)).toBe(next.id);
    expect(readFileSync(join(snapshotDir(options, next.id), SEARCH_FILE)).equals(serialSearchBytes(options))).toBe(true);
  });

  it('rejects with the file system\'s error, its code kept, when the worker cannot write; a stopped worker writes nothing', async () => {
    const model = modelOf(catalogueOf({ videos: [video('v1', { title: 'Jazz piano' })] }));
    const missing = join(dirs.make(), 'gone', SEARCH_FILE);
    const failed = startSearchIndex(missing, model);
    await expect(failed.record).rejects.toThrow(/search index could not be built: ENOENT/);
    await expect(failed.record).rejects.toMatchObject({ code: 'ENOENT' });

    const file = join(dirs.make(), SEARCH_FILE);
    const stopped = startSearchIndex(file, model);
    await stopped.stop();
    await expect(stopped.record).rejects.toThrow(/worker stopped .* before writing search.json/);
    expect(existsSync(file)).toBe(false);
  });
});
