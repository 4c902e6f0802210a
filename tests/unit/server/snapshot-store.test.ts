// src/server/snapshot-store.ts, the static page lookup (src/server/static-pages.ts) and the model data it
// loads (src/snapshot/model-data.ts), over one snapshot built from a small catalogue in a temp dir.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { openCatalogue } from '../../../src/catalogue/open-catalogue.ts';
import { readCatalogue } from '../../../src/catalogue/read-catalogue.ts';
import { deriveCatalogue, VIDEO_SORTS } from '../../../src/model/build-model.ts';
import { closeSnapshot, loadSnapshot, type Snapshot } from '../../../src/server/snapshot-store.ts';
import { alignSearchInSteps, isSearchAligned } from '../../../src/api/handlers/list-videos.ts';
import { runSteps, STEP_ITEMS } from '../../../src/model/steps.ts';
import { findPage } from '../../../src/server/static-pages.ts';
import { buildSnapshot } from '../../../src/snapshot/build-snapshot.ts';
import { layoutOf, MANIFEST_FILE, MODEL_FILE } from '../../../src/snapshot/layout.ts';
import { modelLines, parseModelData } from '../../../src/snapshot/model-data.ts';
import { renderPage } from '../../../src/snapshot/render-page.ts';
import { BASE_URL, catalogueOf, category, channel, comment, modelOf, tempDirs, video } from '../support/fixtures.ts';
import { readBodies, smallCatalogue, writeCatalogueFile } from '../support/snapshots.ts';
import { etagOf } from '../../../src/http/etag.ts';

const dirs = tempDirs();
let catalogueFile: string;
let snapshotDir: string;
let id: string;
const opened: Snapshot[] = [];

beforeAll(async () => {
  const dir = dirs.make();
  catalogueFile = writeCatalogueFile(join(dir, 'catalogue.db'), smallCatalogue());
  const distDir = join(dir, 'dist');
  id = (await buildSnapshot({ catalogue: catalogueFile, distDir, baseUrl: BASE_URL })).id;
  snapshotDir = join(layoutOf(distDir).root, id);
});
afterEach(() => { for (const s of opened.splice(0)) closeSnapshot(s); });
afterAll(() => dirs.cleanup());

const load = (cacheBytes: number) => {
  const snapshot = loadSnapshot(snapshotDir, id, { cacheBytes });
  opened.push(snapshot);
  return snapshot;
};

describe('loadSnapshot', () => {
  it.each([['held in memory', 1 << 30], ['read from disk by range', 0]])('serves every page body with its ETag, %s', (_how, cacheBytes) => {
    const snapshot = load(cacheBytes);
    const bodies = readBodies(snapshotDir);
    expect(snapshot.pages.size).toBe(bodies.size);
    for (const [key, entry] of snapshot.pages) {
      const body = snapshot.sources.body.read(entry.body);
      expect(body.equals(bodies.get(key)!), key).toBe(true);
      expect(entry.etag).toBe(etagOf(body));
      if (entry.br) expect(brotliDecompressSync(snapshot.sources.br.read(entry.br)).equals(body)).toBe(true);
      if (entry.gzip) expect(gunzipSync(snapshot.sources.gzip.read(entry.gzip)).equals(body)).toBe(true);
    }
  });

  it('aligns the search index with the model as it loads, in steps, not at the first query with q', () => {
    const snapshot = load(1 << 30);
    expect(snapshot.search).toBeDefined();
    expect(isSearchAligned(snapshot.search!, snapshot.model)).toBe(true);
    // the same alignment, made in steps: one pause at least every STEP_ITEMS documents
    const other = load(1 << 30);
    expect(isSearchAligned(snapshot.search!, other.model)).toBe(false);
    const steps = alignSearchInSteps(snapshot.search!, other.model);
    let pauses = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) pauses++;
    expect(pauses).toBe(Math.floor(snapshot.search!.videos.keys.length / STEP_ITEMS));
    expect(Array.from(step.value)).toEqual(Array.from(runSteps(alignSearchInSteps(other.search!, other.model))));
  });

  it('rebuilds the model with the same counts as the catalogue it was built from', () => {
    const snapshot = load(1 << 30);
    const db = openCatalogue(catalogueFile, { readonly: true });
    const direct = modelOf(readCatalogue(db));
    db.close();
    expect(snapshot.model.videos.size).toBe(direct.videos.size);
    for (const sort of VIDEO_SORTS) {
      expect(snapshot.model.orders[sort].map((e) => e.video.id)).toEqual(direct.orders[sort].map((e) => e.video.id));
    }
    expect(snapshot.model.categories).toEqual(direct.categories);
    expect(snapshot.model.channels.size).toBe(direct.channels.size);
    expect(snapshot.info).toMatchObject({ id, videos: direct.videos.size, pages: snapshot.pages.size });
    expect(snapshot.baseUrl).toBe(BASE_URL);
  });

  it('answers every prerendered URL dynamically with the same bytes as the static page', () => {
    const snapshot = load(1 << 30);
    for (const [key, entry] of snapshot.pages) {
      const page = renderPage(key, { model: snapshot.model, snapshot: undefined, liveStreams: () => [] });
      expect(page.rendered.body.equals(snapshot.sources.body.read(entry.body)), key).toBe(true);
    }
  });

  it('refuses a snapshot of another format, advising a rebuild', () => {
    const dir = join(dirs.make(), 'bad');
    mkdirSync(dir);
    writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify({ format: 1, pages: {} }));
    // the single-file format's page files
    for (const file of ['pages.bin', 'pages.br.bin', 'pages.gz.bin']) writeFileSync(join(dir, file), '');
    writeFileSync(join(dir, MODEL_FILE), '');
    expect(() => loadSnapshot(dir, 'bad', { cacheBytes: 0 })).toThrow(/npm run build/);
  });

  it('fails on a directory that holds no snapshot', () => {
    expect(() => loadSnapshot(dirs.make(), 'none', { cacheBytes: 0 })).toThrow();
  });
});

describe('findPage (static-pages.ts)', () => {
  let snapshot: Snapshot;
  beforeAll(() => { snapshot = loadSnapshot(snapshotDir, id, { cacheBytes: 1 << 30 }); });
  afterAll(() => closeSnapshot(snapshot));
  const find = (raw: string) => findPage(snapshot, raw, new URL(raw, 'http://origin.invalid'));

  it('finds a page by its canonical URL as sent', () => {
    expect(find('/v1/videos?limit=20&sort=latest')).toBe(snapshot.pages.get('/v1/videos?limit=20&sort=latest'));
  });

  it('finds the same page for a query in another order, with defaults left out, or with unknown parameters', () => {
    const page = snapshot.pages.get('/v1/videos?limit=20&sort=latest');
    expect(page).toBeDefined();
    for (const raw of ['/v1/videos', '/v1/videos?sort=latest&limit=20', '/v1/videos?utm_source=x', '/v1/videos?offset=0']) {
      expect(find(raw), raw).toBe(page);
    }
  });

  it('finds a video page by a percent-encoded id', () => {
    expect(find('/v1/videos/%76%31')).toBe(snapshot.pages.get('/v1/videos/v1'));
  });

  it('finds nothing for invalid parameters, leaving the problem to the dynamic path', () => {
    expect(find('/v1/videos?limit=0')).toBeUndefined();
    expect(find('/v1/videos?limit=20&limit=20')).toBeUndefined();
  });

  it('finds nothing for a page that was not prerendered or a private video', () => {
    expect(find('/v1/videos?limit=7')).toBeUndefined();
    expect(find('/v1/videos/privatevideo77')).toBeUndefined();
    expect(find('/v1/nothing-here')).toBeUndefined();
  });
});

const catalogue = catalogueOf({
  categories: [category('music', 'Música')],
  channels: [channel('alice', { avatarUrl: 'https://cdn.example.org/a.png' }), channel('bob')],
  videos: [
    video('v1', { title: 'Line\u2028separator and \n newline', tags: ['jazz'], category: 'music', duration: 61 }),
    video('v2', { tags: ['jazz'], channel: 'bob', privacy: 'unlisted' }),
    video('v3', { tags: ['jazz'], sources: [{ url: 'https://m.example/v3.mp4', type: 'video/mp4', height: 720 }] }),
  ],
  playlists: [{ id: 'p1', channel: 'alice', title: 'P', description: '', privacy: 'public', videoIds: ['v1', 'v2'] }],
  comments: [comment('c1', 'v1'), comment('r1', 'v1', { parentId: 'c1' })],
});

describe('modelLines and parseModelData', () => {
  it('round-trip the public catalogue, its derived data and the base URL', () => {
    const derived = deriveCatalogue(catalogue);
    const data = parseModelData([...modelLines(catalogue, derived, BASE_URL)].join(''));
    expect(data.baseUrl).toBe(BASE_URL);
    expect(JSON.parse(JSON.stringify(data.catalogue))).toEqual(JSON.parse(JSON.stringify(catalogue)));
    expect(data.derived.trending).toEqual(derived.trending);
    expect(data.derived.related.map((r) => Array.from(r))).toEqual(derived.related.map((r) => Array.from(r)));
  });

  it('writes one record a line, whatever the text holds', () => {
    const lines = [...modelLines(catalogue, deriveCatalogue(catalogue), BASE_URL)];
    for (const line of lines) {
      expect(line.endsWith('\n')).toBe(true);
      expect(line.slice(0, -1)).not.toContain('\n');
    }
    const counted = 1 + catalogue.categories.length + catalogue.channels.length + catalogue.videos.length + catalogue.playlists.length + catalogue.comments.length;
    expect(lines).toHaveLength(counted);
  });
});
