// src/snapshot/build-snapshot.ts over small catalogues in temp dirs, with the pieces it relies on:
// swap.ts (lock, current), diff-manifests.ts (changed URLs) and layout.ts (where files go).
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { encodeCursor } from '../../../src/api/cursor.ts';
import { canonicalUrl } from '../../../src/api/query.ts';
import { importCatalogue } from '../../../src/catalogue/import-catalogue.ts';
import { openCatalogue } from '../../../src/catalogue/open-catalogue.ts';
import { buildSnapshot, type BuildOptions, type BuildSummary } from '../../../src/snapshot/build-snapshot.ts';
import { diffManifests } from '../../../src/snapshot/diff-manifests.ts';
import { DERIVED_FILE } from '../../../src/snapshot/derived-file.ts';
import { layoutOf, MANIFEST_FILE, MODEL_FILE, pageFile, pageFileNames, SEARCH_FILE } from '../../../src/snapshot/layout.ts';
import { SEARCH_DIGESTS_FILE } from '../../../src/snapshot/search-file.ts';
import { MIN_SHARDS } from '../../../src/snapshot/page-shards.ts';
import { MANIFEST_FORMAT, type Manifest, type PageEntry } from '../../../src/snapshot/manifest.ts';
import { estimatePages, planPages } from '../../../src/snapshot/plan-pages.ts';
import { readCatalogue } from '../../../src/catalogue/read-catalogue.ts';
import { readSiteFileStamps, SITE_FILES_FILE } from '../../../src/snapshot/site-file-stamps.ts';
import { PAGE_INPUTS_FILE } from '../../../src/snapshot/page-inputs.ts';
import { currentSnapshotId, swapCurrent, withBuildLock } from '../../../src/snapshot/swap.ts';
import { BASE_URL, catalogueOf, category, modelOf, rawVideo, tempDirs, video, writeNdjsonFile } from '../support/fixtures.ts';
import { pageReader, readBodies, readManifest, readTree, runSql, smallCatalogue, writeCatalogueFile } from '../support/snapshots.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());
const sharedDirs = tempDirs();
afterAll(() => sharedDirs.cleanup());

function setup(raws = smallCatalogue()): BuildOptions & { dir: string } {
  const dir = dirs.make();
  const catalogue = writeCatalogueFile(join(dir, 'catalogue.db'), raws);
  return { dir, catalogue, distDir: join(dir, 'dist'), baseUrl: BASE_URL };
}

/** Runs a build; a failure, thrown or rejected, becomes a rejected promise. */
const build = async (options: BuildOptions): Promise<BuildSummary> => buildSnapshot(options);

const snapshotDir = (options: BuildOptions, id: string) => join(layoutOf(options.distDir).root, id);
const currentId = (options: BuildOptions) => readlinkSync(layoutOf(options.distDir).current);
const snapshotIds = (options: BuildOptions) => readdirSync(layoutOf(options.distDir).root).filter((n) => /^[0-9a-f]{16}$/.test(n)).sort();
const leftovers = (options: BuildOptions) => readdirSync(layoutOf(options.distDir).root).filter((n) => n.startsWith('.building-') || n === '.build.lock');
let sharedBuild: Promise<{ options: BuildOptions; summary: BuildSummary }> | undefined;
/** One build of the small catalogue, shared by the tests that only read it. */
function shared(): Promise<{ options: BuildOptions; summary: BuildSummary }> {
  sharedBuild ??= (async () => {
    const dir = sharedDirs.make();
    const options = { catalogue: writeCatalogueFile(join(dir, 'catalogue.db'), smallCatalogue()), distDir: join(dir, 'dist'), baseUrl: BASE_URL };
    return { options, summary: await build(options) };
  })();
  return sharedBuild;
}

/** A private copy of the shared catalogue and its built snapshot, for tests that change them. */
async function copyOfShared(): Promise<{ options: BuildOptions; first: BuildSummary }> {
  const { options, summary } = await shared();
  const dir = dirs.make();
  const copy = { catalogue: join(dir, 'catalogue.db'), distDir: join(dir, 'dist'), baseUrl: options.baseUrl };
  copyFileSync(options.catalogue, copy.catalogue);
  cpSync(options.distDir, copy.distDir, { recursive: true, verbatimSymlinks: true });
  expect(currentId(copy)).toBe(summary.id);
  return { options: copy, first: summary };
}

/** The sitemaps and feeds whose recorded ETags differ between two snapshots (site-file-stamps.ts). */
function siteChanges(options: BuildOptions, a: string, b: string): string[] {
  const before = readSiteFileStamps(snapshotDir(options, a))!;
  const after = readSiteFileStamps(snapshotDir(options, b))!;
  return [...new Set([...before.keys(), ...after.keys()])].filter((key) => before.get(key) !== after.get(key));
}
const changedUrls = (summary: BuildSummary) => (summary.changesFile ? readFileSync(summary.changesFile, 'utf8').split('\n').filter(Boolean) : []);

describe('buildSnapshot', () => {
  it('builds a snapshot and points current at it', async () => {
    const { options, summary } = await shared();
    expect(summary.id).toMatch(/^[0-9a-f]{16}$/);
    expect(currentId(options)).toBe(summary.id);
    const manifest = readManifest(snapshotDir(options, summary.id));
    expect(Object.keys(manifest.pages)).toHaveLength(summary.pages);
    expect(manifest.counts['videos']).toBe(summary.videos);
    expect(summary.videos).toBe(5); // 4 public and 1 unlisted; the private video is not counted
    expect(leftovers(options)).toEqual([]);
  });

  it('prerenders every public and unlisted video, with its playback and comments, and the default list', async () => {
    const { options, summary } = await shared();
    const keys = Object.keys(readManifest(snapshotDir(options, summary.id)).pages);
    for (const id of ['v1', 'v2', 'v3', 'v4', 'unlisted1']) {
      expect(keys).toContain(`/v1/videos/${id}`);
      expect(keys).toContain(`/v1/videos/${id}/playback`);
      expect(keys).toContain(`/v1/videos/${id}/comments?limit=20`);
    }
    expect(keys).toContain('/v1/videos?limit=20&sort=latest');
    expect(keys).toContain('/v1/categories');
  });

  it('prerenders every cursor page of the default video list, the last with a null nextCursor', async () => {
    const extra = Array.from({ length: 41 }, (_, i) => rawVideo(`extra${String(i).padStart(2, '0')}`, { publishedAt: `2025-12-${String((i % 28) + 1).padStart(2, '0')}T00:00:00Z` }));
    const options = setup([...smallCatalogue(), ...extra]);
    const dir = snapshotDir(options, (await build(options)).id);
    const bodies = readBodies(dir);
    const publicCount = 4 + extra.length;
    let key: string | undefined = '/v1/videos?limit=20&sort=latest';
    const seen: string[] = [];
    for (let guard = 0; key !== undefined && guard < 10; guard++) {
      expect(bodies.has(key), key).toBe(true);
      const page = JSON.parse(bodies.get(key)!.toString('utf8')) as { data: { id: string }[]; paging: { total: number; nextCursor: string | null } };
      expect(page.paging.total).toBe(publicCount);
      seen.push(...page.data.map((v) => v.id));
      key = page.paging.nextCursor === null ? undefined : canonicalUrl('/v1/videos', { cursor: page.paging.nextCursor, limit: 20, sort: 'latest' });
    }
    expect(seen).toHaveLength(publicCount);
    expect(new Set(seen).size).toBe(publicCount);
    const latestCursorPages = Object.keys(readManifest(dir).pages).filter((k) => {
      const url = new URL(k, 'http://x.invalid');
      return url.pathname === '/v1/videos' && url.searchParams.has('cursor') && url.searchParams.get('sort') === 'latest' && [...url.searchParams.keys()].length === 3;
    });
    expect(latestCursorPages).toHaveLength(Math.ceil(publicCount / 20) - 1);
  });

  it('writes page bytes whose ETags and compressed variants match the bodies', async () => {
    const { options, summary } = await shared();
    const dir = snapshotDir(options, summary.id);
    const body = pageReader(dir, 'body');
    const br = pageReader(dir, 'br');
    const gzip = pageReader(dir, 'gzip');
    let compressed = 0;
    for (const entry of Object.values(readManifest(dir).pages)) {
      const identity = body(entry.body);
      if (entry.br) { expect(brotliDecompressSync(br(entry.br)).equals(identity)).toBe(true); compressed++; }
      if (entry.gzip) expect(gunzipSync(gzip(entry.gzip)).equals(identity)).toBe(true);
    }
    expect(compressed).toBeGreaterThan(0);
  });

  it('gives two builds of the same catalogue byte-identical snapshots with the same id', async () => {
    const { options: a, summary: first } = await shared();
    const b = { ...a, distDir: join(dirs.make(), 'dist-b') };
    const second = await build(b);
    expect(second.id).toBe(first.id);
    const treeA = readTree(snapshotDir(a, first.id));
    const treeB = readTree(snapshotDir(b, second.id));
    expect([...treeA.keys()].sort()).toEqual([MANIFEST_FILE, MODEL_FILE, SEARCH_FILE, SEARCH_DIGESTS_FILE, SITE_FILES_FILE, PAGE_INPUTS_FILE, DERIVED_FILE, ...pageFileNames(MIN_SHARDS)].sort());
    expect([...treeB.keys()]).toEqual([...treeA.keys()]);
    for (const [path, bytes] of treeA) expect(treeB.get(path)?.equals(bytes), path).toBe(true);
  });

  it('gives the same snapshot for two catalogues imported from the same file', async () => {
    const dir = dirs.make();
    const source = writeNdjsonFile(dir, 'catalogue.ndjson', smallCatalogue());
    const summaries: BuildSummary[] = [];
    for (const name of ['a', 'b']) {
      const db = openCatalogue(join(dir, `${name}.db`));
      try {
        await importCatalogue(db, source);
      } finally {
        db.close();
      }
      summaries.push(await build({ catalogue: join(dir, `${name}.db`), distDir: join(dir, `dist-${name}`), baseUrl: BASE_URL }));
    }
    const [a, b] = summaries as [BuildSummary, BuildSummary];
    const treeA = readTree(join(layoutOf(join(dir, 'dist-a')).root, a.id));
    const treeB = readTree(join(layoutOf(join(dir, 'dist-b')).root, b.id));
    for (const [path, bytes] of treeA) expect(treeB.get(path)?.equals(bytes), path).toBe(true);
    expect(b.id).toBe(a.id);
  });

  it('reports 0 changed URLs when rebuilding an unchanged catalogue', async () => {
    const { options, summary: first } = await shared();
    const second = await build(options);
    expect(second.id).toBe(first.id);
    expect(second.unchanged).toBe(true);
    expect(second.changed).toBe(0);
    expect(changedUrls(second)).toEqual([]);
    expect(currentId(options)).toBe(first.id);
  });

  it('lists exactly the URLs whose bodies changed when one video changes', async () => {
    const { options, first } = await copyOfShared();
    const v2 = smallCatalogue().find((r) => r['id'] === 'v2')!;
    writeCatalogueFile(options.catalogue, [rawVideo('v2', { ...v2, views: (v2['views'] as number) + 1 })]);
    const second = await build(options);
    expect(second.id).not.toBe(first.id);

    const before = readBodies(snapshotDir(options, first.id));
    const after = readBodies(snapshotDir(options, second.id));
    const expected = [...new Set([...before.keys(), ...after.keys()])]
      .filter((key) => !before.has(key) || !after.has(key) || !before.get(key)!.equals(after.get(key)!))
      .sort();
    expect(expected).toContain('/v1/videos/v2');
    expect(expected).not.toContain('/v1/videos/v3');
    expect(expected).not.toContain('/v1/videos/v1/comments?limit=20');

    // and the sitemaps and feeds whose bytes changed (the video sitemap shows the view count)
    const sites = siteChanges(options, first.id, second.id);
    expect(sites).toContain('/sitemaps/videos-1.xml');
    const all = [...expected, ...sites].sort();
    expect(second.changed).toBe(all.length);
    expect(changedUrls(second)).toEqual(all.map((key) => `${BASE_URL}${key}`));
  });

  it('lists a page that disappeared as changed', async () => {
    const { options } = await copyOfShared();
    runSql(options.catalogue, "UPDATE videos SET privacy = 'private' WHERE id = 'v3'");
    const second = await build(options);
    expect(changedUrls(second)).toContain(`${BASE_URL}/v1/videos/v3`);
    expect(Object.keys(readManifest(snapshotDir(options, second.id)).pages)).not.toContain('/v1/videos/v3');
  });

  it('swaps back to the earlier snapshot when a change is reverted, listing the URLs that changed back', async () => {
    const { options, first } = await copyOfShared();
    runSql(options.catalogue, "UPDATE videos SET title = title || ' (changed)' WHERE id = 'v1'");
    const second = await build(options);
    runSql(options.catalogue, "UPDATE videos SET title = substr(title, 1, length(title) - 10) WHERE id = 'v1'");
    const third = await build(options);
    expect(third.id).toBe(first.id);
    expect(currentId(options)).toBe(first.id);
    const a = readBodies(snapshotDir(options, first.id));
    const b = readBodies(snapshotDir(options, second.id));
    const differing = [...a.keys()].filter((key) => !b.get(key)?.equals(a.get(key)!)).sort();
    expect(differing).toContain('/v1/videos/v1');
    expect(changedUrls(third)).toEqual([...differing, ...siteChanges(options, second.id, third.id)].sort().map((key) => `${BASE_URL}${key}`));
  });

  it('keeps every private record out of every snapshot file, compressed pages included', async () => {
    const { options, summary } = await shared();
    const dir = snapshotDir(options, summary.id);
    const secrets = ['privatevideo77', 'privateplaylist77', 'heldcomment77', 'replytoheld77', 'onprivate77', 'TOPSECRET', 'topsecrettag'];
    const texts: [string, string][] = [...readTree(dir)].map(([path, bytes]) => [path, bytes.toString('latin1')]);
    const br = pageReader(dir, 'br');
    const gzip = pageReader(dir, 'gzip');
    for (const [key, entry] of Object.entries(readManifest(dir).pages)) {
      if (entry.br) texts.push([`${key} (br)`, brotliDecompressSync(br(entry.br)).toString('utf8')]);
      if (entry.gzip) texts.push([`${key} (gzip)`, gunzipSync(gzip(entry.gzip)).toString('utf8')]);
    }
    expect(texts.some(([path]) => path.endsWith('(br)'))).toBe(true);
    for (const [path, text] of texts) for (const secret of secrets) expect(text.includes(secret), `${secret} in ${path}`).toBe(false);
  });

  it('fails on a video naming a missing channel, naming both, and leaves the previous snapshot serving', async () => {
    const { options, first: good } = await copyOfShared();
    runSql(options.catalogue, "INSERT INTO videos (id, channel, title, published_at, privacy) VALUES ('orphan9', 'ghostchannel9', 'Orphan', '2026-02-01T00:00:00Z', 'public')");
    await expect(build(options)).rejects.toThrow(/orphan9[\s\S]*ghostchannel9|ghostchannel9[\s\S]*orphan9/);
    expect(currentId(options)).toBe(good.id);
    expect(leftovers(options)).toEqual([]);
    expect(snapshotIds(options)).toEqual([good.id]);
  });

  it('removes the half-written directory when rendering fails, and leaves the previous snapshot serving', async () => {
    const { options, first: good } = await copyOfShared();
    // An avatar with an http(s) scheme but no valid host passes the catalogue check and the model,
    // and fails the page schema while rendering.
    runSql(options.catalogue, "UPDATE channels SET avatar_url = 'https://not a host/a.png' WHERE username = 'alice'");
    await expect(build(options)).rejects.toThrow(/schema/);
    expect(currentId(options)).toBe(good.id);
    expect(leftovers(options)).toEqual([]);
    expect(snapshotIds(options)).toEqual([good.id]);
  });

  it('refuses to start while another live build holds the lock, naming its process', async () => {
    const options = setup();
    mkdirSync(layoutOf(options.distDir).root, { recursive: true });
    const lock = join(layoutOf(options.distDir).root, '.build.lock');
    writeFileSync(lock, String(process.pid));
    await expect(build(options)).rejects.toThrow(new RegExp(`another build \\(process ${process.pid}\\)`));
    expect(existsSync(lock)).toBe(true);
  });

  it('refuses a second build started while the first is running', async () => {
    const options = setup();
    const first = build(options);
    const second = build(options);
    const results = await Promise.allSettled([first, second]);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    // Builds that run one after the other may both succeed; overlapping ones must not both write.
    for (const r of rejected) expect(String(r.reason)).toMatch(/another build/);
    expect(results.some((r) => r.status === 'fulfilled')).toBe(true);
    expect(leftovers(options)).toEqual([]);
  });

  it('takes over the lock of a build whose process has ended', async () => {
    const options = setup();
    mkdirSync(layoutOf(options.distDir).root, { recursive: true });
    const ended = spawnSync('true');
    expect(ended.pid).toBeGreaterThan(0);
    const lock = join(layoutOf(options.distDir).root, '.build.lock');
    writeFileSync(lock, String(ended.pid));
    await expect(build(options)).resolves.toMatchObject({ unchanged: false });
    expect(leftovers(options)).toEqual([]);
    expect(existsSync(lock)).toBe(false);
  });

  it('fails with advice when the catalogue does not exist, creating nothing', async () => {
    const dir = dirs.make();
    await expect(build({ catalogue: join(dir, 'absent.db'), distDir: join(dir, 'dist'), baseUrl: BASE_URL })).rejects.toThrow(/no catalogue at/);
    expect(existsSync(join(dir, 'dist'))).toBe(false);
  });

  it('fails with advice when the catalogue is no SQLite file, leaving no folder it made', async () => {
    const dir = dirs.make();
    const text = join(dir, 'notes.db');
    writeFileSync(text, 'not a catalogue\n');
    await expect(build({ catalogue: text, distDir: join(dir, 'dist'), baseUrl: BASE_URL })).rejects.toThrow(/not a database/);
    expect(existsSync(join(dir, 'dist'))).toBe(false);
    // a deployment's folders that were there before stay, whatever they hold
    mkdirSync(join(dir, 'kept', 'snapshots'), { recursive: true });
    await expect(build({ catalogue: text, distDir: join(dir, 'kept'), baseUrl: BASE_URL })).rejects.toThrow(/not a database/);
    expect(existsSync(join(dir, 'kept', 'snapshots'))).toBe(true);
  });

  it('keeps only the newest snapshots besides the current one', async () => {
    const options = { ...setup(), keep: 1 };
    const ids: string[] = [];
    for (const views of [1, 2, 3]) {
      runSql(options.catalogue, `UPDATE videos SET views = ${views} WHERE id = 'v4'`);
      ids.push((await build(options)).id);
    }
    expect(new Set(ids).size).toBe(3);
    const kept = snapshotIds(options);
    expect(kept).toContain(ids[2]);
    expect(kept).toHaveLength(2);
  });

  it('writes every URL with the base URL it was given', async () => {
    const options = { ...setup(), baseUrl: 'https://cdn.example.org' };
    const bodies = readBodies(snapshotDir(options, (await build(options)).id));
    const video = JSON.parse(bodies.get('/v1/videos/v1')!.toString('utf8')) as { data: { watchUrl: string } };
    expect(video.data.watchUrl).toBe('https://cdn.example.org/watch/v1');
    for (const body of bodies.values()) expect(body.toString('utf8')).not.toContain(BASE_URL);
  });
});

describe('swapCurrent', () => {
  it('points current at a snapshot, and at the next one after another swap', () => {
    const root = dirs.make();
    expect(currentSnapshotId(root)).toBeUndefined();
    swapCurrent(root, 'aaaaaaaaaaaaaaaa');
    expect(currentSnapshotId(root)).toBe('aaaaaaaaaaaaaaaa');
    swapCurrent(root, 'bbbbbbbbbbbbbbbb');
    expect(currentSnapshotId(root)).toBe('bbbbbbbbbbbbbbbb');
    expect(readdirSync(root)).toEqual(['current']);
  });
});

describe('withBuildLock', () => {
  it('runs the work and releases the lock', async () => {
    const root = dirs.make();
    await expect(withBuildLock(root, async () => 42)).resolves.toBe(42);
    expect(existsSync(join(root, '.build.lock'))).toBe(false);
  });

  it('releases the lock when the work fails', async () => {
    const root = dirs.make();
    await expect(withBuildLock(root, async () => { throw new Error('boom'); })).rejects.toThrow('boom');
    expect(existsSync(join(root, '.build.lock'))).toBe(false);
  });

  it('refuses a second build while the first holds the lock, naming its process', async () => {
    const root = dirs.make();
    let release!: () => void;
    const first = withBuildLock(root, () => new Promise<void>((resolve) => { release = resolve; }));
    await expect(withBuildLock(root, async () => 'second')).rejects.toThrow(new RegExp(`another build \\(process ${process.pid}\\)`));
    release();
    await first;
    await expect(withBuildLock(root, async () => 'third')).resolves.toBe('third');
  });

  it('takes over a lock left by a process that has ended, or an unreadable one', async () => {
    const root = dirs.make();
    const ended = spawnSync('true').pid!;
    for (const content of [String(ended), '', 'garbage']) {
      writeFileSync(join(root, '.build.lock'), content);
      await expect(withBuildLock(root, async () => 'ran')).resolves.toBe('ran');
    }
  });

  it('fails clearly when the root does not exist', async () => {
    const root = join(dirs.make(), 'missing');
    await expect(withBuildLock(root, async () => 'ran')).rejects.toThrow();
    mkdirSync(root);
    await expect(withBuildLock(root, async () => 'ran')).resolves.toBe('ran');
  });
});

const pageEntry = (etag: string): PageEntry => ({ etag: `"${etag}"`, body: [0, 1, 0, 0] });
const manifestOf = (pages: Record<string, PageEntry>): Manifest =>
  ({ format: MANIFEST_FORMAT, apiVersion: '1', baseUrl: 'https://x.test', counts: {}, files: {}, pages }) as Manifest;

describe('diffManifests', () => {
  it('lists every page of a first snapshot', () => {
    expect(diffManifests(undefined, manifestOf({ '/b': pageEntry('1'), '/a': pageEntry('2') }))).toEqual(['/a', '/b']);
  });

  it('lists pages that changed, appeared or disappeared, sorted, and nothing else', () => {
    const before = manifestOf({ '/same': pageEntry('s'), '/changed': pageEntry('1'), '/gone': pageEntry('g') });
    const after = manifestOf({ '/same': pageEntry('s'), '/changed': pageEntry('2'), '/new': pageEntry('n') });
    expect(diffManifests(before, after)).toEqual(['/changed', '/gone', '/new']);
  });

  it('lists nothing between identical snapshots', () => {
    const pages = { '/a': pageEntry('1'), '/b': pageEntry('2') };
    expect(diffManifests(manifestOf(pages), manifestOf({ ...pages }))).toEqual([]);
  });
});

describe('pageFile', () => {
  it('maps a path without a query to pages + path + .json', () => {
    expect(pageFile('/v1/videos/abc')).toBe('pages/v1/videos/abc.json');
    expect(pageFile('/v1/categories')).toBe('pages/v1/categories.json');
  });

  it('maps a query to @ + the canonical query', () => {
    expect(pageFile('/v1/videos?limit=20&sort=latest')).toBe('pages/v1/videos@limit=20&sort=latest.json');
    expect(pageFile('/v1/videos/abc/comments?limit=20')).toBe('pages/v1/videos/abc/comments@limit=20.json');
  });

  it('puts ~ before a path segment starting with a dot, so no page file or folder is a dot file', () => {
    expect(pageFile('/v1/videos/.x')).toBe('pages/v1/videos/~.x.json');
    expect(pageFile('/v1/videos/..x/comments?limit=20')).toBe('pages/v1/videos/~..x/comments@limit=20.json');
    expect(pageFile('/v1/channels/.chan/videos?limit=20')).toBe('pages/v1/channels/~.chan/videos@limit=20.json');
    expect(pageFile('/v1/videos/-OK9i1_YYYc')).toBe('pages/v1/videos/-OK9i1_YYYc.json');
    expect(pageFile('/v1/videos?category=.cat&limit=20&sort=latest')).toBe('pages/v1/videos@category=.cat&limit=20&sort=latest.json');
  });

  it('keeps a cursor page inside its folder', () => {
    const key = canonicalUrl('/v1/videos', { limit: 20, sort: 'latest', cursor: encodeCursor('/v1/videos?sort=latest', 20) });
    const file = pageFile(key);
    expect(posix.dirname(file)).toBe('pages/v1');
  });

  it('keeps every planned page inside pages/, each in its own file', () => {
    const model = modelOf(catalogueOf({
      categories: [category('music'), category('a.b_c-d')],
      videos: [video('v1', { category: 'music' }), video('A.b-c_d'), video('_x'), video('u', { privacy: 'unlisted' }), video('.x'), video('-x'), video('..y')],
    }));
    const files = new Set<string>();
    for (const { url } of planPages(model)) {
      const file = pageFile(url);
      expect(posix.normalize(file)).toBe(file);
      expect(file.startsWith('pages/v1/')).toBe(true);
      expect(file.split('/')).not.toContain('..');
      expect(file.split('/').filter((segment) => segment.startsWith('.')), file).toEqual([]);
      expect(files.has(file), file).toBe(false);
      files.add(file);
    }
    expect(files.size).toBeGreaterThan(10);
  });
});

describe('layoutOf', () => {
  it('puts snapshots, current and changes under the dist directory', () => {
    const layout = layoutOf('/srv/dist');
    expect(layout).toEqual({ root: '/srv/dist/snapshots', current: '/srv/dist/snapshots/current', changes: '/srv/dist/changes' });
  });
});

describe('buildSnapshot: progress of a first build', () => {
  it('estimates the pages a first build renders, the total its percentage and time left are of', async () => {
    const { options, summary } = await shared();
    const db = openCatalogue(options.catalogue, { readonly: true });
    const model = (() => {
      try {
        return modelOf(readCatalogue(db));
      } finally {
        db.close();
      }
    })();
    const estimate = estimatePages(model);
    expect(Math.abs(estimate - summary.pages) / summary.pages).toBeLessThan(0.1);
  });
});
