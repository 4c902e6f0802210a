// Trending and related computed on the build's worker thread (src/snapshot/derive-on-worker.ts):
// the same scores and lists, number for number, as deriveCatalogue on the main thread, from the
// fields the worker is given or reads itself from the catalogue (used only when they are the main
// thread's: a catalogue changed between the two reads must not mix two states into one snapshot);
// a failure of the worker is the build's, with a message.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openCatalogue } from '../../../src/catalogue/open-catalogue.ts';
import { readCatalogue } from '../../../src/catalogue/read-catalogue.ts';
import type { PublicVideo } from '../../../src/catalogue/public-catalogue.ts';
import { buildModel, deriveCatalogue, startModel, VIDEO_SORTS } from '../../../src/model/build-model.ts';
import { prepareDerive, startDerive } from '../../../src/snapshot/derive-on-worker.ts';
import Database from 'better-sqlite3';
import { changeLogTriggers } from '../../../src/catalogue/change-log.ts';
import { buildSnapshot } from '../../../src/snapshot/build-snapshot.ts';
import { recordedDerived } from '../../../src/snapshot/derived-file.ts';
import { layoutOf } from '../../../src/snapshot/layout.ts';
import { runSql } from '../support/snapshots.ts';
import { catalogueOf, channel, prng, rawCategory, rawChannel, rawVideo, tempDirs, video, writeRecords } from '../support/fixtures.ts';

/** Videos with shared and distinct tags (any case), channels, categories, ties in views and dates, ids beyond ASCII. */
function videos(count: number, seed: number): PublicVideo[] {
  const random = prng(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const tags = ['python', 'Python', 'web', 'jazz', 'piano', 'data', 'ünï', '日本', 'x'];
  return Array.from({ length: count }, (_, i) => video(`${pick(['v', 'é', '\u{1f600}', 'V'])}${i}`, {
    tags: Array.from({ length: Math.floor(random() * 5) }, () => pick(tags)),
    channel: pick(['alice', 'bob', 'carol', 'dave']),
    category: random() < 0.2 ? undefined : pick(['talks', 'music', 'tech']),
    views: Math.floor(random() * 4) * 1000,
    likes: Math.floor(random() * 3),
    publishedAt: `2026-0${1 + Math.floor(random() * 3)}-1${Math.floor(random() * 9)}T00:00:00Z`,
    privacy: random() < 0.1 ? 'unlisted' : 'public',
    description: 'not read by the worker',
  }));
}

describe('startDerive', () => {
  it('answers what deriveCatalogue answers on the main thread, score for score and list for list', async () => {
    for (const [count, seed] of [[0, 1], [1, 2], [300, 3], [2_500, 4]] as const) {
      const list = videos(count, seed);
      const here = deriveCatalogue(catalogueOf({ videos: list }));
      const there = await startDerive(list).derived;
      expect(there.trending).toEqual(here.trending);
      expect(there.related.map((r) => Array.from(r))).toEqual(here.related.map((r) => Array.from(r)));
      if (count > 300) expect(there.related.some((r) => r.length === 100)).toBe(true);
    }
  });

  it('fails with a message when the worker fails', async () => {
    const broken = [{ ...video('v1'), tags: undefined as unknown as string[] }];
    await expect(startDerive(broken).derived).rejects.toThrow(/^trending and related could not be computed: /);
  });

  it('stops the worker when asked: it answers nothing after', async () => {
    const task = startDerive(videos(2_000, 5));
    await task.stop();
    await expect(task.derived).rejects.toThrow(/stopped \(exit code \d+\) before answering/);
  });

  it('starts before its videos are known and answers the same once given them (the build reads the catalogue meanwhile)', async () => {
    const pending = prepareDerive();
    await new Promise((r) => setTimeout(r, 50));
    const list = videos(1_200, 6);
    const there = await pending.give(list).derived;
    const here = deriveCatalogue(catalogueOf({ videos: list }));
    expect(there.trending).toEqual(here.trending);
    expect(there.related.map((r) => Array.from(r))).toEqual(here.related.map((r) => Array.from(r)));
    expect(() => pending.give(list)).toThrow(/already given/);
  });

  it('is stopped before it was given videos when the build fails first: it ends, answering nothing', async () => {
    const pending = prepareDerive();
    await pending.stop();
    const task = pending.give(videos(10, 7));
    await expect(task.derived).rejects.toThrow(/stopped \(exit code \d+\) before answering/);
  });
});

const CHANNELS = ['alice', 'bob', 'carol', 'dave'].map((name) => channel(name));

describe('the sort orders computed on the worker thread', () => {
  it('make the model the build finishes with them the one buildModel makes sorting them itself, order for order (ids in catalogue order or not)', async () => {
    for (const [count, seed] of [[0, 11], [1, 12], [700, 13], [3_000, 14]] as const) {
      const list = videos(count, seed);
      for (const given of [list, [...list].reverse()]) {
        const catalogue = catalogueOf({ videos: given, channels: CHANNELS });
        const withOrders = await startDerive(given).derived;
        expect(withOrders.orders).toBeDefined();
        const here = buildModel(catalogue, deriveCatalogue(catalogue), 'https://example.test');
        // the build's path: the records taken, then finished with the worker's answer
        const there = startModel(catalogue).finish(withOrders, 'https://example.test');
        for (const sort of VIDEO_SORTS) expect(there.orders[sort].map((e) => e.video.id)).toEqual(here.orders[sort].map((e) => e.video.id));
      }
    }
  });

  it('are refused when they do not hold the public videos', async () => {
    const list = videos(50, 15);
    const catalogue = catalogueOf({ videos: list, channels: CHANNELS });
    const derived = await startDerive(list).derived;
    const short = { ...derived, orders: { ...derived.orders!, views: derived.orders!.views.subarray(1) } };
    expect(() => startModel(catalogue).finish(short, 'https://example.test')).toThrow(/an order of \d+ videos, not the \d+ public ones/);
  });
});

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/** A catalogue file of `count` videos (shared tags, channels, categories; some unlisted, some private) and what the main thread reads of it. */
function catalogueFile(count: number): { file: string; videos: readonly PublicVideo[] } {
  const file = join(dirs.make(), 'catalogue.db');
  const db = openCatalogue(file);
  try {
    const given = videos(count, 21);
    writeRecords(db, [
      rawCategory('talks'), rawCategory('music'), rawCategory('tech'),
      ...['alice', 'bob', 'carol', 'dave'].map((name) => rawChannel(name)),
      ...given.map((v, i) => rawVideo(`v${i}`, { channel: v.channel, category: v.category, tags: [...v.tags], views: v.views, likes: v.likes, publishedAt: v.publishedAt, privacy: i % 17 === 0 ? 'private' : v.privacy })),
    ]);
    return { file, videos: readCatalogue(db).videos };
  } finally {
    db.close();
  }
}

const expectDerivedOf = async (task: ReturnType<typeof startDerive>, list: readonly PublicVideo[]) => {
  const here = deriveCatalogue(catalogueOf({ videos: list }));
  const there = await task.derived;
  expect(there.trending).toEqual(here.trending);
  expect(there.related.map((r) => Array.from(r))).toEqual(here.related.map((r) => Array.from(r)));
};

describe('the worker reading its fields from the catalogue itself (prepareDerive(file))', () => {
  it('computes from its own read while the main thread reads, the same as from the fields given', async () => {
    const { file, videos: read } = catalogueFile(1_500);
    const task = prepareDerive(file).give(read);
    await expectDerivedOf(task, read);
    expect(await task.source).toBe('read');
  });

  it('does not use its own read when the main thread read other fields (a write between the two reads): it computes from the main thread\'s', async () => {
    const { file, videos: read } = catalogueFile(600);
    const i = read.findIndex((v) => v.privacy === 'public' && v.tags.length > 0);
    const changes: ((v: PublicVideo) => PublicVideo)[] = [
      (v) => ({ ...v, views: v.views + 1 }),
      (v) => ({ ...v, privacy: 'unlisted' }),
      (v) => ({ ...v, tags: [...v.tags, 'new'] }),
      (v) => ({ ...v, category: undefined }),
    ];
    for (const change of changes) {
      const other = read.map((v, n) => (n === i ? change(v) : v));
      const task = prepareDerive(file).give(other);
      await expectDerivedOf(task, other);
      expect(await task.source).toBe('given');
    }
    // a video fewer (deleted between the reads)
    const fewer = read.filter((_, n) => n !== i);
    const task = prepareDerive(file).give(fewer);
    await expectDerivedOf(task, fewer);
    expect(await task.source).toBe('given');
  });

  it('computes from the fields given when it cannot read the catalogue', async () => {
    const list = videos(300, 22);
    const task = prepareDerive(join(dirs.make(), 'no-such-catalogue.db')).give(list);
    await expectDerivedOf(task, list);
    expect(await task.source).toBe('given');
  });
});

describe('the worker taking the served snapshot\'s numbers by the change log (only the videos it names read)', () => {
  /** A catalogue built once (its snapshot served, its mark of the log beside it), then changed by `sql`; the worker started as the build starts it. */
  async function deriveAfter(sql: string, tamper?: (file: string) => void) {
    const { file } = catalogueFile(400);
    const distDir = join(dirs.make(), 'dist');
    const { id } = await buildSnapshot({ catalogue: file, distDir, baseUrl: 'https://example.test' });
    const root = layoutOf(distDir).root;
    const served = { id, dir: join(root, id) };
    const record = recordedDerived(served.dir)!;
    if (sql !== '') runSql(file, sql);
    tamper?.(file);
    const db = openCatalogue(file, { readonly: true });
    const read = readCatalogue(db).videos;
    db.close();
    const task = prepareDerive(file, served).give(read, { id, record });
    await expectDerivedOf(task, read);
    return { source: await task.source, by: await task.servedBy };
  }

  it('takes them having read only the videos named when none of their fields changed (a title, a count set back)', async () => {
    expect(await deriveAfter("UPDATE videos SET title = 'new' WHERE id = 'v3'")).toEqual({ source: 'served', by: 'log' });
    expect(await deriveAfter("UPDATE videos SET views = views + 1 WHERE id = 'v3'; UPDATE videos SET views = views - 1 WHERE id = 'v3'")).toEqual({ source: 'served', by: 'log' });
    expect(await deriveAfter('')).toEqual({ source: 'served', by: 'log' });
  });

  for (const [what, sql] of [
    ['a count', "UPDATE videos SET views = views + 1 WHERE id = 'v3'"],
    ['a published date', "UPDATE videos SET published_at = '2027-01-01T00:00:00Z' WHERE id = 'v5'"],
    ['a tag', "INSERT INTO video_tags (video_id, position, tag) VALUES ('v8', 40, 'another')"],
    ['a video made private', "UPDATE videos SET privacy = 'private' WHERE id = 'v1'"],
    ['a private video made public', "UPDATE videos SET privacy = 'public' WHERE id = 'v0'"],
    ['a video added', "INSERT INTO videos (id, channel, title, published_at, privacy) VALUES ('w1', 'alice', 'W', '2026-01-01T00:00:00Z', 'public')"],
  ] as const) {
    it(`reads every video and computes when a named video's fields changed: ${what}`, async () => {
      expect(await deriveAfter(sql)).toEqual({ source: 'read', by: undefined });
    });
  }

  it('reads every video when the log cannot say (started again), and still takes them when the fields are the same', async () => {
    expect(await deriveAfter("UPDATE videos SET title = 'new' WHERE id = 'v3'; DELETE FROM change_log; UPDATE meta SET value = 'another' WHERE key = 'change_log'"))
      .toEqual({ source: 'served', by: 'read' });
  });

  it('reads every video when the log names more than a quarter of them (one pass beats one lookup each), and still takes them when the fields are the same', async () => {
    expect(await deriveAfter("UPDATE videos SET title = title || '!' WHERE rowid % 2 = 0")).toEqual({ source: 'served', by: 'read' });
    // just under the share, the named videos alone are read
    expect(await deriveAfter("UPDATE videos SET title = title || '!' WHERE rowid % 10 = 0")).toEqual({ source: 'served', by: 'log' });
  });

  it('is a hint only: a change the log did not see (its triggers dropped) is caught by the main thread\'s fingerprint, and the numbers are computed from its fields', async () => {
    const blind = (file: string) => {
      const db = new Database(file);
      for (const name of changeLogTriggers()) db.exec(`DROP TRIGGER "${name}"`);
      db.exec("UPDATE videos SET views = views + 1000 WHERE id = 'v3'");
      db.close();
    };
    expect(await deriveAfter('', blind)).toEqual({ source: 'given', by: undefined });
  });
});

