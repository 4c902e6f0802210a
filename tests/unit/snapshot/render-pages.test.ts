// An incremental build keys each list, channel and playlist page by its answer with every video
// resource replaced by its video's input key, and answers the page first with stand-ins for its
// videos (entries.ts withStandIns; render-pages.ts): the key must be the one the real answer gives,
// for every page the build plans, or a changed page would be copied from the served snapshot.
import { describe, expect, it } from 'vitest';
import type { Context } from '../../../src/api/endpoint.ts';
import { createStandIns, standInEntry, withStandIns } from '../../../src/model/entries.ts';
import { createHash } from 'node:crypto';
import type { Answer } from '../../../src/api/endpoint.ts';
import { entryOfResource } from '../../../src/model/build-model.ts';
import { computeVideoInputs, createAnswerKeys, videoGroup } from '../../../src/snapshot/page-inputs.ts';
import { planPages } from '../../../src/snapshot/plan-pages.ts';
import { answerPage } from '../../../src/snapshot/render-page.ts';
import { BASE_URL, catalogueOf, category, channel, comment, modelOf, playlist, video } from '../support/fixtures.ts';

const catalogue = catalogueOf({
  categories: [category('music'), category('tech')],
  channels: [channel('alice'), channel('bob')],
  videos: Array.from({ length: 45 }, (_, i) => video(`v${String(i).padStart(2, '0')}`, {
    channel: i % 3 === 0 ? 'bob' : 'alice',
    category: i % 2 === 0 ? 'music' : 'tech',
    description: `Video ${i}, described at length. `.repeat(5),
    duration: 60 + i * 70,
    views: (i * 37) % 101,
    likes: (i * 11) % 17,
    publishedAt: `2026-03-${String((i % 28) + 1).padStart(2, '0')}T10:00:00Z`,
  })),
  playlists: [playlist('pl-a', ['v01', 'v02', 'v04', 'v05']), playlist('pl-b', Array.from({ length: 30 }, (_, i) => `v${String(i).padStart(2, '0')}`), { channel: 'bob' })],
  comments: [comment('c1', 'v01'), comment('c2', 'v03')],
});
const model = modelOf(catalogue);
const context: Context = { model, snapshot: undefined, liveStreams: () => model.live };
const answerKey = createAnswerKeys(model, computeVideoInputs(catalogue, BASE_URL), BASE_URL);

/** Every page the build keys by its answer (not a video's own pages), following each cursor chain. */
function answeredPages(): string[] {
  const urls: string[] = [];
  for (const planned of planPages(model)) {
    if (planned.group !== undefined) continue;
    let url: string | undefined = planned.url;
    for (let n = 0; url !== undefined && n < planned.pages; n++) {
      urls.push(url);
      url = answerPage(url, context).answer.next;
    }
  }
  return urls;
}

describe('render-pages: list pages keyed from stand-ins', () => {
  const urls = answeredPages();

  it('plans many pages that list videos, over several pages of a cursor chain', () => {
    expect(urls.filter((url) => url.includes('cursor=')).length).toBeGreaterThan(2);
    expect(urls).toContain('/v1/playlists/pl-b/videos?limit=20');
  });

  it('gives every planned page the key of its real answer, and the same next link', () => {
    for (const url of urls) {
      const real = answerPage(url, context);
      const standIn = withStandIns(() => answerPage(url, context));
      expect(standIn.key).toBe(real.key);
      expect(standIn.answer.next).toBe(real.answer.next);
      expect(answerKey(standIn.answer), url).toBe(answerKey(real.answer));
    }
  });

  it('answers with stand-ins that hold no video field but what names the video, and real resources once it returns', () => {
    const url = '/v1/videos?limit=20&sort=latest';
    const standIn = withStandIns(() => answerPage(url, context)).answer.body as { data: object[] };
    expect(standIn.data).toHaveLength(20);
    for (const item of standIn.data) expect(Object.keys(item).sort()).toEqual(['id', 'watchUrl']);
    const real = answerPage(url, context).answer.body as { data: { title: string; description: string }[] };
    expect(real.data[0]!.title).toMatch(/./);
    expect(real.data[0]!.description).toMatch(/described at length/);
    // a key that changes with a listed video's inputs changes with stand-ins too
    const changed = createAnswerKeys(model, new Map([...computeVideoInputs(catalogue, BASE_URL)].map(([group, key]) => [group, group === `video:${(real.data[0] as unknown as { id: string }).id}` ? `${key}!` : key])), BASE_URL);
    expect(changed(withStandIns(() => answerPage(url, context)).answer)).not.toBe(answerKey(answerPage(url, context).answer));
  });

  it('recognises a stand-in by the entry it names, and a copy of one (or a real resource) by its id and watch URL, to the same key', () => {
    const url = '/v1/videos?limit=20&sort=latest';
    const standIns = withStandIns(() => answerPage(url, context)).answer;
    const data = (standIns.body as { data: object[] }).data;
    const real = answerPage(url, context).answer.body as { data: { id: string }[] };
    data.forEach((item, i) => expect(standInEntry(item)).toBe(model.videos.get(real.data[i]!.id)));
    // a plain object of the same two fields is no stand-in, yet names the same videos: the same key
    const copies = { ...standIns, body: { ...(standIns.body as object), data: data.map((item) => ({ ...item })) } };
    for (const item of copies.body.data) expect(standInEntry(item)).toBeUndefined();
    expect(answerKey(copies)).toBe(answerKey(standIns));
    expect(answerKey(standIns)).toBe(answerKey(answerPage(url, context).answer));
    expect(JSON.stringify(data[0])).toBe(JSON.stringify({ id: real.data[0]!.id, watchUrl: model.urls.watch(real.data[0]!.id) }));
  });

  it('gives the same keys with stand-ins kept across pages, each video\'s made once and given again', () => {
    const kept = createStandIns(model.entries.length);
    for (const url of urls) expect(answerKey(withStandIns(() => answerPage(url, context), kept).answer), url).toBe(answerKey(answerPage(url, context).answer));
    const url = '/v1/videos?limit=20&sort=latest';
    const first = (withStandIns(() => answerPage(url, context), kept).answer.body as { data: object[] }).data;
    const again = (withStandIns(() => answerPage(url, context), kept).answer.body as { data: object[] }).data;
    again.forEach((item, i) => expect(item).toBe(first[i]));
    // kept for one model's entries: another model's entry at the same place gets its own
    const other = modelOf(catalogueOf({ categories: [category('music')], channels: [channel('carol')], videos: [video('w0', { channel: 'carol', category: 'music' })] }));
    const otherContext: Context = { model: other, snapshot: undefined, liveStreams: () => other.live };
    const theirs = (withStandIns(() => answerPage('/v1/videos?limit=20&sort=latest', otherContext), kept).answer.body as { data: object[] }).data;
    expect(theirs).toHaveLength(1);
    expect(standInEntry(theirs[0]!)).toBe(other.entries[0]);
    expect(JSON.stringify(theirs[0])).toBe(JSON.stringify({ id: 'w0', watchUrl: other.urls.watch('w0') }));
  });

  it('keys every planned page as served snapshots recorded it: the SHA-256 of the answer as JSON.stringify makes it with each video replaced', () => {
    const inputs = computeVideoInputs(catalogue, BASE_URL);
    const replace = (_: string, value: unknown): unknown => {
      if (typeof value === 'string') return value.startsWith('\u0000') ? `\u0000${value}` : value;
      if (typeof value !== 'object' || value === null) return value;
      const entry = standInEntry(value) ?? entryOfResource(model, value);
      const key = entry === undefined ? undefined : inputs.get(videoGroup(entry.video.id));
      return key === undefined ? value : `\u0000${key}`;
    };
    const served = (answer: Answer) => createHash('sha256').update(JSON.stringify([BASE_URL, answer.status ?? 200, answer.next ?? null, answer.noindex === true, answer.body], replace)).digest('base64');
    for (const url of urls) {
      expect(answerKey(answerPage(url, context).answer), url).toBe(served(answerPage(url, context).answer));
      expect(answerKey(withStandIns(() => answerPage(url, context)).answer), url).toBe(served(answerPage(url, context).answer));
    }
    // a string that starts with NUL is escaped, so it cannot pass for a video's key
    const [first] = [...inputs.values()];
    const posing = { body: { data: [`\u0000${first}`], note: '\u0000' }, next: '\u0000x' };
    expect(answerKey(posing)).toBe(served(posing));
    expect(answerKey(posing)).not.toBe(answerKey({ body: { data: [model.entries[0]!.resource], note: '\u0000' }, next: '\u0000x' }));
  });

  it('makes real resources again after a handler threw inside withStandIns', () => {
    expect(() => withStandIns(() => answerPage('/v1/videos?limit=20&sort=nonsense', context))).toThrow();
    const real = answerPage('/v1/videos?limit=20&sort=latest', context).answer.body as { data: { title?: string }[] };
    expect(real.data[0]!.title).toBeDefined();
  });
});
