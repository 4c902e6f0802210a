// Builds from the catalogue's change log (src/catalogue/change-log.ts, src/snapshot/model-reuse.ts,
// served-model-data.ts, model-data.ts modelPieces; docs/architecture.md, "Builds from the change
// log"): a build that knows which records changed since the served snapshot copies the served model
// data lines and video keys of the others, and must still write exactly what a full build writes. A
// change made by hand SQL, bypassing every writer of the project, is caught by the log's triggers;
// when the log cannot be trusted, the build makes every line as before.
import { readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { changeLogTriggers } from '../../../src/catalogue/change-log.ts';
import { buildSnapshot, type BuildOptions, type BuildSummary } from '../../../src/snapshot/build-snapshot.ts';
import { layoutOf, MODEL_FILE } from '../../../src/snapshot/layout.ts';
import { readBuiltFrom } from '../../../src/snapshot/swap.ts';
import { BASE_URL, rawComment, tempDirs } from '../support/fixtures.ts';
import { buildFixture } from '../support/build-fixture.ts';
import { longVideos, readTree, runSql, smallCatalogue } from '../support/snapshots.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());
const sharedDirs = tempDirs();
afterAll(() => sharedDirs.cleanup());

/** The small catalogue, 30 more videos and comments on some of them. */
const catalogue = () => [
  ...smallCatalogue(),
  ...longVideos(30, (i) => `Video ${i}: ${'what happens in it. '.repeat(20)}`),
  ...Array.from({ length: 12 }, (_, i) => rawComment(`lc${i}`, `long${i % 4}`, { publishedAt: `2026-03-0${(i % 9) + 1}T00:00:00Z`, text: `comment ${i}` })),
];
/** Visible videos and published comments the build serves of it. */
const VIDEOS = 35;

const snapshotDir = (options: BuildOptions, id: string) => join(layoutOf(options.distDir).root, id);

const { built, fullBuildOf } = buildFixture(catalogue, BASE_URL, sharedDirs, dirs);

/** Builds after `sql`, checks the result is the full build's byte for byte (and `--full` names it), and returns the summary. */
async function rebuildAfter(sql: string): Promise<{ options: BuildOptions; after: BuildSummary }> {
  const { options } = await built();
  if (sql !== '') runSql(options.catalogue, sql);
  const after = await buildSnapshot(options);
  const full = await fullBuildOf(options);
  expect(full.summary.id).toBe(after.id);
  expect(readTree(snapshotDir(options, after.id))).toEqual(full.files);
  const again = await buildSnapshot({ ...options, full: true });
  expect(again.id).toBe(after.id);
  expect(again.changed).toBe(0);
  return { options, after };
}

describe('builds from the change log', () => {
  it('the first build records where the log stood beside the snapshot (built-from.json), never in it', async () => {
    const { options, summary } = await built();
    const builtFrom = readBuiltFrom(layoutOf(options.distDir).root)!;
    expect(builtFrom.snapshot).toBe(summary.id);
    expect(builtFrom.changeLog).toMatchObject({ log: expect.any(String), seq: expect.any(Number) });
    expect(summary.reuse.model.none).toBe('no snapshot is served yet');
    for (const [name, bytes] of readTree(snapshotDir(options, summary.id))) expect(bytes.includes(builtFrom.changeLog!.log), name).toBe(false);
  });

  it('a title changed by hand SQL: every other video line and key and every comment line copied, and the full build written', async () => {
    const { options, after } = await rebuildAfter("UPDATE videos SET title = 'A title by hand' WHERE id = 'long7'");
    expect(after.reuse.model).toEqual({ changed: 1, videoLines: VIDEOS - 1, commentLines: expect.any(Number), keys: VIDEOS - 1 });
    expect((after.reuse.model as { commentLines: number }).commentLines).toBeGreaterThan(12);
    expect(readFileSync(join(snapshotDir(options, after.id), MODEL_FILE), 'utf8')).toContain('A title by hand');
    expect(readBuiltFrom(layoutOf(options.distDir).root)!.changeLog!.seq).toBeGreaterThan(0);
  });

  it('a channel renamed: every line copied, but the keys of the channel\'s videos made anew', async () => {
    const { after } = await rebuildAfter("UPDATE channels SET display_name = 'Bob Renamed' WHERE username = 'bob'");
    // bob's videos (v2 and every third long video) have their keys made anew
    const model = after.reuse.model as { videoLines: number; keys: number; changed: number };
    expect(model.changed).toBe(1);
    expect(model.videoLines).toBe(VIDEOS);
    expect(model.keys).toBeLessThan(VIDEOS - 10);
  });

  it('a comment edited, one held back and one added: their video\'s key made anew, the other comment lines copied', async () => {
    const { after } = await rebuildAfter(`UPDATE comments SET text = 'edited by hand' WHERE id = 'lc1';
      UPDATE comments SET state = 'held' WHERE id = 'lc2';
      INSERT INTO comments (id, video_id, text, published_at, author_display_name, state) VALUES ('lc99', 'long9', 'new', '2026-03-09T00:00:00Z', 'Someone', 'published');`);
    const model = after.reuse.model as { videoLines: number; keys: number; changed: number };
    expect(model.videoLines).toBe(VIDEOS);
    expect(model.keys).toBe(VIDEOS - 3); // long1, long2 (lc1, lc2 are on them), long9
  });

  it('a comment moved to another video as the import writes it (INSERT OR REPLACE): the video it left is made anew too, and the full build is written', async () => {
    // the replaced row is removed without the delete trigger: the log names the video it was on by a BEFORE trigger
    const { after } = await rebuildAfter(`INSERT OR REPLACE INTO comments (id, video_id, parent_id, text, published_at, author_display_name, state)
      SELECT id, 'long9', parent_id, text, published_at, author_display_name, state FROM comments WHERE id = 'lc1'`);
    const model = after.reuse.model as { videoLines: number; keys: number };
    expect(model.keys).toBe(VIDEOS - 2); // long1 (lc1 was on it) and long9
  });

  it('a video made private, and a video removed: trending and related change, so no video line is copied, and the full build is written', async () => {
    const { after } = await rebuildAfter(`UPDATE videos SET privacy = 'private' WHERE id = 'long3';
      DELETE FROM videos WHERE id = 'long5'; DELETE FROM video_tags WHERE video_id = 'long5'; DELETE FROM comments WHERE video_id = 'long5';`);
    const model = after.reuse.model as { videoLines: number; keys: number; commentLines: number };
    expect(after.reuse.derived).toBe(false);
    expect(model.videoLines).toBe(0);
    expect(model.keys).toBe(VIDEOS - 2);
    expect(model.commentLines).toBeGreaterThan(0);
  });

  it('nothing changed: the served snapshot is the result, and the next build still has a mark', async () => {
    const { options, after } = await rebuildAfter('');
    expect(after.reuse.model).toEqual({ changed: 0, videoLines: VIDEOS, commentLines: expect.any(Number), keys: VIDEOS });
    expect(readBuiltFrom(layoutOf(options.distDir).root)!.snapshot).toBe(after.id);
  });

  it('makes every line when the log is missing, started again, or behind the mark, or the mark is of another snapshot: still the full build', async () => {
    {
      // a hand edit of a catalogue without the log (as one older than schema 4, never opened for writing since)
      const { options } = await built();
      const db = new Database(options.catalogue);
      for (const name of changeLogTriggers()) db.exec(`DROP TRIGGER "${name}"`);
      db.exec("DROP TABLE change_log; UPDATE videos SET title = 'x' WHERE id = 'long1'");
      db.close();
      const after = await buildSnapshot(options);
      expect(after.reuse.model.none).toMatch(/no change log/);
      expect((await fullBuildOf(options)).summary.id).toBe(after.id);
    }
    for (const [sql, why] of [
      ["UPDATE videos SET title = 'y' WHERE id = 'long1'; DELETE FROM change_log; UPDATE meta SET value = 'another' WHERE key = 'change_log'", /not the one/],
      ["UPDATE videos SET title = 'z' WHERE id = 'long1'; DELETE FROM sqlite_sequence WHERE name = 'change_log'", /behind/],
    ] as const) {
      const { options } = await built();
      // runSql opens the catalogue for writing, which makes a missing log again (empty, under a new id)
      runSql(options.catalogue, sql);
      const after = await buildSnapshot(options);
      expect(after.reuse.model.none).toMatch(why);
      expect((await fullBuildOf(options)).summary.id).toBe(after.id);
    }
    const { options } = await built();
    const root = layoutOf(options.distDir).root;
    const builtFrom = readBuiltFrom(root)!;
    writeFileSync(join(root, 'built-from.json'), JSON.stringify({ ...builtFrom, snapshot: 'another' }));
    runSql(options.catalogue, "UPDATE videos SET title = 'w' WHERE id = 'long1'");
    // another snapshot's mark: the served snapshot is not reused at all (choose-previous.ts), nor its model data
    const other = await buildSnapshot(options);
    expect(other.reuse.model.none).toBe(other.reuse.none);
    expect(other.reuse.model.none).toMatch(/built by other code/);
  });

  it('makes every line when the served model data is not the file its manifest records, and writes the full build', async () => {
    const { options } = await built();
    const file = join(snapshotDir(options, readlinkSync(layoutOf(options.distDir).current)), MODEL_FILE);
    // the same size, one byte changed: only its SHA-256 tells
    const bytes = readFileSync(file);
    bytes[bytes.indexOf('comment 1')] = 'C'.charCodeAt(0);
    writeFileSync(file, bytes);
    runSql(options.catalogue, "UPDATE videos SET title = 'v' WHERE id = 'long2'");
    const after = await buildSnapshot(options);
    expect(after.reuse.model.none).toMatch(/not the file its manifest records/);
    expect((await fullBuildOf(options)).summary.id).toBe(after.id);
  });
});

describe('trending and related taken from the served snapshot by the change log (derive-worker.ts: only the videos it names are read)', () => {
  // every build below is compared with a full build byte for byte, derived.bin and every line included
  for (const [what, sql] of [
    ['a title', "UPDATE videos SET title = 'A title by hand' WHERE id = 'long7'"],
    ['a count set back', "UPDATE videos SET views = views + 5 WHERE id = 'long4'; UPDATE videos SET views = views - 5 WHERE id = 'long4'"],
    ['a video made private and public again', "UPDATE videos SET privacy = 'private' WHERE id = 'long6'; UPDATE videos SET privacy = 'public' WHERE id = 'long6'"],
    ['a description, and tags written as they were', "UPDATE videos SET description = 'new' WHERE id = 'v1'; UPDATE video_tags SET tag = tag WHERE video_id = 'v1'"],
  ] as const) {
    it(`are taken when the videos the log names keep their fields: ${what}`, async () => {
      const { after } = await rebuildAfter(sql);
      expect(after.reuse.derived).toBe(true);
    });
  }

  for (const [what, sql] of [
    ['views', "UPDATE videos SET views = views + 1000 WHERE id = 'long4'"],
    ['likes', "UPDATE videos SET likes = coalesce(likes, 0) + 3 WHERE id = 'long8'"],
    ['a tag added', "INSERT INTO video_tags (video_id, position, tag) VALUES ('long2', 50, 'a new tag')"],
    ['a tag removed', "DELETE FROM video_tags WHERE video_id = 'v1' AND position = 0"],
    ['the published date', "UPDATE videos SET published_at = '2026-03-30T10:00:00Z' WHERE id = 'long9'"],
    ['a category', "UPDATE videos SET category = 'tech' WHERE id = 'long0'"],
    ['a video made private', "UPDATE videos SET privacy = 'private' WHERE id = 'long3'"],
    ['a video made unlisted', "UPDATE videos SET privacy = 'unlisted' WHERE id = 'long11'"],
    ['a video added', "INSERT INTO videos (id, channel, title, published_at, privacy, views, likes) VALUES ('added', 'alice', 'Added', '2026-03-01T00:00:00Z', 'public', 3, 1)"],
  ] as const) {
    it(`are computed when a field they read changed: ${what}`, async () => {
      const { after } = await rebuildAfter(sql);
      expect(after.reuse.derived).toBe(false);
    });
  }
});
