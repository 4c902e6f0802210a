// createLiveSource: live records read from a real catalogue file at request time, kept for a TTL,
// reopened when the file is replaced, and the last good read served while the file cannot be read.
import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openCatalogue, type Catalogue } from '../../../src/catalogue/open-catalogue.ts';
import type { PublicLiveStream } from '../../../src/model/public-catalogue.ts';
import { createLiveSource, LIVE_TTL_MS, type LiveSource } from '../../../src/server/live-source.ts';
import { liveStream, rawChannel, tempDirs, writeRecords } from '../support/fixtures.ts';

const dirs = tempDirs();
const opened: Catalogue[] = [];
const sources: LiveSource[] = [];
afterEach(() => {
  for (const source of sources.splice(0)) source.close();
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

/** A source with a fake clock the test moves by hand, and the lines it logged. */
function sourceOf(path: string, ttlMs = 1000) {
  const clock = { now: 5_000 };
  const logged: string[] = [];
  const source = createLiveSource(path, { ttlMs, now: () => clock.now, log: (m) => logged.push(m) });
  sources.push(source);
  return { source, clock, logged, viewers: () => source.streams(FALLBACK).map((s) => s.viewers) };
}

const setViewers = (db: Catalogue, viewers: number) => db.prepare("UPDATE live_streams SET viewers = ? WHERE channel = 'amy'").run(viewers);

describe('createLiveSource', () => {
  it('serves the live records of the catalogue file', () => {
    const path = join(dirs.make(), 'catalogue.db');
    catalogueAt(path, 7).close();
    const { source } = sourceOf(path);
    expect(source.streams(FALLBACK)).toEqual([{ channel: 'amy', state: 'live', title: '', startedAt: T, viewers: 7 }]);
    expect(source.error).toBeUndefined();
  });

  it('keeps a read for the TTL, and reads a change once the TTL has passed', () => {
    const path = join(dirs.make(), 'catalogue.db');
    const db = catalogueAt(path, 1);
    const { clock, viewers } = sourceOf(path, 1000);
    expect(viewers()).toEqual([1]);
    setViewers(db, 2);
    clock.now += 999;
    expect(viewers()).toEqual([1]);
    clock.now += 1;
    expect(viewers()).toEqual([2]);
  });

  it('sees a change to live state written while it holds the file open', () => {
    const path = join(dirs.make(), 'catalogue.db');
    const db = catalogueAt(path, 1);
    const { clock, source } = sourceOf(path, 10);
    expect(source.streams(FALLBACK).map((s) => s.state)).toEqual(['live']);
    writeRecords(db, [{ kind: 'live', channel: 'amy', state: 'offline' }, { kind: 'live', channel: 'bob', state: 'upcoming', scheduledFor: T }]);
    clock.now += 10;
    expect(source.streams(FALLBACK).map((s) => [s.channel, s.state])).toEqual([['amy', 'offline'], ['bob', 'upcoming']]);
  });

  it('reopens a catalogue file replaced by a new file at the same path', () => {
    const dir = dirs.make();
    const path = join(dir, 'catalogue.db');
    catalogueAt(path, 1).close();
    const { clock, viewers } = sourceOf(path, 10);
    expect(viewers()).toEqual([1]);

    const next = join(dir, 'next.db');
    catalogueAt(next, 99).close();
    renameSync(next, path);
    clock.now += 10;
    expect(viewers()).toEqual([99]);
  });

  it('serves the fallback and names the path in error while the file is missing, and clears it when the file appears', () => {
    const path = join(dirs.make(), 'later', 'catalogue.db');
    const { source, clock, logged, viewers } = sourceOf(path, 10);
    expect(source.streams(FALLBACK)).toBe(FALLBACK);
    expect(source.error).toContain(path);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain(path);

    catalogueAt(path, 3).close();
    clock.now += 10;
    expect(viewers()).toEqual([3]);
    expect(source.error).toBeUndefined();
    expect(logged.at(-1)).toContain('readable again');
  });

  it('retries a never-readable catalogue on the next call, without waiting for the TTL', () => {
    const path = join(dirs.make(), 'catalogue.db');
    const { source, viewers } = sourceOf(path, 60_000);
    expect(source.streams(FALLBACK)).toBe(FALLBACK);
    catalogueAt(path, 4).close();
    expect(viewers()).toEqual([4]);
  });

  it('serves the last good records after a read fails, keeping the error until a read succeeds', () => {
    const dir = dirs.make();
    const path = join(dir, 'catalogue.db');
    catalogueAt(path, 5).close();
    const { source, clock, logged, viewers } = sourceOf(path, 10);
    expect(viewers()).toEqual([5]);

    rmSync(path);
    clock.now += 10;
    expect(viewers()).toEqual([5]);
    expect(source.error).toContain(path);
    clock.now += 10;
    expect(viewers()).toEqual([5]);
    expect(logged.filter((m) => m.includes('cannot read'))).toHaveLength(1);

    catalogueAt(path, 6).close();
    clock.now += 10;
    expect(viewers()).toEqual([6]);
    expect(source.error).toBeUndefined();
  });

  it('serves the last good records when the file is replaced by one that is not a catalogue', () => {
    const dir = dirs.make();
    const path = join(dir, 'catalogue.db');
    catalogueAt(path, 8).close();
    const { source, clock, viewers } = sourceOf(path, 10);
    expect(viewers()).toEqual([8]);

    const broken = openCatalogue(join(dir, 'broken.db'));
    broken.exec('DROP TABLE live_streams');
    broken.close();
    renameSync(join(dir, 'broken.db'), path);
    clock.now += 10;
    expect(viewers()).toEqual([8]);
    expect(source.error).toMatch(/live_streams/);
    expect(source.error).toContain(path);
  });

  it('keeps records for two seconds unless told otherwise', () => {
    expect(LIVE_TTL_MS).toBe(2000);
    const path = join(dirs.make(), 'catalogue.db');
    const db = catalogueAt(path, 1);
    const clock = { now: 0 };
    const source = createLiveSource(path, { now: () => clock.now, log: () => {} });
    sources.push(source);
    expect(source.streams([]).map((s) => s.viewers)).toEqual([1]);
    setViewers(db, 2);
    clock.now = 1999;
    expect(source.streams([]).map((s) => s.viewers)).toEqual([1]);
    clock.now = 2000;
    expect(source.streams([]).map((s) => s.viewers)).toEqual([2]);
  });
});
