// createLiveSource: live records read from a real catalogue file by the catalogue thread (a real
// worker), served from memory, reopened when the file is replaced, and the last good read served
// while the file cannot be read. Reads are driven by hand here (refresh); the server reads every 2 s.
import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openCatalogue, type Catalogue } from '../../../src/catalogue/open-catalogue.ts';
import type { PublicLiveStream } from '../../../src/catalogue/public-catalogue.ts';
import { startCatalogueThread, type CatalogueThread } from '../../../src/server/catalogue-thread.ts';
import { createLiveSource, LIVE_TTL_MS, type LiveSource } from '../../../src/server/live-source.ts';
import { liveStream, rawChannel, tempDirs, writeRecords } from '../support/fixtures.ts';

const dirs = tempDirs();
const opened: Catalogue[] = [];
const sources: LiveSource[] = [];
const threads: CatalogueThread[] = [];
afterEach(async () => {
  for (const source of sources.splice(0)) source.close();
  await Promise.all(threads.splice(0).map((t) => t.close()));
  for (const db of opened.splice(0)) if (db.open) db.close();
  dirs.cleanup();
});

const T = '2026-03-01T10:00:00Z';
const FALLBACK: readonly PublicLiveStream[] = [liveStream('from-snapshot', 'offline')];

/** A catalogue file at `path` with channels amy and bob, amy live with `viewers`; left open for changes. */
function catalogueAt(path: string, viewers: number): Catalogue {
  const db = openCatalogue(path);
  opened.push(db);
  writeRecords(db, [rawChannel('amy'), rawChannel('bob'), { kind: 'live', channel: 'amy', state: 'live', startedAt: T, viewers }]);
  return db;
}

/** A source on its own catalogue thread, read by hand, and the lines it logged. */
function sourceOf(path: string) {
  const logged: string[] = [];
  const thread = startCatalogueThread(path);
  threads.push(thread);
  const source = createLiveSource(thread, { log: (m) => logged.push(m), poll: false });
  sources.push(source);
  return { source, logged, viewers: () => source.streams(FALLBACK).map((s) => s.viewers) };
}

const setViewers = (db: Catalogue, viewers: number) => db.prepare("UPDATE live_streams SET viewers = ? WHERE channel = 'amy'").run(viewers);

describe('createLiveSource', () => {
  it('serves the live records of the catalogue file', async () => {
    const path = join(dirs.make(), 'catalogue.db');
    catalogueAt(path, 7).close();
    const { source } = sourceOf(path);
    await source.refresh();
    expect(source.streams(FALLBACK)).toEqual([{ channel: 'amy', state: 'live', title: '', startedAt: T, viewers: 7 }]);
    expect(source.failure?.message).toBeUndefined();
  });

  it('keeps the last read until the next one', async () => {
    const path = join(dirs.make(), 'catalogue.db');
    const db = catalogueAt(path, 1);
    const { source, viewers } = sourceOf(path);
    await source.refresh();
    expect(viewers()).toEqual([1]);
    setViewers(db, 2);
    expect(viewers()).toEqual([1]);
    await source.refresh();
    expect(viewers()).toEqual([2]);
  });

  it('sees a change to live state written while it holds the file open', async () => {
    const path = join(dirs.make(), 'catalogue.db');
    const db = catalogueAt(path, 1);
    const { source } = sourceOf(path);
    await source.refresh();
    expect(source.streams(FALLBACK).map((s) => s.state)).toEqual(['live']);
    writeRecords(db, [{ kind: 'live', channel: 'amy', state: 'offline' }, { kind: 'live', channel: 'bob', state: 'upcoming', scheduledFor: T }]);
    await source.refresh();
    expect(source.streams(FALLBACK).map((s) => [s.channel, s.state])).toEqual([['amy', 'offline'], ['bob', 'upcoming']]);
  });

  it('reopens a catalogue file replaced by a new file at the same path', async () => {
    const dir = dirs.make();
    const path = join(dir, 'catalogue.db');
    catalogueAt(path, 1).close();
    const { source, viewers } = sourceOf(path);
    await source.refresh();
    expect(viewers()).toEqual([1]);

    const next = join(dir, 'next.db');
    catalogueAt(next, 99).close();
    renameSync(next, path);
    await source.refresh();
    expect(viewers()).toEqual([99]);
  });

  it('serves the fallback and names the path in error while the file is missing, and clears it when the file appears', async () => {
    const path = join(dirs.make(), 'later', 'catalogue.db');
    const { source, logged, viewers } = sourceOf(path);
    await source.refresh();
    expect(source.streams(FALLBACK)).toBe(FALLBACK);
    expect(source.failure?.message).toContain(path);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain(path);

    catalogueAt(path, 3).close();
    await source.refresh();
    expect(viewers()).toEqual([3]);
    expect(source.failure?.message).toBeUndefined();
    expect(logged.at(-1)).toContain('readable again');
  });

  it('serves the last good records after a read fails, keeping the error until a read succeeds', async () => {
    const dir = dirs.make();
    const path = join(dir, 'catalogue.db');
    catalogueAt(path, 5).close();
    const { source, logged, viewers } = sourceOf(path);
    await source.refresh();
    expect(viewers()).toEqual([5]);

    rmSync(path);
    await source.refresh();
    expect(viewers()).toEqual([5]);
    expect(source.failure?.message).toContain(path);
    await source.refresh();
    expect(viewers()).toEqual([5]);
    expect(logged.filter((m) => m.includes('cannot read'))).toHaveLength(1);

    catalogueAt(path, 6).close();
    await source.refresh();
    expect(viewers()).toEqual([6]);
    expect(source.failure?.message).toBeUndefined();
  });

  it('serves the last good records when the file is replaced by one that is not a catalogue', async () => {
    const dir = dirs.make();
    const path = join(dir, 'catalogue.db');
    catalogueAt(path, 8).close();
    const { source, viewers } = sourceOf(path);
    await source.refresh();
    expect(viewers()).toEqual([8]);

    const broken = openCatalogue(join(dir, 'broken.db'));
    broken.exec('DROP TABLE live_streams');
    broken.close();
    renameSync(join(dir, 'broken.db'), path);
    await source.refresh();
    expect(viewers()).toEqual([8]);
    expect(source.failure).toMatchObject({ kind: 'foreign', message: expect.stringMatching(/live_streams/) });
    expect(source.failure?.message).toContain(path);
  });

  it('reads in the background every two seconds unless told otherwise', async () => {
    expect(LIVE_TTL_MS).toBe(2000);
    const path = join(dirs.make(), 'catalogue.db');
    const db = catalogueAt(path, 1);
    const thread = startCatalogueThread(path);
    threads.push(thread);
    const source = createLiveSource(thread, { ttlMs: 50, log: () => {} });
    sources.push(source);
    await source.refresh();
    expect(source.streams([]).map((s) => s.viewers)).toEqual([1]);
    setViewers(db, 2);
    const until = Date.now() + 2000;
    while (source.streams([])[0]?.viewers !== 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    expect(source.streams([]).map((s) => s.viewers)).toEqual([2]);
  });
});
