// The search index of a build (src/snapshot/search-file.ts, search-index-worker.ts): written on a
// worker thread while the pages are rendered, it must hold exactly the bytes the index serialised
// on the main thread holds, and a worker that fails must fail the build as any other step does:
// nothing of it left, the served snapshot untouched.
import { existsSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resetChangeLog } from '../../../src/catalogue/change-log.ts';
import { parseDigests } from '../../../src/search/document-digests.ts';
import { openCatalogue } from '../../../src/catalogue/open-catalogue.ts';
import { buildSnapshot, type BuildOptions } from '../../../src/snapshot/build-snapshot.ts';
import { layoutOf, SEARCH_FILE } from '../../../src/snapshot/layout.ts';
import { packSearchDocuments, SEARCH_DIGESTS_FILE, startSearchWorker } from '../../../src/snapshot/search-file.ts';
import { BASE_URL, catalogueOf, modelOf, rawChannel, rawPlaylist, rawVideo, tempDirs, video } from '../support/fixtures.ts';
import { readManifest, readTree, runSql, serialSearchBytes, smallCatalogue, writeCatalogueFile } from '../support/snapshots.ts';

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

  it('is copied when the search documents are the served snapshot\'s, decided before the model data is written from the documents the change log names (no worker started); patched, then built whole, when the served copy is damaged', async () => {
    const options = setup();
    const first = await buildSnapshot(options);
    const served = join(snapshotDir(options, first.id), SEARCH_FILE);
    const bytes = readFileSync(served);
    const building = async () => {
      const lines: string[] = [];
      const summary = await buildSnapshot({ ...options, onProgress: (line) => lines.push(line) });
      const at = (pattern: RegExp) => lines.findIndex((line) => pattern.test(line));
      return { summary, lines, started: at(/search index started/), modelData: at(/model data made/), copied: at(/search index copied/) };
    };
    const packed = (line: string | undefined) => Number(/\((\d+) packed\)/.exec(line ?? '')?.[1]);

    // nothing changed since the served snapshot: no document packed, the index copied before the model data, no worker started
    const same = await building();
    expect(same.summary.id).toBe(first.id);
    expect(same.summary.reuse.search).toBe(true);
    expect(same.started).toBe(-1);
    expect(same.copied).toBeGreaterThan(-1);
    expect(same.copied).toBeLessThan(same.modelData);
    expect(packed(same.lines[same.copied])).toBe(0);
    expect(readFileSync(served).equals(bytes)).toBe(true);

    // a view count changed: that video's document alone is packed, its digest the served one's: copied
    runSql(options.catalogue, "UPDATE videos SET views = views + 1 WHERE id = 'w7'; INSERT OR REPLACE INTO meta (key, value) VALUES ('revision', 'views')");
    const views = await building();
    expect(views.summary.reuse.search).toBe(true);
    expect(views.started).toBe(-1);
    expect(packed(views.lines[views.copied])).toBe(1);
    expect(readFileSync(join(snapshotDir(options, views.summary.id), SEARCH_FILE)).equals(bytes)).toBe(true);

    // a change log that cannot be trusted (started again): every document packed, their digests the served ones: copied
    const db = openCatalogue(options.catalogue);
    resetChangeLog(db);
    db.close();
    const reset = await building();
    expect(reset.summary.reuse.search).toBe(true);
    const documents = parseDigests(readFileSync(join(snapshotDir(options, first.id), SEARCH_DIGESTS_FILE), 'utf8'));
    expect(packed(reset.lines[reset.copied])).toBe(documents.videos.keys.length + documents.channels.keys.length + documents.playlists.keys.length);
    expect(rootEntries(options).filter((e) => e.startsWith('.building-'))).toEqual([]);

    // a served search.json damaged in place is refused as a source: the worker, handed no document, cannot patch it, is
    // handed every document, and builds the index whole: the full build's bytes
    const current = join(snapshotDir(options, reset.summary.id), SEARCH_FILE);
    const damaged = Buffer.from(bytes);
    damaged[damaged.length - 10] = damaged[damaged.length - 10]! ^ 1;
    writeFileSync(current, damaged);
    const rebuilt = await building();
    expect(rebuilt.summary.reuse.search).toBe(false);
    expect(rebuilt.copied).toBe(-1);
    expect(rebuilt.started).toBeGreaterThan(-1);
    expect(rebuilt.started).toBeLessThan(rebuilt.modelData);
    expect(rebuilt.lines.join('\n')).toMatch(/could not be patched \(the served search.json does not match its manifest\), and not every document was packed: every document packed/);
    expect(rebuilt.lines.join('\n')).toMatch(/built whole \(the served one could not be patched: the served search.json does not match its manifest\)/);
    expect(rebuilt.summary.id).toBe(reset.summary.id);
    expect(readFileSync(join(snapshotDir(options, rebuilt.summary.id), SEARCH_FILE)).equals(bytes)).toBe(true);
    expect(readFileSync(join(snapshotDir(options, rebuilt.summary.id), SEARCH_FILE)).equals(serialSearchBytes(options))).toBe(true);
  });

  it('holds after an incremental build the bytes a full build writes, whatever changed: a title, a description, tags, added, removed and privated videos, a channel renamed', async () => {
    const options = setup();
    await buildSnapshot(options);
    const changes = [
      "UPDATE videos SET title = 'Pytest, renamed' WHERE id = 'w4'",
      // a description and tags in one change (one build more than before, not two: the test's time)
      "UPDATE videos SET description = 'Now about asyncio in Москва' WHERE id = 'w5'; UPDATE video_tags SET tag = 'a new tag' WHERE video_id = 'w6' AND position = 0",
      "UPDATE videos SET privacy = 'private' WHERE id = 'w9'",
      "DELETE FROM videos WHERE id = 'w10'",
      "UPDATE channels SET display_name = 'Carol Naïve' WHERE username = 'carol'",
    ];
    // the documents each change indexes anew when the served index is patched: the changed ones alone
    // (a private or removed video is only dropped; a renamed channel's videos and the channel itself)
    const indexed = [1, 2, 0, 0, undefined];
    for (const [i, sql] of changes.entries()) {
      // with a new revision, as an import makes: the index is started before the model data is written
      runSql(options.catalogue, `${sql}; INSERT OR REPLACE INTO meta (key, value) VALUES ('revision', 'change ${i}')`);
      const incremental = await buildSnapshot(options);
      expect(incremental.reuse.none).toBeUndefined();
      expect(incremental.reuse.search).toBe(false);
      expect(incremental.reuse.searchIndexed).toBeDefined();
      expect(incremental.reuse.searchIndexed).toBeLessThan(incremental.videos);
      if (indexed[i] !== undefined) expect(incremental.reuse.searchIndexed, sql).toBe(indexed[i]);
      const fresh = { ...options, distDir: join(dirs.make(), 'dist') };
      const full = await buildSnapshot({ ...fresh, full: true });
      expect(full.id).toBe(incremental.id);
      const written = readFileSync(join(snapshotDir(options, incremental.id), SEARCH_FILE));
      expect(written.equals(readFileSync(join(snapshotDir(fresh, full.id), SEARCH_FILE)))).toBe(true);
      expect(written.equals(serialSearchBytes(options))).toBe(true);
    }
    // an added video
    writeCatalogueFile(options.catalogue, [rawVideo('added', { channel: 'carol', title: 'An added talk on asyncio', publishedAt: '2026-03-30T10:00:00Z' })]);
    const added = await buildSnapshot(options);
    expect(added.reuse.searchIndexed).toBe(1);
    const fresh = { ...options, distDir: join(dirs.make(), 'dist') };
    expect((await buildSnapshot({ ...fresh, full: true })).id).toBe(added.id);
    expect(readFileSync(join(snapshotDir(options, added.id), SEARCH_FILE)).equals(serialSearchBytes(options))).toBe(true);
  });

  it('is built whole, the full build\'s bytes, when the served digests of its documents are damaged or missing', async () => {
    const options = setup();
    const first = await buildSnapshot(options);
    const digestsFile = join(snapshotDir(options, first.id), SEARCH_DIGESTS_FILE);
    expect(readManifest(snapshotDir(options, first.id)).files[SEARCH_DIGESTS_FILE]!.size).toBe(readFileSync(digestsFile).length);
    const cases: [string, (id: string) => void][] = [
      ['does not match its manifest', (id) => {
        const file = join(snapshotDir(options, id), SEARCH_DIGESTS_FILE);
        const bytes = readFileSync(file);
        bytes[20] = bytes[20]! ^ 1;
        writeFileSync(file, bytes);
      }],
      ['ENOENT', (id) => rmSync(join(snapshotDir(options, id), SEARCH_DIGESTS_FILE))],
    ];
    let served = first.id;
    for (const [i, [reason, damage]] of cases.entries()) {
      damage(served);
      runSql(options.catalogue, `UPDATE videos SET title = 'Pytest, renamed ${i}' WHERE id = 'w4'; INSERT OR REPLACE INTO meta (key, value) VALUES ('revision', 'damaged ${i}')`);
      const said: string[] = [];
      const rebuilt = await buildSnapshot({ ...options, onProgress: (m) => said.push(m) });
      expect(rebuilt.reuse.searchIndexed, reason).toBeUndefined();
      expect(said.join('\n')).toMatch(new RegExp(`the served search documents' digests cannot be used \\(.*${reason}.*\\): every document packed`));
      expect(said.join('\n')).toMatch(/search index written on its worker thread, built whole:/);
      const fresh = { ...options, distDir: join(dirs.make(), 'dist') };
      expect((await buildSnapshot({ ...fresh, full: true })).id).toBe(rebuilt.id);
      expect(readFileSync(join(snapshotDir(options, rebuilt.id), SEARCH_FILE)).equals(serialSearchBytes(options))).toBe(true);
      served = rebuilt.id;
    }
    // the next rebuild patches again, from the digests the last build wrote
    runSql(options.catalogue, "UPDATE videos SET title = 'Pytest, renamed again' WHERE id = 'w4'; INSERT OR REPLACE INTO meta (key, value) VALUES ('revision', 'again')");
    expect((await buildSnapshot(options)).reuse.searchIndexed).toBe(1);
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
    // as the build starts it: the worker first, then the documents packed and handed to it
    const failed = startSearchWorker(missing);
    failed.index({ documents: packSearchDocuments(model), complete: true });
    await expect(failed.record).rejects.toThrow(/search index could not be built: ENOENT/);
    await expect(failed.record).rejects.toMatchObject({ code: 'ENOENT' });

    const file = join(dirs.make(), SEARCH_FILE);
    const stopped = startSearchWorker(file);
    stopped.index({ documents: packSearchDocuments(model), complete: true });
    await stopped.stop();
    await expect(stopped.record).rejects.toThrow(/worker stopped .* before writing search.json/);
    expect(existsSync(file)).toBe(false);
  });
});
