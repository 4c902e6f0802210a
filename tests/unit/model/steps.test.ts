// The model built in steps (model/steps.ts, buildModelInSteps): the server builds a snapshot's
// model between requests, so the steps must pause often and end in exactly the model that
// buildModel makes at once (the build renders the static pages from that one).
import { describe, expect, it } from 'vitest';
import { buildModel, buildModelInSteps, deriveCatalogue, VIDEO_SORTS, type Model } from '../../../src/model/build-model.ts';
import { CHANNEL_SORTS } from '../../../src/model/build-channels.ts';
import type { PublicVideo } from '../../../src/catalogue/public-catalogue.ts';
import { sortInSteps, type Steps } from '../../../src/model/steps.ts';
import { BASE_URL, catalogueOf, category, channel, comment, playlist, prng, video } from '../support/fixtures.ts';

/** Runs steps to the end, counting the pauses. */
function drive<T>(steps: Steps<T>): { value: T; pauses: number } {
  let pauses = 0;
  for (;;) {
    const step = steps.next();
    if (step.done) return { value: step.value, pauses };
    pauses++;
  }
}

describe('sortInSteps', () => {
  it('sorts as Array.prototype.sort does, stably, across many merged runs', () => {
    const random = prng(7);
    // few distinct keys: most comparisons are ties, which stability must keep in input order
    const items = Array.from({ length: 9000 }, (_, i) => ({ key: Math.floor(random() * 40), i }));
    const before = items.map((x) => x.i);
    const { value, pauses } = drive(sortInSteps(items, (a, b) => a.key - b.key));
    expect(value.map((x) => x.i)).toEqual([...items].sort((a, b) => a.key - b.key).map((x) => x.i));
    expect(pauses).toBeGreaterThan(9); // a run of 1,024 a step, then merges
    expect(items.map((x) => x.i)).toEqual(before); // the input is left as it was
  });

  it('sorts empty, single and exactly run-sized lists', () => {
    for (const n of [0, 1, 1024, 1025, 2048]) {
      const items = Array.from({ length: n }, (_, i) => (i * 7919) % 1031);
      expect(drive(sortInSteps(items, (a, b) => a - b)).value).toEqual([...items].sort((a, b) => a - b));
    }
  });
});

describe('buildModelInSteps', () => {
  const random = prng(11);
  const channels = Array.from({ length: 60 }, (_, i) => channel(`ch${i}`, { subscribers: Math.floor(random() * 50) }));
  const videos: PublicVideo[] = Array.from({ length: 3000 }, (_, i) => video(`v${i}`, {
    channel: `ch${i % 60}`,
    // repeated values: ties broken by id in every order
    publishedAt: `2026-01-${String(1 + (i % 28)).padStart(2, '0')}T00:00:00Z`,
    views: Math.floor(random() * 100),
    likes: Math.floor(random() * 20),
    category: i % 3 === 0 ? 'music' : 'tech',
    privacy: i % 17 === 0 ? 'unlisted' : 'public',
  }));
  const catalogue = catalogueOf({
    categories: [category('music'), category('tech')],
    channels,
    videos,
    comments: videos.slice(0, 400).flatMap((v, i) => [
      comment(`t${i}`, v.id, { publishedAt: '2026-02-01T00:00:00Z' }),
      comment(`r${i}`, v.id, { parentId: `t${i}`, publishedAt: '2026-02-02T00:00:00Z' }),
    ]),
    playlists: Array.from({ length: 30 }, (_, i) => playlist(`p${i}`, videos.slice(i * 50, i * 50 + 40).map((v) => v.id), { channel: `ch${i}` })),
  });
  const derived = deriveCatalogue(catalogue);
  const once = buildModel(catalogue, derived, BASE_URL);
  const stepped = drive(buildModelInSteps(catalogue, derived, BASE_URL));

  const byId = (a: PublicVideo, b: PublicVideo) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const visible = videos.filter((v) => v.privacy === 'public');
  /** Each order as Array.prototype.sort makes it, in one piece (as the model was built before). */
  const expected = {
    latest: [...visible].sort((a, b) => (a.publishedAt < b.publishedAt ? 1 : a.publishedAt > b.publishedAt ? -1 : byId(a, b))),
    views: [...visible].sort((a, b) => b.views - a.views || byId(a, b)),
    likes: [...visible].sort((a, b) => b.likes - a.likes || byId(a, b)),
  };

  it('ends in the orders a sort in one piece gives, and indexes that agree with them', () => {
    const model = stepped.value;
    for (const sort of ['latest', 'views', 'likes'] as const) expect(model.orders[sort].map((e) => e.video.id)).toEqual(expected[sort].map((v) => v.id));
    const index = model.lists.videos;
    for (const sort of VIDEO_SORTS) {
      // the list index's order is the model's order, by position in `latest`
      expect(Array.from(index.order[sort], (p) => model.orders.latest[p]!.video.id)).toEqual(model.orders[sort].map((e) => e.video.id));
    }
    const subscribers = [...channels].sort((a, b) => b.subscribers - a.subscribers || (a.username < b.username ? -1 : 1));
    expect(model.channelOrders.subscribers.map((c) => c.channel.username)).toEqual(subscribers.map((c) => c.username));
    for (const sort of CHANNEL_SORTS) expect(model.channelOrders[sort]).toHaveLength(60);
  });

  it('ends in the same resources as buildModel at once', () => {
    const json = (model: Model) => ({
      videos: model.entries.map((e) => JSON.stringify([e.resource, e.threads])),
      categories: JSON.stringify(model.categories),
      channels: [...model.channels.values()].map((c) => JSON.stringify(c.resource)),
      playlists: [...model.playlists.values()].map((p) => `${JSON.stringify(p.resource)}:${p.videos.map((v) => v.video.id).join(',')}`),
    });
    expect(json(stepped.value)).toEqual(json(once));
    expect(stepped.value.entries[0]!.threads).toHaveLength(1);
    expect(stepped.value.entries[0]!.threads[0]!.replyCount).toBe(1);
  });

  it('pauses at least every few hundred records', () => {
    // 3,000 videos, 800 comments, 30 playlists, 60 channels and four sorts of 2,800 videos
    expect(stepped.pauses).toBeGreaterThan((3000 + 800) / 128);
  });

  it('still refuses a video naming a channel that does not exist', () => {
    const broken = catalogueOf({ channels, videos: [video('orphan', { channel: 'nobody' })] });
    expect(() => drive(buildModelInSteps(broken, deriveCatalogue(broken), BASE_URL))).toThrow(/video "orphan" names channel "nobody"/);
  });
});
