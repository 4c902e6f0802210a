// Incremental builds (src/snapshot/build-snapshot.ts with previous-snapshot.ts and page-writer.ts):
// a build that starts from the served snapshot must write exactly what a full build of the same
// catalogue writes, reuse the variants of the pages that did not change, never copy from a damaged
// snapshot, and list exactly the URLs whose bodies changed.
import { cpSync, openSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, truncateSync, utimesSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { MIN_COMPRESSIBLE } from '../../../src/http/encoding.ts';
import { openCatalogue } from '../../../src/catalogue/open-catalogue.ts';
import { buildSnapshot, type BuildOptions, type BuildSummary } from '../../../src/snapshot/build-snapshot.ts';
import { layoutOf, pageFileName } from '../../../src/snapshot/layout.ts';
import { readSiteFileStamps } from '../../../src/snapshot/site-file-stamps.ts';
import { readBuiltFrom } from '../../../src/snapshot/swap.ts';
import { BASE_URL, tempDirs } from '../support/fixtures.ts';
import { buildFixture } from '../support/build-fixture.ts';
import { longVideos, readBodies, readManifest, readTree, runSql, smallCatalogue } from '../support/snapshots.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());
const sharedDirs = tempDirs();
afterAll(() => sharedDirs.cleanup());

/** The small catalogue and 40 more videos with long descriptions, so that many pages are compressed. */
const catalogue = () => [
  ...smallCatalogue(),
  ...longVideos(40, (i) => `Video ${i}: ${'a long description of what happens in it. '.repeat(40)}`),
];

const snapshotDir = (options: BuildOptions, id: string) => join(layoutOf(options.distDir).root, id);
const currentId = (options: BuildOptions) => readlinkSync(layoutOf(options.distDir).current);
const isSiteFile = (url: string) => /^[^?]*\/(sitemap\.xml|sitemaps\/|feeds\/)/.test(url.slice(BASE_URL.length));
const changedUrls = (summary: BuildSummary) => (summary.changesFile ? readFileSync(summary.changesFile, 'utf8').split('\n').filter(Boolean) : []);

const { built, fullBuildOf } = buildFixture(catalogue, BASE_URL, sharedDirs, dirs);

/** The pages whose identity bodies differ between two snapshots (or exist in one only). */
function differing(options: BuildOptions, a: string, b: string): string[] {
  const before = readBodies(snapshotDir(options, a));
  const after = readBodies(snapshotDir(options, b));
  return [...new Set([...before.keys(), ...after.keys()])].filter((key) => !before.get(key)?.equals(after.get(key) ?? Buffer.alloc(0))).sort();
}

describe('incremental builds', () => {
  it('a first build reuses nothing and says why', async () => {
    const { summary } = await built();
    // every sitemap and feed is new to the CDN: the purge list names them all
    const stamps = readSiteFileStamps(snapshotDir((await built()).options, summary.id))!;
    expect(stamps.size).toBeGreaterThan(4);
    expect(stamps.has('/sitemap.xml')).toBe(true);
    for (const key of stamps.keys()) expect(changedUrls(summary)).toContain(`${BASE_URL}${key}`);
    expect(summary.reuse.none).toBe('no snapshot is served yet');
    expect(summary.reuse.pages).toBe(0);
    expect(summary.reuse.compressed).toBeGreaterThan(40);
  });

  it('after a change, writes byte for byte what a full build writes, recompressing only the pages that changed', async () => {
    const { options, summary: before } = await built();
    runSql(options.catalogue, "UPDATE videos SET title = 'A new title' WHERE id = 'long7'");
    const after = await buildSnapshot(options);
    expect(after.id).not.toBe(before.id);
    expect(after.reuse.none).toBeUndefined();

    const changed = differing(options, before.id, after.id);
    expect(changed).toContain('/v1/videos/long7');
    expect(changed.length).toBeLessThan(after.pages / 2);
    // every page that did not change was reused; the ones that did and are large enough were compressed
    const bodies = readBodies(snapshotDir(options, after.id));
    expect(after.reuse.pages).toBe(after.pages - changed.length);
    expect(after.reuse.compressed).toBe(changed.filter((key) => bodies.get(key)!.length >= MIN_COMPRESSIBLE).length);
    expect(after.reuse.compressed).toBeGreaterThan(0);
    // every page whose inputs did not change was copied unrendered: all but the pages that changed
    // and long7's playback and comments (its record changed, their bytes did not)
    expect(after.reuse.copied).toBe(after.reuse.pages - 2);
    // the pages that changed, then the sitemaps and feeds whose bytes changed (site-file-stamps.ts)
    const sitePaths = changedUrls(after).filter((url) => isSiteFile(url));
    expect(changedUrls(after).filter((url) => !isSiteFile(url))).toEqual(changed.map((key) => `${BASE_URL}${key}`));
    expect(sitePaths).toContain(`${BASE_URL}/feeds/channels/alice.xml`); // long7's channel: its feed shows the title
    expect(sitePaths).toContain(`${BASE_URL}/sitemaps/videos-1.xml`); // the video sitemap carries the title
    expect(sitePaths).not.toContain(`${BASE_URL}/feeds/channels/bob.xml`);
    const before_ = readSiteFileStamps(snapshotDir(options, before.id))!;
    const after_ = readSiteFileStamps(snapshotDir(options, after.id))!;
    expect(sitePaths).toEqual([...after_.keys()].filter((key) => before_.get(key) !== after_.get(key)).map((key) => `${BASE_URL}${key}`));

    // a title is none of trending's and related's fields: their numbers were taken from the served snapshot,
    // whose derived.bin is then this snapshot's, hard-linked (the full build below writes the same bytes)
    expect(after.reuse.derived).toBe(true);
    expect(statSync(join(snapshotDir(options, after.id), 'derived.bin')).ino).toBe(statSync(join(snapshotDir(options, before.id), 'derived.bin')).ino);

    const full = await fullBuildOf(options);
    expect(full.summary.id).toBe(after.id);
    expect(full.summary.reuse.pages).toBe(0);
    expect(full.summary.reuse.derived).toBe(false);
    expect(readTree(snapshotDir(options, after.id))).toEqual(full.files);

    // and `--full` in the same deployment names the same snapshot
    const again = await buildSnapshot({ ...options, full: true });
    expect(again.id).toBe(after.id);
    expect(again.reuse.none).toMatch(/full build/);
    expect(again.reuse.pages).toBe(0);
  });

  it('an unchanged catalogue, or a change to private records only, takes the served snapshot whole without rendering', async () => {
    const { options, summary: before } = await built();
    const files = readTree(snapshotDir(options, before.id));
    const after = await buildSnapshot(options);
    expect(after.id).toBe(before.id);
    expect(after.reuse).toEqual({ none: undefined, pages: after.pages, compressed: 0, copied: after.pages, linked: 0, search: true, siteFiles: readSiteFileStamps(snapshotDir(options, before.id))!.size, stopped: undefined, rendered: false, derived: true,
      // nothing in the change log since the first build: every video and comment line copied, every video key taken
      model: { changed: 0, videoLines: after.videos, commentLines: expect.any(Number), keys: after.videos } });
    expect(after.changed).toBe(0);
    expect(after.changesFile).toBeUndefined();

    runSql(options.catalogue, "UPDATE videos SET title = 'TOPSECRET new title' WHERE id = 'privatevideo77'");
    const again = await buildSnapshot(options);
    expect(again.id).toBe(before.id);
    expect(again.reuse.rendered).toBe(false);
    expect(readTree(snapshotDir(options, again.id))).toEqual(files);
    expect((await fullBuildOf(options)).summary.id).toBe(before.id);
  });

  it('renders every page when the served snapshot is not whole, even with the same model data', async () => {
    const { options, summary: before } = await built();
    const dir = snapshotDir(options, before.id);
    const model = join(dir, 'model.ndjson');
    const bytes = readFileSync(model);
    bytes[10] = bytes[10]! ^ 1;
    writeFileSync(model, bytes);
    const after = await buildSnapshot(options);
    expect(after.reuse.rendered).toBe(true);
    expect(after.reuse.pages).toBe(after.pages); // the page files themselves are whole
    expect(after.id).toBe(before.id);
    // the damaged copy was replaced by this build's
    expect(readTree(dir)).toEqual((await fullBuildOf(options)).files);
  });

  // Each change must re-render every page that shows it, and only copy what it cannot touch: the
  // result is compared byte for byte with a full build of the same catalogue.
  const key = (dir: string, pattern: RegExp) => Object.keys(readManifest(dir).pages).filter((k) => pattern.test(k));
  it.each([
    { what: "a title shown in list pages, its channel's list and a playlist", sql: "UPDATE videos SET title = 'Renamed v1' WHERE id = 'v1'",
      shows: 'Renamed v1', changes: [/^\/v1\/videos\/v1$/, /^\/v1\/playlists\/pl1\/videos\?/, /^\/v1\/channels\/alice\/videos\?/, /^\/v1\/videos\?.*sort=latest/, /^\/v1\/videos\?.*sort=likes/], same: [/^\/v1\/videos\/v2$/, /^\/v1\/videos\/v1\/playback$/] },
    { what: "a channel's display name, shown in each of its videos", sql: "UPDATE channels SET display_name = 'Alicia' WHERE username = 'alice'",
      shows: 'Alicia', changes: [/^\/v1\/videos\/v1$/, /^\/v1\/videos\/v3$/, /^\/v1\/videos\/long1$/, /^\/v1\/channels\/alice\/videos\?/], same: [/^\/v1\/videos\/v2$/, /^\/v1\/videos\/v1\/playback$/] },
    { what: 'a newest video that changes every trending score and the trending order', sql: "UPDATE videos SET views = 900000, published_at = '2026-03-30T10:00:00Z' WHERE id = 'v4'",
      shows: undefined, changes: [/^\/v1\/videos\/v4$/, /^\/v1\/videos\?limit=\d+&sort=views$/, /^\/v1\/videos\?limit=\d+&sort=trending$/, /^\/v1\/videos\?limit=\d+&sort=latest$/], same: [/^\/v1\/videos\/v1$/] },
    { what: 'a comment held back: counts, threads and totals', sql: "UPDATE comments SET state = 'held' WHERE id = 'c2'",
      shows: undefined, changes: [/^\/v1\/videos\/v1$/, /^\/v1\/videos\/v1\/comments\?/, /^\/v1\/playlists\/pl1\/videos\?/], same: [/^\/v1\/videos\/v1\/playback$/, /^\/v1\/videos\/v2$/] },
    { what: 'a video made private: totals, cursors and every list', sql: "UPDATE videos SET privacy = 'private' WHERE id = 'long11'",
      shows: undefined, changes: [/^\/v1\/videos\?limit=\d+&sort=latest$/, /^\/v1\/categories$/], same: [/^\/v1\/videos\/v1$/] },
    { what: "a category's name", sql: "UPDATE categories SET name = 'Tunes' WHERE id = 'music'",
      shows: 'Tunes', changes: [/^\/v1\/categories$/], same: [/^\/v1\/videos\/v1$/] },
  ])('after $what, re-renders every page that shows it and writes what a full build writes', async ({ sql, shows, changes, same }) => {
    const { options, summary: before } = await built();
    runSql(options.catalogue, sql);
    const after = await buildSnapshot(options);
    expect(after.reuse.none).toBeUndefined();
    const changed = differing(options, before.id, after.id);
    const dir = snapshotDir(options, after.id);
    // pages of each kind it touches changed; every page that shows the new text did
    for (const pattern of changes) expect(key(dir, pattern).filter((k) => changed.includes(k)), String(pattern)).not.toEqual([]);
    if (shows !== undefined) {
      const showing = [...readBodies(dir)].filter(([, body]) => body.includes(shows)).map(([k]) => k);
      expect(showing.length).toBeGreaterThan(0);
      for (const k of showing) expect(changed, k).toContain(k);
    }
    for (const pattern of same) for (const k of key(dir, pattern)) expect(changed, k).not.toContain(k);
    expect(after.reuse.copied).toBeGreaterThan(0);
    expect(after.reuse.copied).toBeLessThanOrEqual(after.reuse.pages);
    expect(changedUrls(after).filter((url) => !isSiteFile(url))).toEqual(changed.map((k) => `${BASE_URL}${k}`));
    const full = await fullBuildOf(options);
    expect(full.summary.reuse.copied).toBe(0);
    expect(after.id).toBe(full.summary.id);
    expect(readTree(dir)).toEqual(full.files);
  });

  // Sitemaps and feeds (site-file-stamps.ts): a video sitemap or feed whose inputs did not change
  // keeps the served snapshot's ETag unrendered; the sitemap index and page sitemaps are always
  // rendered. The catalogue has one video sitemap and the feeds of alice, bob and pl1.
  const SITE = { index: '/sitemap.xml', pages: '/sitemaps/pages-1.xml', videos: '/sitemaps/videos-1.xml', alice: '/feeds/channels/alice.xml', bob: '/feeds/channels/bob.xml', pl1: '/feeds/playlists/pl1.xml' };
  it.each([
    { what: "a title in alice's feed and the video sitemap", sql: "UPDATE videos SET title = 'A new title' WHERE id = 'long7'",
      rendered: [SITE.index, SITE.pages, SITE.videos, SITE.alice], purged: [SITE.videos, SITE.alice] },
    { what: "a category's name, in no sitemap or feed", sql: "UPDATE categories SET name = 'Tunes' WHERE id = 'music'",
      rendered: [SITE.index, SITE.pages], purged: [] },
    { what: "a comment held back: v1's inputs change, no feed's bytes", sql: "UPDATE comments SET state = 'held' WHERE id = 'c2'",
      rendered: [SITE.index, SITE.pages, SITE.videos, SITE.alice, SITE.pl1], purged: [] },
  ])('after $what, renders only the sitemaps and feeds whose inputs changed, purges those whose bytes did, and writes what a full build writes', async ({ sql, rendered, purged }) => {
    const { options, summary: before } = await built();
    const stampsBefore = readSiteFileStamps(snapshotDir(options, before.id))!;
    expect([...stampsBefore.keys()].sort()).toEqual(Object.values(SITE).sort());
    runSql(options.catalogue, sql);
    const after = await buildSnapshot(options);
    expect(after.reuse.none).toBeUndefined();
    // every other file's ETag was carried, unrendered
    expect(after.reuse.siteFiles).toBe(stampsBefore.size - rendered.length);
    const stampsAfter = readSiteFileStamps(snapshotDir(options, after.id))!;
    for (const key of Object.values(SITE).filter((k) => !rendered.includes(k))) expect(stampsAfter.get(key), key).toBe(stampsBefore.get(key));
    // the purge list names exactly the files whose ETag changed: a changed feed, never an unchanged one
    expect(changedUrls(after).filter((url) => isSiteFile(url))).toEqual(purged.sort().map((key) => `${BASE_URL}${key}`));
    expect(Object.values(SITE).filter((key) => stampsAfter.get(key) !== stampsBefore.get(key)).sort()).toEqual([...purged].sort());
    const full = await fullBuildOf(options);
    expect(full.summary.reuse.siteFiles).toBe(0);
    expect(after.id).toBe(full.summary.id);
    expect(readTree(snapshotDir(options, after.id))).toEqual(full.files);
  });

  it('computes trending and related again when one of their fields changed (views, tags), and writes the full build', async () => {
    for (const sql of ["UPDATE videos SET views = views + 1000 WHERE id = 'long7'", "INSERT INTO video_tags (video_id, position, tag) VALUES ('long8', 9, 'newtag')"]) {
      const { options } = await built();
      runSql(options.catalogue, sql);
      const after = await buildSnapshot(options);
      expect(after.reuse.none).toBeUndefined();
      expect(after.reuse.derived).toBe(false);
      expect(readTree(snapshotDir(options, after.id))).toEqual((await fullBuildOf(options)).files);
    }
  });

  it('does not take trending and related from a served derived.bin that is not the file its manifest records, and writes the full build', async () => {
    const { options, summary: before } = await built();
    const file = join(snapshotDir(options, before.id), 'derived.bin');
    const bytes = readFileSync(file);
    // the last order's last number changed in place: same size, another SHA-256
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 0x01;
    writeFileSync(file, bytes);
    runSql(options.catalogue, "UPDATE videos SET title = 'A new title' WHERE id = 'long7'");
    const after = await buildSnapshot(options);
    expect(after.reuse.none).toBeUndefined();
    expect(after.reuse.derived).toBe(false);
    expect(readTree(snapshotDir(options, after.id))).toEqual((await fullBuildOf(options)).files);
  });

  it('carries no sitemap or feed ETag when the served site-files.json is not the file its manifest records, lists them all, and still writes the full build', async () => {
    const { options, summary: before } = await built();
    const file = join(snapshotDir(options, before.id), 'site-files.json');
    const stamps = readSiteFileStamps(snapshotDir(options, before.id))!;
    // a wrong ETag for bob's feed: carried, it would be published and the feed never purged
    writeFileSync(file, `${JSON.stringify({ ...Object.fromEntries(stamps), '/feeds/channels/bob.xml': '"1-1"' })}\n`);
    runSql(options.catalogue, "UPDATE videos SET title = 'A new title' WHERE id = 'long7'");
    const after = await buildSnapshot(options);
    expect(after.reuse.siteFiles).toBe(0);
    expect(readSiteFileStamps(snapshotDir(options, after.id))!.get('/feeds/channels/bob.xml')).toBe(stamps.get('/feeds/channels/bob.xml'));
    for (const key of stamps.keys()) expect(changedUrls(after)).toContain(`${BASE_URL}${key}`);
    expect(readTree(snapshotDir(options, after.id))).toEqual((await fullBuildOf(options)).files);
  });

  it('copies nothing unrendered when the recorded page inputs are not the file the manifest records, and still writes the full build', async () => {
    const { options, summary: before } = await built();
    const inputs = join(snapshotDir(options, before.id), 'page-inputs.ndjson');
    const text = readFileSync(inputs, 'utf8');
    // one more line: the file no longer has the size and SHA-256 the manifest records
    writeFileSync(inputs, text.replace(/\n/, '\n\n'));
    runSql(options.catalogue, "UPDATE videos SET title = 'Renamed v1' WHERE id = 'v1'");
    const after = await buildSnapshot(options);
    expect(after.reuse.copied).toBe(0);
    expect(after.reuse.pages).toBeGreaterThan(0); // the page files are whole: variants are still reused
    expect(readTree(snapshotDir(options, after.id))).toEqual((await fullBuildOf(options)).files);
  });

  it('a video made private disappears from every page, as in a full build', async () => {
    const { options, summary: before } = await built();
    runSql(options.catalogue, "UPDATE videos SET privacy = 'private' WHERE id = 'long3'");
    const after = await buildSnapshot(options);
    const bodies = readBodies(snapshotDir(options, after.id));
    expect([...bodies.keys()].filter((key) => /\/long3(?:[/?]|$)/.test(key))).toEqual([]);
    for (const [key, body] of bodies) expect(body.includes('"long3"'), key).toBe(false);
    expect(changedUrls(after)).toContain(`${BASE_URL}/v1/videos/long3`);
    expect(changedUrls(after).filter((url) => !isSiteFile(url))).toEqual(differing(options, before.id, after.id).map((key) => `${BASE_URL}${key}`));
    // the feed and the sitemap that listed it are purged too (long3 is bob's)
    expect(changedUrls(after)).toEqual(expect.arrayContaining([`${BASE_URL}/feeds/channels/bob.xml`, `${BASE_URL}/sitemaps/videos-1.xml`]));
    expect(changedUrls(after)).not.toContain(`${BASE_URL}/feeds/channels/alice.xml`);
    expect((await fullBuildOf(options)).summary.id).toBe(after.id);
  });

  it('reuses nothing of a served snapshot whose manifest was changed (it no longer hashes to its id): every URL purged, and the result is the full build', async () => {
    const { options, summary: before } = await built();
    const manifest = join(snapshotDir(options, before.id), 'manifest.json');
    const text = readFileSync(manifest, 'utf8');
    // one page's ETag changed in place, the file still valid JSON of the same size: copied, the
    // page would be published with an ETag not its body's
    const etag = /"\/v1\/videos\/v2":\{"etag":"\\"([0-9a-f])/.exec(text)!;
    writeFileSync(manifest, text.replace(etag[0], etag[0].slice(0, -1) + (etag[1] === '0' ? '1' : '0')));
    runSql(options.catalogue, "UPDATE videos SET title = 'A new title' WHERE id = 'long7'");
    const after = await buildSnapshot(options);
    expect(after.reuse.none).toMatch(/its manifest does not match the snapshot's id/);
    expect(after.reuse.pages).toBe(0);
    expect(changedUrls(after)).toContain(`${BASE_URL}/v1/videos/v2`);
    expect(readTree(snapshotDir(options, after.id))).toEqual((await fullBuildOf(options)).files);
  });

  it('replaces a served snapshot of the same id whose manifest is cut short', async () => {
    const { options, summary: before } = await built();
    const dir = snapshotDir(options, before.id);
    const manifest = join(dir, 'manifest.json');
    truncateSync(manifest, Math.floor(statSync(manifest).size / 2));
    const after = await buildSnapshot(options);
    expect(after.reuse.none).toMatch(/cannot be read: its manifest cannot be read/);
    expect(after.id).toBe(before.id);
    // not kept as it was: the damaged copy was replaced by this build's
    expect(readTree(dir)).toEqual((await fullBuildOf(options)).files);
  });

  it('never copies from a truncated page file: every page is compressed anew, and the result is the full build', async () => {
    const { options, summary: before } = await built();
    const dir = snapshotDir(options, before.id);
    const [, withBr] = Object.entries(readManifest(dir).pages).find(([, entry]) => entry.br !== undefined)!;
    const br = join(dir, pageFileName('br', withBr.br![3]));
    truncateSync(br, Math.floor(readFileSync(br).length / 2));
    runSql(options.catalogue, "UPDATE videos SET title = 'A new title' WHERE id = 'long7'");
    const after = await buildSnapshot(options);
    expect(after.reuse.none).toMatch(/pages-\d{3}\.br\.bin holds \d+ bytes, not the \d+/);
    expect(after.reuse.pages).toBe(0);
    expect(readTree(snapshotDir(options, after.id))).toEqual((await fullBuildOf(options)).files);
  });

  it('never links a shard damaged in place: its pages are read by range, the damaged one rendered, and the result is the full build', async () => {
    const { options, summary: before } = await built();
    const dir = snapshotDir(options, before.id);
    // damage the gzip variant of one page in the middle, keeping the file's size
    const entries = Object.entries(readManifest(dir).pages).filter(([, entry]) => entry.gzip !== undefined);
    const [, victim] = entries[Math.floor(entries.length / 2)]!;
    const damaged = join(dir, pageFileName('gzip', victim.gzip![3]));
    const fd = openSync(damaged, 'r+');
    try {
      writeSync(fd, Buffer.from('damaged'), 0, 7, victim.gzip![0] + 10);
    } finally {
      closeSync(fd);
    }
    const damagedBytes = readFileSync(damaged);
    const after = await buildSnapshot(options);
    expect(after.reuse.none).toBeUndefined();
    expect(after.reuse.stopped).toMatch(/^pages-\d{3}\.gz\.bin: the \d+ bytes at \d+ do not match their checksum/);
    expect(after.reuse.pages).toBeGreaterThan(0);
    expect(after.reuse.pages).toBeLessThan(after.pages);
    expect(after.reuse.linked).toBeGreaterThan(0);
    expect(after.id).toBe(before.id);
    const rebuilt = readTree(snapshotDir(options, after.id));
    expect(rebuilt.get(pageFileName('gzip', victim.gzip![3]))!.equals(damagedBytes)).toBe(false);
    expect(rebuilt).toEqual((await fullBuildOf(options)).files);
  });

  describe('the stamps of the served page files (file-stamps.ts)', () => {
    const hourAgo = () => new Date(Date.now() - 3_600_000);
    const pageFiles = (dir: string) => readdirSync(dir).filter((name) => name.startsWith('pages-'));
    const damageInPlace = (file: string) => {
      const fd = openSync(file, 'r+');
      try {
        writeSync(fd, Buffer.from('damaged'), 0, 7, 20);
      } finally {
        closeSync(fd);
      }
    };
    const unreadOf = (lines: readonly string[]) => Number(/\((\d+) files unchanged since a build hashed them/.exec(lines.find((line) => line.includes('hard-linked')) ?? '')?.[1]);

    it('a file a build hashed and linked is taken unread by the next, until it is written: then it is read, found damaged and not linked', async () => {
      const { options, summary: before } = await built();
      const lines: string[] = [];
      const build = async () => {
        lines.length = 0;
        return buildSnapshot({ ...options, onProgress: (line) => lines.push(line) });
      };
      const dirOf = (id: string) => snapshotDir(options, id);
      for (const name of pageFiles(dirOf(before.id))) utimesSync(join(dirOf(before.id), name), hourAgo(), hourAgo());
      runSql(options.catalogue, "UPDATE videos SET title = 'First' WHERE id = 'long7'");
      const first = await build();
      expect(first.reuse.linked).toBeGreaterThan(0);
      expect(unreadOf(lines)).toBe(0);
      const stamped = readBuiltFrom(layoutOf(options.distDir).root)!.hashed!;
      // the files linked, hashed whole by that build: stamped; the ones it wrote: not
      expect(Object.keys(stamped).length).toBe(3 * first.reuse.linked);
      runSql(options.catalogue, "UPDATE videos SET title = 'Second' WHERE id = 'long8'");
      const second = await build();
      expect(unreadOf(lines)).toBeGreaterThan(0);
      expect(readTree(dirOf(second.id))).toEqual((await fullBuildOf(options)).files);
      // a file taken unread, damaged in place since, its size kept: read, found damaged, not linked
      const [name] = Object.keys(readBuiltFrom(layoutOf(options.distDir).root)!.hashed!).filter((n) => n.endsWith('.gz.bin'));
      damageInPlace(join(dirOf(second.id), name!));
      const damaged = readFileSync(join(dirOf(second.id), name!));
      runSql(options.catalogue, "UPDATE videos SET title = 'Third' WHERE id = 'long9'");
      const third = await build();
      const rebuilt = readTree(dirOf(third.id));
      expect(rebuilt.get(name!)!.equals(damaged)).toBe(false);
      expect(rebuilt).toEqual((await fullBuildOf(options)).files);
    });

    /**
     * A build whose served gzip files are written by `damage` once the shards are checked and linked, before it serves
     * its snapshot: none of them may be stamped, and the next build, reading them, must make the full build's bytes.
     */
    async function damagedBeforeServing(damage: (file: string) => void): Promise<void> {
      const { options, summary: before } = await built();
      const served = snapshotDir(options, before.id);
      const gz = pageFiles(served).filter((name) => name.endsWith('.gz.bin'));
      for (const name of pageFiles(served)) utimesSync(join(served, name), hourAgo(), hourAgo());
      runSql(options.catalogue, "UPDATE videos SET description = 'One' WHERE id = 'long20'");
      const first = await buildSnapshot({ ...options, onProgress: (line) => {
        if (line.includes('hard-linked')) for (const name of gz) damage(join(served, name));
      } });
      const hashed = readBuiltFrom(layoutOf(options.distDir).root)!.hashed!;
      expect(Object.keys(hashed).length).toBeGreaterThan(0);
      for (const name of gz) expect(hashed[name], name).toBeUndefined();
      runSql(options.catalogue, "UPDATE videos SET description = 'Two' WHERE id = 'long20'");
      const second = await buildSnapshot(options);
      expect(second.id).not.toBe(first.id);
      expect(readTree(snapshotDir(options, second.id))).toEqual((await fullBuildOf(options)).files);
    }

    it('a file written after the check read it and before the build ends is not stamped: the next build reads it', async () => {
      await damagedBeforeServing(damageInPlace);
    });

    it('a file rewritten in place after its link, its old modification time put back (cp -p, rsync --inplace -t), is not stamped: its change time shows it', async () => {
      await damagedBeforeServing((file) => {
        const { atime, mtime } = statSync(file);
        damageInPlace(file);
        utimesSync(file, atime, mtime);
      });
    });

    it('a rebuild whose result is an older kept snapshot stamps none of its files it did not check', async () => {
      const { options, summary: a } = await built();
      const db = openCatalogue(options.catalogue);
      const original = (db.prepare("SELECT title FROM videos WHERE id = 'long7'").get() as { title: string }).title;
      db.close();
      for (const name of pageFiles(snapshotDir(options, a.id))) utimesSync(join(snapshotDir(options, a.id), name), hourAgo(), hourAgo());
      runSql(options.catalogue, "UPDATE videos SET title = 'Changed' WHERE id = 'long7'");
      const b = await buildSnapshot(options);
      // A's files no longer shared with B (long7's shard): damaged in place, their size kept
      const dirA = snapshotDir(options, a.id);
      const dirB = snapshotDir(options, b.id);
      const own = pageFiles(dirA).filter((name) => statSync(join(dirA, name)).ino !== statSync(join(dirB, name)).ino);
      expect(own.length).toBeGreaterThan(0);
      for (const name of own) damageInPlace(join(dirA, name));
      runSql(options.catalogue, `UPDATE videos SET title = '${original.replace(/'/g, "''")}' WHERE id = 'long7'`);
      const c = await buildSnapshot(options);
      expect(c.id).toBe(a.id);
      const hashed = readBuiltFrom(layoutOf(options.distDir).root)!.hashed ?? {};
      for (const name of own) expect(hashed[name], name).toBeUndefined();
      // what is stamped is the files of A shared with B, which B's build checked: the same inodes
      for (const name of Object.keys(hashed)) expect(statSync(join(dirA, name)).ino).toBe(statSync(join(dirB, name)).ino);
    });
  });

  it('stops copying a damaged shard at the damaged page: the pages before it in its shard are copied, it and the rest of its shard rendered, the other shards linked', async () => {
    const { options, summary: before } = await built();
    const dir = snapshotDir(options, before.id);
    const pages = Object.entries(readManifest(dir).pages);
    // the video pages of the unchanged videos are copied in runs, read a range of many pages at a time
    const videoPages = pages
      .filter(([key]) => /^\/v1\/videos\/long\d+$/.test(key) && key !== '/v1/videos/long0')
      .sort(([, a], [, b]) => a.body[3] - b.body[3] || a.body[0] - b.body[0]);
    const [victimKey, victim] = videoPages.find(([, entry]) => entry.body[0] > 0)!;
    const shard = victim.body[3];
    const file = join(dir, pageFileName('body', shard));
    const fd = openSync(file, 'r+');
    try {
      // same length, other bytes: only the page's checksum can tell
      writeSync(fd, Buffer.from('XXXXXXX'), 0, 7, victim.body[0] + Math.floor(victim.body[1] / 2));
    } finally {
      closeSync(fd);
    }
    runSql(options.catalogue, "UPDATE videos SET title = 'A new title' WHERE id = 'long0'");
    const after = await buildSnapshot(options);
    expect(after.reuse.none).toBeUndefined();
    // the failure names the damaged page's own range, neither an earlier nor a later one
    expect(after.reuse.stopped).toBe(`${pageFileName('body', shard)}: the ${victim.body[1]} bytes at ${victim.body[0]} do not match their checksum (the file changed or is damaged)`);
    // in its shard, the pages before it were copied, it and those after it rendered
    const fromVictim = pages.filter(([, entry]) => entry.body[3] === shard && entry.body[0] >= victim.body[0]).length;
    expect(after.reuse.copied).toBeLessThanOrEqual(after.pages - fromVictim);
    const newDir = snapshotDir(options, after.id);
    expect(statSync(join(newDir, pageFileName('body', shard))).ino).not.toBe(statSync(file).ino);
    expect(readBodies(newDir).get(victimKey)!.includes('XXXXXXX')).toBe(false);
    expect(readTree(newDir)).toEqual((await fullBuildOf(options)).files);
  });

  it('hard-links every shard whose pages did not change, and writes the others: the result is the full build', async () => {
    const { options, summary: before } = await built();
    runSql(options.catalogue, "UPDATE videos SET title = 'A new title' WHERE id = 'long5'");
    const after = await buildSnapshot(options);
    const [oldDir, newDir] = [snapshotDir(options, before.id), snapshotDir(options, after.id)];
    const changed = differing(options, before.id, after.id);
    const manifest = readManifest(newDir);
    const touched = new Set(changed.map((key) => manifest.pages[key]!.body[3]));
    const shards = new Set(Object.values(manifest.pages).map((entry) => entry.body[3]));
    expect(touched.size).toBeLessThan(shards.size);
    expect(after.reuse.linked).toBe(shards.size - touched.size);
    for (const shard of shards) {
      for (const kind of ['body', 'br', 'gzip'] as const) {
        const name = pageFileName(kind, shard);
        const same = statSync(join(oldDir, name)).ino === statSync(join(newDir, name)).ino;
        expect(same, name).toBe(!touched.has(shard));
      }
    }
    expect(readTree(newDir)).toEqual((await fullBuildOf(options)).files);
  });

  it('copies the shards when they cannot be hard-linked (the served snapshot on another file system), and still writes the full build', async () => {
    const { options, summary: before } = await built();
    // the served snapshot moved to /dev/shm (tmpfs), its folder a symbolic link: link(2) fails with EXDEV
    const dir = snapshotDir(options, before.id);
    const elsewhere = join('/dev/shm', `shards-test-${process.pid}-${Date.now()}`);
    cpSync(dir, elsewhere, { recursive: true });
    rmSync(dir, { recursive: true });
    symlinkSync(elsewhere, dir);
    try {
      runSql(options.catalogue, "UPDATE videos SET title = 'A new title' WHERE id = 'long5'");
      const after = await buildSnapshot(options);
      expect(after.reuse.none).toBeUndefined();
      expect(after.reuse.linked).toBe(0);
      expect(after.reuse.stopped).toMatch(/cannot be hard-linked \(EXDEV\)/);
      expect(after.reuse.copied).toBeGreaterThan(after.pages / 2);
      expect(readTree(snapshotDir(options, after.id))).toEqual((await fullBuildOf(options)).files);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('reuses nothing of a snapshot of the single-file format, and builds in full', async () => {
    const { options, summary: before } = await built();
    const dir = snapshotDir(options, before.id);
    const manifest = join(dir, 'manifest.json');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace(/^\{"format":\d+,/, '{"format":2,'));
    runSql(options.catalogue, "UPDATE videos SET title = 'A new title' WHERE id = 'long5'");
    const after = await buildSnapshot(options);
    expect(after.reuse.none).toBe(`the served snapshot ${before.id} cannot be read: its manifest has format 2, not 3`);
    expect(after.reuse.pages).toBe(0);
    expect(readTree(snapshotDir(options, after.id))).toEqual((await fullBuildOf(options)).files);
  });

  it('reuses nothing of a snapshot built by other code', async () => {
    const { options, summary: before } = await built();
    const root = layoutOf(options.distDir).root;
    expect(readBuiltFrom(root)?.code).toMatch(/^[0-9a-f]{16}$/);
    writeFileSync(join(root, 'built-from.json'), JSON.stringify({ ...readBuiltFrom(root), code: '0000000000000000' }));
    const after = await buildSnapshot(options);
    expect(after.reuse.none).toBe(`the served snapshot ${before.id} was built by other code`);
    expect(after.reuse.pages).toBe(0);
    expect(after.id).toBe(before.id);
    expect(currentId(options)).toBe(before.id);
  });
});
