// The build's read split over two threads (read-build-input.ts openBuildInput, derive-on-worker.ts
// startCheckAndDerive): this thread's unchecked read is exactly the one-thread read, the worker's
// check and trending and related are exactly the ones made from that read, and a catalogue that
// another connection changed while the two read is detected (the build then reads again, checked,
// and its snapshot is the one a build of the changed catalogue makes).
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CatalogueCheckError } from '../../../src/catalogue/check-catalogue.ts';
import { openCatalogue } from '../../../src/catalogue/open-catalogue.ts';
import { readCatalogue } from '../../../src/catalogue/read-catalogue.ts';
import { deriveCatalogue } from '../../../src/model/build-model.ts';
import { buildSnapshot } from '../../../src/snapshot/build-snapshot.ts';
import { startCheckAndDerive } from '../../../src/snapshot/derive-on-worker.ts';
import { openBuildInput, readBuildInput } from '../../../src/snapshot/read-build-input.ts';
import { BASE_URL, rawVideo, tempDirs } from '../support/fixtures.ts';
import { runSql, smallCatalogue, writeCatalogueFile } from '../support/snapshots.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/** A catalogue file with enough videos for full related lists, some private, some unlisted. */
function catalogueFile(): string {
  const videos = Array.from({ length: 240 }, (_, i) => rawVideo(`w${i}`, {
    tags: [`t${i % 7}`, `t${i % 11}`, ...(i % 5 === 0 ? ['Jazz', 'jazz'] : [])],
    channel: i % 3 === 0 ? 'bob' : 'alice',
    category: i % 4 === 0 ? undefined : i % 2 === 0 ? 'music' : 'tech',
    views: (i * 37) % 1000,
    likes: i % 9,
    publishedAt: `2026-01-${String(1 + (i % 28)).padStart(2, '0')}T00:00:00Z`,
    privacy: i % 13 === 0 ? 'private' : i % 10 === 0 ? 'unlisted' : 'public',
  }));
  return writeCatalogueFile(join(dirs.make(), 'catalogue.db'), [...smallCatalogue(), ...videos]);
}

const lists = (related: readonly ArrayLike<number>[]) => related.map((r) => Array.from(r));

describe('openBuildInput', () => {
  it('reads exactly what the one-transaction read (readBuildInput) reads, and sees no change when none was made', () => {
    const file = catalogueFile();
    const reader = openBuildInput(file);
    try {
      expect(reader.read()).toEqual(readBuildInput(file));
      expect(reader.unchanged()).toBe(true);
      expect(() => reader.read()).toThrow(/already read/);
    } finally {
      reader.close();
    }
  });

  it('sees a change committed by another connection after it was opened and before it read', () => {
    const file = catalogueFile();
    const reader = openBuildInput(file);
    try {
      runSql(file, "UPDATE videos SET views = 1 WHERE id = 'w1'");
      const input = reader.read();
      expect(input.catalogue.videos.find((v) => v.id === 'w1')!.views).toBe(1);
      expect(reader.unchanged()).toBe(false);
    } finally {
      reader.close();
    }
  });

  it('sees a change committed by another connection after it read', () => {
    const file = catalogueFile();
    const reader = openBuildInput(file);
    try {
      reader.read();
      expect(reader.unchanged()).toBe(true);
      runSql(file, "UPDATE videos SET title = 'changed' WHERE id = 'w1'");
      expect(reader.unchanged()).toBe(false);
    } finally {
      reader.close();
    }
  });
});

describe('startCheckAndDerive', () => {
  it('answers the revision, no problem, and the trending and related deriveCatalogue makes of the one-thread read', async () => {
    const file = catalogueFile();
    const { catalogue, revision } = readBuildInput(file);
    const here = deriveCatalogue(catalogue);
    const task = startCheckAndDerive(file);
    task.go();
    const there = await task.result;
    expect(there.check).toBeUndefined();
    expect(there.revision).toBe(revision);
    expect(there.videos).toBe(catalogue.videos.length);
    expect(there.derived.trending).toEqual(here.trending);
    expect(lists(there.derived.related)).toEqual(lists(here.related));
    expect(there.derived.related.some((r) => r.length === 100)).toBe(true);
  });

  it('answers the problems the check finds, as the one-thread read throws them', async () => {
    const file = catalogueFile();
    runSql(file, "UPDATE videos SET title = '  ' WHERE id = 'w2'; UPDATE videos SET thumbnail_url = 'javascript:x' WHERE id = 'w3'");
    let thrown: CatalogueCheckError | undefined;
    try {
      readBuildInput(file);
    } catch (error) {
      thrown = error as CatalogueCheckError;
    }
    expect(thrown).toBeInstanceOf(CatalogueCheckError);
    const task = startCheckAndDerive(file);
    task.go();
    const there = await task.result;
    expect(there.check).toEqual({ problems: thrown!.problems, total: 2 });
  });

  it('reads, then waits to be told before it computes: nothing is answered until then', async () => {
    const file = catalogueFile();
    const task = startCheckAndDerive(file);
    let answered = false;
    void task.result.then(() => { answered = true; });
    await new Promise((r) => setTimeout(r, 1_500));
    expect(answered).toBe(false);
    task.go();
    expect((await task.result).videos).toBe(readBuildInput(file).catalogue.videos.length);
  });

  it('fails with a message when the catalogue cannot be read', async () => {
    await expect(startCheckAndDerive(join(dirs.make(), 'missing.db')).result).rejects.toThrow(/^trending and related could not be computed: /);
  });
});

describe('a build whose catalogue changes while it is read', () => {
  it('reads it again, checked, and makes the snapshot a build of the changed catalogue makes', async () => {
    const file = catalogueFile();
    const twin = join(dirs.make(), 'catalogue.db');
    const messages: string[] = [];
    let changed = false;
    const summary = await buildSnapshot({
      catalogue: file, distDir: join(dirs.make(), 'dist'), baseUrl: BASE_URL,
      onProgress: (message) => {
        messages.push(message);
        // committed once this thread has read, while the worker may still be reading
        if (!changed && message.startsWith('read ')) {
          changed = true;
          runSql(file, "UPDATE videos SET title = 'changed mid-build' WHERE id = 'w1'; UPDATE videos SET views = 999999 WHERE id = 'w4'");
          // the change is in the WAL while the build's connection is open: a copy of the file alone would not have it
          runSql(file, `VACUUM INTO '${twin}'`);
        }
      },
    });
    expect(messages.some((m) => m.startsWith('the catalogue changed while it was read'))).toBe(true);
    const fresh = await buildSnapshot({ catalogue: twin, distDir: join(dirs.make(), 'dist'), baseUrl: BASE_URL, full: true });
    expect(summary.id).toBe(fresh.id);
  });

  it('refuses a catalogue made broken while it was read, naming the record', async () => {
    const file = catalogueFile();
    let broken = false;
    await expect(buildSnapshot({
      catalogue: file, distDir: join(dirs.make(), 'dist'), baseUrl: BASE_URL,
      onProgress: (message) => {
        if (!broken && message.startsWith('read ')) {
          broken = true;
          runSql(file, "UPDATE videos SET title = '' WHERE id = 'w5'");
        }
      },
    })).rejects.toThrow(/video "w5": title: .*must not be empty/);
  });

  it('reads a catalogue unchanged while it is read once (no second read)', async () => {
    const file = catalogueFile();
    const messages: string[] = [];
    const summary = await buildSnapshot({ catalogue: file, distDir: join(dirs.make(), 'dist'), baseUrl: BASE_URL, onProgress: (m) => messages.push(m) });
    expect(messages.filter((m) => m.startsWith('the catalogue changed'))).toEqual([]);
    const db = openCatalogue(file, { readonly: true });
    try {
      expect(summary.videos).toBe(readCatalogue(db).videos.length);
    } finally {
      db.close();
    }
  });
});
