// Trending and related computed on the build's worker thread (src/snapshot/derive-on-worker.ts):
// the same scores and lists, number for number, as deriveCatalogue on the main thread, from the
// fields the worker is given; a failure of the worker is the build's, with a message.
import { describe, expect, it } from 'vitest';
import type { PublicVideo } from '../../../src/catalogue/public-catalogue.ts';
import { buildModel, deriveCatalogue, startModel, VIDEO_SORTS } from '../../../src/model/build-model.ts';
import { prepareDerive, startDerive } from '../../../src/snapshot/derive-on-worker.ts';
import { catalogueOf, channel, prng, video } from '../support/fixtures.ts';

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
