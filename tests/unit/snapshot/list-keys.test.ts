// A list's pages are keyed from their paging facts and the items at their positions, the list's
// handler answering once for the whole chain (src/snapshot/list-keys.ts, page-inputs.ts
// createListPageKeys): each key must be the one the page's own answer gives (createAnswerKeys), for
// every planned list page and after every kind of change that moves a list, or a changed page would
// be copied from the served snapshot; and a rebuild after such a change must be the full build.
import { describe, expect, it, afterAll, afterEach } from 'vitest';
import { join } from 'node:path';
import type { Answer, Context } from '../../../src/api/endpoint.ts';
import { createStandIns, withStandIns } from '../../../src/model/entries.ts';
import { createListChains, type ListPage } from '../../../src/snapshot/list-keys.ts';
import { computeVideoInputs, createAnswerKeys, createListPageKeys, videoGroup } from '../../../src/snapshot/page-inputs.ts';
import { planPages } from '../../../src/snapshot/plan-pages.ts';
import { answerPage } from '../../../src/snapshot/render-page.ts';
import { buildSnapshot } from '../../../src/snapshot/build-snapshot.ts';
import { layoutOf } from '../../../src/snapshot/layout.ts';
import type { PublicCatalogue } from '../../../src/catalogue/public-catalogue.ts';
import { BASE_URL, catalogueOf, category, channel, comment, modelOf, playlist, tempDirs, video } from '../support/fixtures.ts';
import { buildFixture } from '../support/build-fixture.ts';
import { longVideos, readTree, runSql, smallCatalogue } from '../support/snapshots.ts';
import { rawPlaylist } from '../support/fixtures.ts';

const videos = (over: (i: number) => Parameters<typeof video>[1] = () => ({})) => Array.from({ length: 47 }, (_, i) => video(`v${String(i).padStart(2, '0')}`, {
  channel: i % 3 === 0 ? 'bob' : 'alice',
  category: i % 2 === 0 ? 'music' : 'tech',
  duration: 60 + i * 70,
  views: (i * 37) % 101,
  likes: (i * 11) % 17,
  publishedAt: `2026-03-${String((i % 28) + 1).padStart(2, '0')}T10:00:00Z`,
  ...over(i),
}));

const catalogueWith = (list: ReturnType<typeof video>[]): PublicCatalogue => catalogueOf({
  categories: [category('music'), category('tech')],
  channels: [channel('alice'), channel('bob')],
  videos: list,
  playlists: [playlist('pl-a', ['v01', 'v02', 'v04', 'v05']), playlist('pl-b', Array.from({ length: 30 }, (_, i) => `v${String(i).padStart(2, '0')}`), { channel: 'bob' })],
  comments: [comment('c1', 'v01'), comment('c2', 'v03')],
});

/** Every planned list page of a catalogue: keyed by its chain, and by its own answer (real resources, and stand-ins). */
function keysOf(catalogue: PublicCatalogue, inputs = computeVideoInputs(catalogue, BASE_URL)) {
  const model = modelOf(catalogue);
  const context: Context = { model, snapshot: undefined, liveStreams: () => model.live };
  const answerKey = createAnswerKeys(model, inputs, BASE_URL);
  const standIns = createStandIns(model.entries.length);
  const chain = createListChains({ context, standIns, answerKey, pageKey: createListPageKeys(model, inputs, BASE_URL) });
  const byChain: ListPage[] = [];
  const byAnswer: { url: string; key: string; next: string | undefined }[] = [];
  for (const planned of planPages(model)) {
    if (planned.list !== true) continue;
    byChain.push(...chain(planned.url, planned.pages)!);
    let url: string | undefined = planned.url;
    for (let n = 0; url !== undefined && n < planned.pages; n++) {
      const answer: Answer = answerPage(url, context).answer;
      expect(answerKey(withStandIns(() => answerPage(url!, context), standIns).answer), url).toBe(answerKey(answer));
      byAnswer.push({ url, key: answerKey(answer), next: answer.next });
      url = answer.next;
    }
  }
  return { byChain, byAnswer, model, context, answerKey, standIns };
}

describe('list-keys: list pages keyed from their paging facts and items', () => {
  it('gives every planned list page, over several pages of a chain, the URL, next link and key its answer gives', () => {
    const { byChain, byAnswer } = keysOf(catalogueWith(videos()));
    expect(byChain.map((p) => ({ url: p.url, key: p.key, next: p.next }))).toEqual(byAnswer);
    expect(byChain.filter((p) => p.url.includes('cursor=')).length).toBeGreaterThan(3);
    expect(byChain.map((p) => p.url)).toEqual(expect.arrayContaining(['/v1/playlists/pl-b/videos?limit=20', '/v1/channels/alice/videos?limit=20', '/v1/channels/bob/playlists?limit=20']));
    // a chain's last page has no next link; an empty list (no video has a feature here) is one page, without one
    expect(byChain.at(-1)!.next).toBeUndefined();
    expect(byChain.filter((p) => p.url.startsWith('/v1/videos?feature=')).every((p) => p.next === undefined && !p.url.includes('cursor='))).toBe(true);
  });

  it('changes exactly the keys the answers change after a title, a sort field, a category, a channel or a privacy changed', () => {
    const before = keysOf(catalogueWith(videos()));
    const changes: [string, (i: number) => Parameters<typeof video>[1]][] = [
      ['a title', (i) => (i === 7 ? { title: 'A new title' } : {})],
      ['views', (i) => (i === 7 ? { views: 10_000 } : {})],
      ['likes', (i) => (i === 30 ? { likes: 900 } : {})],
      ['published', (i) => (i === 12 ? { publishedAt: '2026-04-01T10:00:00Z' } : {})],
      ['a category', (i) => (i === 9 ? { category: 'music' } : {})],
      ['a channel', (i) => (i === 10 ? { channel: 'bob' } : {})],
      ['privacy', () => ({})], // v11 made private: not in the public catalogue at all
      ['unlisted', (i) => (i === 14 ? { privacy: 'unlisted' } : {})],
    ];
    for (const [what, over] of changes) {
      const after = keysOf(catalogueWith(videos(over).filter((v) => what !== 'privacy' || v.id !== 'v11')));
      expect(after.byChain.map((p) => ({ url: p.url, key: p.key, next: p.next })), what).toEqual(after.byAnswer);
      // the change shows: some list page's key changed, and not every one
      const was = new Map(before.byChain.map((p) => [p.url, p.key]));
      const moved = after.byChain.filter((p) => was.get(p.url) !== p.key).length;
      expect(moved, what).toBeGreaterThan(0);
      expect(moved, what).toBeLessThan(after.byChain.length);
    }
  });

  it('keys a video by its input key: another key for one listed video changes its pages\' keys only', () => {
    const catalogue = catalogueWith(videos());
    const inputs = computeVideoInputs(catalogue, BASE_URL);
    const before = keysOf(catalogue, inputs);
    const changed = new Map([...inputs].map(([group, key]) => [group, group === videoGroup('v05') ? `${key}!` : key]));
    const after = keysOf(catalogue, changed);
    expect(after.byChain.map((p) => p.key)).toEqual(after.byAnswer.map((p) => p.key));
    const moved = after.byChain.filter((p, i) => p.key !== before.byChain[i]!.key).map((p) => p.url);
    // v05 is on a page of the latest videos, of alice's, of tech's and of both playlists' lists
    expect(moved).toEqual(expect.arrayContaining(['/v1/playlists/pl-a/videos?limit=20', '/v1/playlists/pl-b/videos?limit=20']));
    expect(moved.length).toBeLessThan(after.byChain.length / 2);
  });

  it('stops the build when the key made from the facts is not the answer\'s, and leaves pages that are not a list\'s to their answers', () => {
    const model = modelOf(catalogueWith(videos()));
    const context: Context = { model, snapshot: undefined, liveStreams: () => model.live };
    const inputs = computeVideoInputs(catalogueWith(videos()), BASE_URL);
    const answerKey = createAnswerKeys(model, inputs, BASE_URL);
    const pageKey = createListPageKeys(model, inputs, BASE_URL);
    // a rule that drifted from the answer (here: the facts of another offset) is caught on the endpoint's first page
    const drifted = createListChains({ context, standIns: undefined, answerKey, pageKey: (facts, items, at) => pageKey({ ...facts, paging: { ...facts.paging, offset: facts.paging.offset + 1 } }, items, at) });
    expect(() => [...drifted('/v1/videos?limit=20&sort=latest', Number.POSITIVE_INFINITY)!]).toThrow(/is not its answer's/);
    const chain = createListChains({ context, standIns: undefined, answerKey, pageKey });
    expect(chain('/v1/categories', 1)).toBeUndefined();
    expect(chain('/v1/playlists/pl-a', 1)).toBeUndefined();
    expect(() => chain('/v1/videos?sort=latest&limit=20', 1)).toThrow(/not canonical/);
    // a chain stops at its planned number of pages
    expect([...chain('/v1/videos?limit=20&sort=views', 2)!].map((p) => p.url)).toHaveLength(2);
  });
});

const dirs = tempDirs();
afterEach(() => dirs.cleanup());
const sharedDirs = tempDirs();
afterAll(() => sharedDirs.cleanup());

/** The small catalogue, 70 more videos (several pages of each list) and a playlist of 45 of them. */
const { built, fullBuildOf } = buildFixture(() => [
  ...smallCatalogue(),
  ...longVideos(70, (i) => `Video ${i}, described.`),
  rawPlaylist('pl-long', Array.from({ length: 45 }, (_, i) => `long${i * 3 % 70}`), { channel: 'bob' }),
], BASE_URL, sharedDirs, dirs);

describe('list-keys: a rebuild after a change that moves lists is the full build', () => {
  const cases: [string, string][] = [
    ['a changed title', "UPDATE videos SET title = 'A new title' WHERE id = 'long7'"],
    ['more views (the views order)', "UPDATE videos SET views = 100000 WHERE id = 'long8'"],
    ['more likes (the likes order)', "UPDATE videos SET likes = 5000 WHERE id = 'long9'"],
    ['a new publication date (the latest order, every page after it)', "UPDATE videos SET published_at = '2026-03-30T10:00:00Z' WHERE id = 'long40'"],
    ['a video made private', "UPDATE videos SET privacy = 'private' WHERE id = 'long12'"],
    ['a video moved to another category and channel', "UPDATE videos SET category = 'music', channel = 'bob' WHERE id = 'long13'"],
  ];
  for (const [what, sql] of cases) {
    it(`after ${what}`, async () => {
      const { options } = await built();
      runSql(options.catalogue, sql);
      const after = await buildSnapshot(options);
      expect(after.reuse.none).toBeUndefined();
      expect(after.reuse.copied).toBeGreaterThan(0);
      const full = await fullBuildOf(options);
      expect(after.id).toBe(full.summary.id);
      expect(readTree(join(layoutOf(options.distDir).root, after.id))).toEqual(full.files);
    });
  }
});
