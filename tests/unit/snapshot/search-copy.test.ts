// When a rebuild copies the served search.json (src/snapshot/search-file.ts copySearchIndex): only
// when its search documents are the served ones (the keys and digests of the served digests file),
// so a change of counts or comments copies it and a change of any indexed text patches it; either
// way the snapshot is the one a full build of the same catalogue makes (same id). A served copy that
// fails its check, and a served snapshot without the digests file (of older code), are never
// copied or patched from.
import { readFileSync, readlinkSync, renameSync, symlinkSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildModel, deriveCatalogue } from '../../../src/model/build-model.ts';
import { searchSources } from '../../../src/search/documents.ts';
import { documentDigests, parseDigests } from '../../../src/search/document-digests.ts';
import { DESCRIPTION_BYTES, packSources, sourcesOf } from '../../../src/search/packed-documents.ts';
import { SEARCH_DIGESTS_FILE } from '../../../src/snapshot/search-file.ts';
import { buildSnapshot, type BuildOptions, type BuildSummary } from '../../../src/snapshot/build-snapshot.ts';
import { layoutOf, MANIFEST_FILE, SEARCH_FILE } from '../../../src/snapshot/layout.ts';
import { SNAPSHOT_ID_LENGTH } from '../../../src/snapshot/manifest.ts';
import { readBuildInput } from '../../../src/snapshot/read-build-input.ts';
import { readBuiltFrom, recordBuiltFrom } from '../../../src/snapshot/swap.ts';
import { createHash } from 'node:crypto';
import { BASE_URL, rawChannel, rawComment, rawPlaylist, rawVideo, tempDirs } from '../support/fixtures.ts';
import { readManifest, runSql, serialSearchBytes, smallCatalogue, writeCatalogueFile } from '../support/snapshots.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/** The small catalogue, a third channel, 24 videos of mixed text (one with a description longer than the index reads) and their comments. */
const catalogue = () => [
  ...smallCatalogue(),
  rawChannel('carol', { displayName: 'Carol Café', description: 'Talks about données' }),
  ...Array.from({ length: 24 }, (_, i) => rawVideo(`s${i}`, {
    category: i % 2 === 0 ? 'music' : 'tech',
    channel: ['alice', 'bob', 'carol'][i % 3]!,
    title: `${['python', 'pandas', 'Москва', 'café'][i % 4]} talk ${i}`,
    tags: [`tag${i % 5}`, 'conference'],
    views: 10 * i,
    likes: i,
    publishedAt: `2026-03-${String((i % 28) + 1).padStart(2, '0')}T10:00:00Z`,
    description: i === 0 ? 'y'.repeat(DESCRIPTION_BYTES + 500) : `About asyncio and typing, part ${i}.`,
  })),
  rawPlaylist('pls', ['s1', 's2'], { title: 'Pandas talks' }),
  ...Array.from({ length: 6 }, (_, i) => rawComment(`sc${i}`, `s${i}`, { publishedAt: '2026-03-29T00:00:00Z' })),
];

const snapshotDir = (options: BuildOptions, id: string) => join(layoutOf(options.distDir).root, id);

function setup(): BuildOptions {
  const dir = dirs.make();
  return { catalogue: writeCatalogueFile(join(dir, 'catalogue.db'), catalogue()), distDir: join(dir, 'dist'), baseUrl: BASE_URL };
}

let revisions = 0;
/** a test of many changes: two builds each (a few seconds on a loaded machine) */
const LONG = 240_000;

/** Applies `sql` as an import does (a new revision), rebuilds, and checks the result against a full build of the same catalogue in a fresh folder. */
async function changeAndRebuild(options: BuildOptions, sql: string, label: string): Promise<BuildSummary> {
  runSql(options.catalogue, `${sql}; INSERT OR REPLACE INTO meta (key, value) VALUES ('revision', 'change ${++revisions}')`);
  const incremental = await buildSnapshot(options);
  expect(incremental.reuse.none, label).toBeUndefined();
  const fresh = { ...options, distDir: join(dirs.make(), 'dist') };
  const full = await buildSnapshot({ ...fresh, full: true });
  expect(full.reuse.search, label).toBe(false);
  expect(incremental.id, label).toBe(full.id);
  const written = readFileSync(join(snapshotDir(options, incremental.id), SEARCH_FILE));
  expect(written.equals(readFileSync(join(snapshotDir(fresh, full.id), SEARCH_FILE))), label).toBe(true);
  expect(written.equals(serialSearchBytes(options)), label).toBe(true);
  return incremental;
}

const searchRecord = (options: BuildOptions, id: string) => readManifest(snapshotDir(options, id)).files[SEARCH_FILE]!;
/** the number of video documents of a snapshot's index */
const videoDocuments = (options: BuildOptions, id: string) => parseDigests(readFileSync(join(snapshotDir(options, id), SEARCH_DIGESTS_FILE), 'utf8')).videos.keys.length;
/** the SHA-256 of the digests file the manifest records: the same documents, the same file */
const documentsRecord = (options: BuildOptions, id: string) => readManifest(snapshotDir(options, id)).files[SEARCH_DIGESTS_FILE]?.sha256;

describe('the served search index copied by a rebuild', () => {
  it('records beside search.json the keys and digests of the documents it was built from', async () => {
    const options = setup();
    const built = await buildSnapshot(options);
    const { catalogue: read } = readBuildInput(options.catalogue);
    const model = buildModel(read, deriveCatalogue(read), options.baseUrl);
    const file = readFileSync(join(snapshotDir(options, built.id), SEARCH_DIGESTS_FILE));
    expect(readManifest(snapshotDir(options, built.id)).files[SEARCH_DIGESTS_FILE]).toEqual({ size: file.length, sha256: createHash('sha256').update(file).digest('hex') });
    const digests = parseDigests(file.toString('utf8'));
    expect(digests).toEqual(documentDigests(sourcesOf(packSources(searchSources(model)))));
    expect(digests.videos.keys).toEqual(model.orders.latest.map((e) => e.video.id));
    expect(Object.keys(searchRecord(options, built.id))).toEqual(['size', 'sha256']);
  });

  it('is copied after a change of views, likes, comments or an unindexed part of a description, each rebuild the full build\'s snapshot', async () => {
    const options = setup();
    const first = await buildSnapshot(options);
    const digest = documentsRecord(options, first.id);
    const changes = [
      ['views', "UPDATE videos SET views = views + 1000 WHERE id IN ('s3', 's7', 'v1')"],
      ['a comment added', "INSERT INTO comments (id, video_id, text, published_at, author_display_name, state) VALUES ('scnew', 's4', 'A new comment about pandas', '2026-03-30T00:00:00Z', 'Someone', 'published')"],
      ['likes', "UPDATE videos SET likes = coalesce(likes, 0) + 3 WHERE id = 's8'"],
      ['a comment\'s text', "UPDATE comments SET text = 'Edited: now about Москва' WHERE id = 'sc2'"],
      ['a comment removed', "DELETE FROM comments WHERE id = 'sc3'"],
      // the index reads a description's first DESCRIPTION_BYTES bytes at most (packed-documents.ts): a change past them is not indexed
      ['a description past its indexed part', `UPDATE videos SET description = '${'y'.repeat(DESCRIPTION_BYTES + 400)}zz' WHERE id = 's0'`],
    ] as const;
    let previous = first.id;
    for (const [label, sql] of changes) {
      const rebuilt = await changeAndRebuild(options, sql, label);
      expect(rebuilt.id, label).not.toBe(previous);
      expect(rebuilt.reuse.search, label).toBe(true);
      expect(documentsRecord(options, rebuilt.id), label).toBe(digest);
      previous = rebuilt.id;
    }
  }, LONG);

  it('is patched after a change of a title, a tag, a description, a privacy or a channel\'s name, each rebuild the full build\'s snapshot', async () => {
    const options = setup();
    const first = await buildSnapshot(options);
    const digests = new Set([documentsRecord(options, first.id)]);
    const changes = [
      ['a title', "UPDATE videos SET title = 'Pandas, renamed' WHERE id = 's5'"],
      ['a tag', "UPDATE video_tags SET tag = 'a new tag' WHERE video_id = 's6' AND position = 0"],
      ['a description', "UPDATE videos SET description = 'Now about Москва' WHERE id = 's9'"],
      ['a description within its indexed part', `UPDATE videos SET description = 'x${'y'.repeat(DESCRIPTION_BYTES + 499)}' WHERE id = 's0'`],
      ['a privacy', "UPDATE videos SET privacy = 'private' WHERE id = 's10'"],
      ['a channel\'s name', "UPDATE channels SET display_name = 'Carol Naïve' WHERE username = 'carol'"],
      // the worker, handed the changed documents alone, cannot index the videos whole: it is handed every one
      ['a date that moves a video among the newest', "UPDATE videos SET published_at = '2026-03-31T10:00:00Z' WHERE id = 's2'"],
    ] as const;
    for (const [label, sql] of changes) {
      const rebuilt = await changeAndRebuild(options, sql, label);
      expect(rebuilt.reuse.search, label).toBe(false);
      expect(rebuilt.reuse.searchIndexed, label).toBeDefined();
      // the changed documents alone, or every video when one moved in the order
      expect(rebuilt.reuse.searchIndexed, label).toBe(label.startsWith('a date') ? videoDocuments(options, rebuilt.id) : label.startsWith('a channel') ? 9 : label === 'a privacy' ? 0 : 1);
      const digest = documentsRecord(options, rebuilt.id);
      expect(digests.has(digest), label).toBe(false);
      digests.add(digest);
    }
  }, LONG);

  it('is not copied when the served search.json is truncated or its bytes changed: the index is built, the full build\'s', async () => {
    const options = setup();
    const first = await buildSnapshot(options);
    const served = join(snapshotDir(options, first.id), SEARCH_FILE);
    const bytes = readFileSync(served);

    truncateSync(served, bytes.length - 7);
    const afterTruncated = await changeAndRebuild(options, "UPDATE videos SET views = views + 1 WHERE id = 's1'", 'views, served index truncated');
    expect(afterTruncated.reuse.search).toBe(false);

    const servedNow = join(snapshotDir(options, afterTruncated.id), SEARCH_FILE);
    const changed = readFileSync(servedNow);
    changed[changed.length >> 1] = changed[changed.length >> 1]! ^ 1;
    writeFileSync(servedNow, changed);
    const afterChanged = await changeAndRebuild(options, "UPDATE videos SET views = views + 1 WHERE id = 's2'", 'views, served index changed');
    expect(afterChanged.reuse.search).toBe(false);

    // and with the served copy whole again, the next such change copies it
    const copied = await changeAndRebuild(options, "UPDATE videos SET views = views + 1 WHERE id = 's3'", 'views, served index whole');
    expect(copied.reuse.search).toBe(true);
  }, LONG);

  it('is not copied or patched from a served snapshot whose manifest records no digests file (built by older code): the index is built whole, the full build\'s', async () => {
    const options = setup();
    const first = await buildSnapshot(options);
    const older = asOlderSnapshot(options, first.id);
    expect(older).not.toBe(first.id);
    const rebuilt = await changeAndRebuild(options, "UPDATE videos SET views = views + 1000 WHERE id = 's3'", 'views, older served snapshot');
    // the rest of the older snapshot was reused: only the index was not
    expect(rebuilt.reuse.none).toBeUndefined();
    expect(rebuilt.reuse.search).toBe(false);
    expect(rebuilt.reuse.searchIndexed).toBeUndefined();
    expect(documentsRecord(options, rebuilt.id)).toMatch(/^[0-9a-f]{64}$/);
  });
});

/**
 * Makes the served snapshot `id` into the one older code would have built of the same catalogue:
 * its manifest without the record of the digests file, so a new manifest, hence a new id (its
 * folder renamed, `current` and built-from.json pointed at it). Returns the new id.
 */
function asOlderSnapshot(options: BuildOptions, id: string): string {
  const { root, current } = layoutOf(options.distDir);
  const file = join(root, id, MANIFEST_FILE);
  const text = readFileSync(file, 'utf8');
  const newline = text.indexOf('\n');
  const head = text.slice(0, newline);
  const record = /"search-documents\.json":\{[^}]*\},/.exec(head)!;
  const older = head.replace(record[0], '') + text.slice(newline);
  expect(older).not.toBe(text);
  writeFileSync(file, older);
  const olderId = createHash('sha256').update(older).digest('hex').slice(0, SNAPSHOT_ID_LENGTH);
  renameSync(join(root, id), join(root, olderId));
  expect(readlinkSync(current)).toBe(id);
  rmSync(current);
  symlinkSync(olderId, current);
  recordBuiltFrom(root, { ...readBuiltFrom(root)!, snapshot: olderId });
  const servedList = join(root, 'served.json');
  writeFileSync(servedList, JSON.stringify([olderId]));
  return olderId;
}
