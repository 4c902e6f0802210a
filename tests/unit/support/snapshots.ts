// Small catalogues on disk and helpers to read back what a snapshot build wrote.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { openCatalogue } from '../../../src/catalogue/open-catalogue.ts';
import { buildModel, deriveCatalogue } from '../../../src/model/build-model.ts';
import { buildSearchIndex, serialiseSearchIndex } from '../../../src/search/search-index.ts';
import type { BuildOptions } from '../../../src/snapshot/build-snapshot.ts';
import { readBuildInput } from '../../../src/snapshot/read-build-input.ts';
import { MANIFEST_FILE, pageFileName, type PageKind } from '../../../src/snapshot/layout.ts';
import type { Manifest, Range } from '../../../src/snapshot/manifest.ts';
import { rawCategory, rawChannel, rawComment, rawPlaylist, rawVideo, writeRecords, type Raw } from './fixtures.ts';

/** A small catalogue with every kind of visibility: public, unlisted and private records. */
export function smallCatalogue(): Raw[] {
  return [
    rawCategory('music', 'Music'),
    rawCategory('tech', 'Technology'),
    rawChannel('alice', { displayName: 'Alice', subscribers: 100 }),
    rawChannel('bob', { displayName: 'Bob' }),
    rawVideo('v1', { category: 'music', tags: ['jazz', 'piano'], duration: 200, views: 500, likes: 20, publishedAt: '2026-01-01T10:00:00Z', description: 'x'.repeat(1500) }),
    rawVideo('v2', { category: 'music', tags: ['jazz'], duration: 700, views: 90, likes: 2, publishedAt: '2026-01-02T10:00:00Z', channel: 'bob', features: { calm: true } }),
    rawVideo('v3', { category: 'tech', tags: ['python'], duration: 4000, views: 12, publishedAt: '2026-01-03T10:00:00Z', sources: [{ url: 'https://media.example.test/v3-720.mp4', type: 'video/mp4', height: 720 }] }),
    rawVideo('v4', { category: 'tech', tags: ['python', 'jazz'], views: 1, publishedAt: '2026-01-04T10:00:00Z', channel: 'bob', features: { '3d': true, captions: true } }),
    rawVideo('unlisted1', { category: 'music', tags: ['jazz'], privacy: 'unlisted', publishedAt: '2026-01-05T10:00:00Z' }),
    rawVideo('privatevideo77', { category: 'music', tags: ['jazz', 'topsecrettag'], privacy: 'private', title: 'TOPSECRET title', description: 'TOPSECRET description', publishedAt: '2026-01-06T10:00:00Z' }),
    rawPlaylist('pl1', ['v1', 'privatevideo77', 'unlisted1']),
    rawPlaylist('privateplaylist77', ['v1'], { privacy: 'private', title: 'TOPSECRET playlist' }),
    rawComment('c1', 'v1', { publishedAt: '2026-01-02T00:00:00Z' }),
    rawComment('c2', 'v1', { publishedAt: '2026-01-03T00:00:00Z' }),
    rawComment('r1', 'v1', { parentId: 'c1', publishedAt: '2026-01-04T00:00:00Z' }),
    rawComment('heldcomment77', 'v1', { state: 'held', text: 'TOPSECRET held comment' }),
    rawComment('replytoheld77', 'v1', { parentId: 'heldcomment77', text: 'TOPSECRET reply to held' }),
    rawComment('onprivate77', 'privatevideo77', { text: 'TOPSECRET comment on private' }),
  ];
}

/**
 * `count` public videos `long0`, `long1`… beside the small catalogue: every other one music, every
 * third one on bob's channel, spread over February's days, with growing views and `description(i)`.
 */
export function longVideos(count: number, description: (i: number) => string): Raw[] {
  return Array.from({ length: count }, (_, i) => rawVideo(`long${i}`, {
    category: i % 2 === 0 ? 'music' : 'tech',
    channel: i % 3 === 0 ? 'bob' : 'alice',
    publishedAt: `2026-02-${String((i % 28) + 1).padStart(2, '0')}T10:00:00Z`,
    views: i * 7,
    description: description(i),
  }));
}

/** Writes records into a new catalogue file in one transaction and closes it. */
export function writeCatalogueFile(file: string, raws: readonly Raw[]): string {
  const db = openCatalogue(file);
  try {
    writeRecords(db, raws);
  } finally {
    db.close();
  }
  return file;
}

/** Runs SQL against a catalogue file, bypassing import validation. */
export function runSql(file: string, sql: string): void {
  const db = openCatalogue(file);
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

/** Every file under a directory, by relative path, with its bytes. */
export function readTree(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set(relative(dir, path), readFileSync(path));
    }
  };
  walk(dir);
  return files;
}

export function readManifest(snapshotDir: string): Manifest {
  return JSON.parse(readFileSync(join(snapshotDir, MANIFEST_FILE), 'utf8')) as Manifest;
}

/** Reads byte ranges of one of a snapshot's page files: identity bodies, br or gzip variants. */
export function pageReader(snapshotDir: string, kind: PageKind): (range: Range) => Buffer {
  const shards = new Map<number, Buffer>();
  return ([offset, length, , shard]) => {
    let bin = shards.get(shard);
    if (!bin) shards.set(shard, (bin = readFileSync(join(snapshotDir, pageFileName(kind, shard)))));
    return bin.subarray(offset, offset + length);
  };
}

/** The identity body of every page of a snapshot, by canonical URL. */
export function readBodies(snapshotDir: string): Map<string, Buffer> {
  const read = pageReader(snapshotDir, 'body');
  return new Map(Object.entries(readManifest(snapshotDir).pages).map(([key, entry]) => [key, read(entry.body)]));
}

/** search.json as the main thread serialises it, from the model of the catalogue as the build reads it. */
export function serialSearchBytes(options: BuildOptions): Buffer {
  const { catalogue } = readBuildInput(options.catalogue);
  const model = buildModel(catalogue, deriveCatalogue(catalogue), options.baseUrl);
  return Buffer.from(serialiseSearchIndex(buildSearchIndex(model)));
}
