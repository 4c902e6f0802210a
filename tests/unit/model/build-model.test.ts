import { describe, expect, it } from 'vitest';
import { buildModel, deriveCatalogue, entryOfResource, keepAsStored, startModel, VIDEO_SORTS, type VideoEntry } from '../../../src/model/build-model.ts';
import { toVideo } from '../../../src/model/resources.ts';
import { TextPool } from '../../../src/model/stored-video.ts';
import { createUrls } from '../../../src/model/urls.ts';
import { collectModelLines, modelLines, parseModelLines } from '../../../src/snapshot/model-data.ts';
import type { PublicVideo } from '../../../src/catalogue/public-catalogue.ts';
import { BASE_URL, byCodeUnits, catalogueOf, category, channel, comment, modelOf, video } from '../support/fixtures.ts';

// Ids chosen so that code-unit order differs from locale order: 'Z' < '_' < 'a' < 'b'.
const videos: PublicVideo[] = [
  video('b1', { publishedAt: '2026-01-05T00:00:00Z', views: 100, likes: 5, category: 'music' }),
  video('a1', { publishedAt: '2026-01-05T00:00:00Z', views: 100, likes: 9, category: 'music' }),
  video('Z1', { publishedAt: '2026-01-03T00:00:00Z', views: 300, likes: 9, category: 'tech' }),
  video('_1', { publishedAt: '2026-01-07T00:00:00Z', views: 100, likes: 1 }),
  video('c1', { publishedAt: '2026-01-01T00:00:00Z', views: 50, likes: 5, category: 'music' }),
  video('hidden', { publishedAt: '2026-01-09T00:00:00Z', views: 10_000, likes: 10_000, category: 'music', privacy: 'unlisted' }),
];
const catalogue = catalogueOf({
  categories: [category('tech', 'Technology'), category('music', 'Music'), category('arts', 'Music'), category('empty', 'Empty')],
  videos,
  comments: [
    comment('t1', 'b1', { publishedAt: '2026-01-06T00:00:00Z' }),
    comment('t2', 'b1', { publishedAt: '2026-01-08T00:00:00Z' }),
    comment('t0', 'b1', { publishedAt: '2026-01-08T00:00:00Z' }),
    comment('r2', 'b1', { parentId: 't1', publishedAt: '2026-01-09T00:00:00Z' }),
    comment('r1', 'b1', { parentId: 't1', publishedAt: '2026-01-07T00:00:00Z' }),
    comment('r3', 'b1', { parentId: 't2', publishedAt: '2026-01-09T00:00:00Z' }),
    comment('u1', 'hidden'),
  ],
});
const model = modelOf(catalogue);
const derived = deriveCatalogue(catalogue);
const publicVideos = videos.filter((v) => v.privacy === 'public');

const ids = (entries: readonly VideoEntry[]) => entries.map((e) => e.video.id);
/** Highest first by `value`, ties by id in code-unit order. */
const expectedOrder = (value: (v: PublicVideo) => number | string) =>
  [...publicVideos]
    .sort((a, b) => {
      const x = value(a);
      const y = value(b);
      return x < y ? 1 : x > y ? -1 : byCodeUnits(a.id, b.id);
    })
    .map((v) => v.id);

describe('buildModel orders', () => {
  it('orders latest by publishedAt, newest first, ties by id', () => {
    expect(ids(model.orders.latest)).toEqual(expectedOrder((v) => v.publishedAt));
  });

  it('orders views and likes highest first, ties by id in code-unit order', () => {
    expect(ids(model.orders.views)).toEqual(expectedOrder((v) => v.views));
    expect(ids(model.orders.likes)).toEqual(expectedOrder((v) => v.likes));
    // 'Z1' sorts before 'a1' in code units (90 < 97), though locale order would put it after.
    expect(ids(model.orders.likes).slice(0, 2)).toEqual(['Z1', 'a1']);
  });

  it('orders trending by the derived score, highest first, ties by id', () => {
    const score = new Map(videos.map((v, i) => [v.id, derived.trending[i]!]));
    expect(ids(model.orders.trending)).toEqual(expectedOrder((v) => score.get(v.id)!));
  });

  it('breaks trending ties by id when scores are equal', () => {
    const flat = buildModel(catalogue, { trending: videos.map(() => 1), related: videos.map(() => []) }, BASE_URL);
    expect(ids(flat.orders.trending)).toEqual(publicVideos.map((v) => v.id).sort(byCodeUnits));
  });

  it('gives the same orders whatever order the catalogue lists videos in', () => {
    const reversed = modelOf({ ...catalogue, videos: [...videos].reverse() });
    for (const sort of VIDEO_SORTS) expect(ids(reversed.orders[sort])).toEqual(ids(model.orders[sort]));
  });

  it('breaks ties by id when the videos come in id order, as the catalogue gives them (ties then go by position)', () => {
    const inIdOrder = [...videos].sort((a, b) => byCodeUnits(a.id, b.id));
    const sorted = modelOf({ ...catalogue, videos: inIdOrder });
    for (const sort of VIDEO_SORTS) expect(ids(sorted.orders[sort])).toEqual(ids(model.orders[sort]));
    // equal scores everywhere: every order is the ids' own
    const flat = buildModel({ ...catalogue, videos: inIdOrder }, { trending: inIdOrder.map(() => 1), related: inIdOrder.map(() => []) }, BASE_URL);
    expect(ids(flat.orders.trending)).toEqual(publicVideos.map((v) => v.id).sort(byCodeUnits));
  });

  it('is the same model when its records are taken first and trending and related given after (startModel, as the build does)', () => {
    const started = startModel(catalogue).finish(derived, BASE_URL);
    for (const sort of VIDEO_SORTS) expect(ids(started.orders[sort])).toEqual(ids(model.orders[sort]));
    expect(started.entries.map((e) => [e.video.id, e.trending, Array.from(e.related), e.commentCount, JSON.stringify(e.resource), JSON.stringify(e.threads)]))
      .toEqual(model.entries.map((e) => [e.video.id, e.trending, Array.from(e.related), e.commentCount, JSON.stringify(e.resource), JSON.stringify(e.threads)]));
    expect(JSON.stringify(started.categories)).toBe(JSON.stringify(model.categories));
  });

  it('keeps the records\' own lists, texts and authors when taken first (startModel: the build holds its catalogue anyway), sharing none', () => {
    const withComments = { ...catalogue, comments: [comment('c1', videos[0]!.id, { author: { displayName: 'Ada', username: 'ada' } }), comment('c2', videos[0]!.id, { author: { displayName: 'Ada', username: 'ada' } })] };
    const started = startModel(withComments).finish(derived, BASE_URL);
    withComments.videos.forEach((v, i) => {
      expect(started.entries[i]!.video.tags).toBe(v.tags);
      expect(started.entries[i]!.video.sources).toBe(v.sources);
      expect(started.entries[i]!.video.channel).toBe(v.channel);
    });
    const threads = started.videos.get(videos[0]!.id)!.storedThreads;
    expect(threads.find((t) => t.id === 'c1')!.author).toBe(withComments.comments[0]!.author);
    // the same answers as the model that shares them
    const shared = buildModel(withComments, derived, BASE_URL);
    expect(JSON.stringify(started.videos.get(videos[0]!.id)!.threads)).toBe(JSON.stringify(shared.videos.get(videos[0]!.id)!.threads));
  });

  it('refuses trending and related that are not one a video, and a second finish', () => {
    expect(() => startModel(catalogue).finish({ trending: derived.trending.slice(1), related: derived.related.slice(1) }, BASE_URL)).toThrow(/derived data for/);
    const started = startModel(catalogue);
    started.finish(derived, BASE_URL);
    expect(() => started.finish(derived, BASE_URL)).toThrow(/already finished/);
  });

  it('leaves unlisted videos out of every order but keeps them by id', () => {
    for (const sort of VIDEO_SORTS) {
      expect(ids(model.orders[sort])).not.toContain('hidden');
      expect(model.orders[sort]).toHaveLength(publicVideos.length);
    }
    expect(model.videos.get('hidden')?.resource.privacy).toBe('unlisted');
  });
});

describe('buildModel categories', () => {
  it('orders categories by name, then id', () => {
    expect(model.categories.map((c) => c.id)).toEqual(['empty', 'arts', 'music', 'tech']);
  });

  it('counts public videos only, so unlisted videos are not counted', () => {
    for (const c of model.categories) {
      expect(c.videoCount).toBe(publicVideos.filter((v) => v.category === c.id).length);
    }
    expect(model.categories.find((c) => c.id === 'music')?.videoCount).toBe(3);
    expect(model.categories.find((c) => c.id === 'empty')?.videoCount).toBe(0);
  });
});

describe('buildModel comments', () => {
  const entry = model.videos.get('b1')!;

  it('counts served threads plus their replies', () => {
    const onB1 = catalogue.comments.filter((c) => c.videoId === 'b1');
    expect(entry.resource.comments).toBe(onB1.length);
    expect(entry.resource.comments).toBe(entry.threads.length + entry.threads.reduce((n, t) => n + t.replies.length, 0));
    expect(model.videos.get('a1')!.resource.comments).toBe(0);
    expect(model.videos.get('hidden')!.resource.comments).toBe(1);
  });

  it('orders threads newest first, ties by id', () => {
    expect(entry.threads.map((t) => t.id)).toEqual(['t0', 't2', 't1']);
  });

  it('orders replies oldest first under their thread, with replyCount', () => {
    const t1 = entry.threads.find((t) => t.id === 't1')!;
    expect(t1.replies.map((r) => r.id)).toEqual(['r1', 'r2']);
    expect(t1.replyCount).toBe(2);
    expect(entry.threads.find((t) => t.id === 't0')!.replyCount).toBe(0);
  });
});

describe('buildModel comment authors', () => {
  const shared = catalogueOf({
    videos: [video('v1'), video('v2')],
    comments: [
      comment('c1', 'v1', { author: { displayName: 'Ada' } }),
      comment('c2', 'v2', { author: { displayName: 'Ada' } }),
      comment('c3', 'v1', { parentId: 'c1', author: { displayName: 'Ada' } }),
      comment('c4', 'v1', { author: { displayName: 'Ada', username: 'ada' } }),
      comment('c5', 'v1', { author: { displayName: 'Ada', avatarUrl: 'https://img.example/ada.png' } }),
    ],
  });
  const built = modelOf(shared);
  const byId = new Map(['v1', 'v2'].flatMap((v) => built.videos.get(v)!.threads.flatMap((t) => [t, ...t.replies])).map((c) => [c.id, c]));

  it('gives every comment its own author as the API shows it', () => {
    expect(byId.get('c1')!.author).toEqual({ displayName: 'Ada', avatarUrl: `${BASE_URL}/avatars/ada.svg` });
    expect(byId.get('c4')!.author).toEqual({ displayName: 'Ada', avatarUrl: `${BASE_URL}/avatars/ada.svg`, username: 'ada' });
    expect(byId.get('c5')!.author).toEqual({ displayName: 'Ada', avatarUrl: 'https://img.example/ada.png' });
  });

  it('holds one author object per distinct author, threads and replies alike (memory)', () => {
    const stored = new Map(['v1', 'v2'].flatMap((v) => built.videos.get(v)!.storedThreads.flatMap((t) => [t, ...t.replies])).map((c) => [c.id, c]));
    expect(stored.get('c2')!.author).toBe(stored.get('c1')!.author);
    expect(stored.get('c3')!.author).toBe(stored.get('c1')!.author);
    expect(stored.get('c4')!.author).not.toBe(stored.get('c1')!.author);
    expect(stored.get('c5')!.author).not.toBe(stored.get('c1')!.author);
  });
});

describe('buildModel comment authors whose parts run together alike', () => {
  // authors that one key made by joining their parts would confuse: each keeps its own
  const authors = [
    { displayName: 'Ad', username: 'a' }, { displayName: 'A', username: 'da' }, { displayName: 'Ada' },
    { displayName: 'Ada', username: '|' }, { displayName: 'Ada|' }, { displayName: '3:Ada' }, { displayName: 'A', avatarUrl: 'https://img.example/1:x' },
    { displayName: 'A', username: 'x', avatarUrl: 'https://img.example/a.png' }, { displayName: 'A', username: 'xh', avatarUrl: 'ttps://img.example/a.png' },
  ];
  const built = modelOf(catalogueOf({ videos: [video('v1')], comments: authors.map((author, i) => comment(`c${i}`, 'v1', { author })) }));
  const stored = new Map(built.videos.get('v1')!.storedThreads.map((t) => [t.id, t]));

  it('keeps each author as given', () => {
    authors.forEach((author, i) => expect(stored.get(`c${i}`)!.author).toEqual(author));
  });
});

describe('buildModel references', () => {
  it('fails with a message naming the video and the missing channel', () => {
    const broken = catalogueOf({ channels: [channel('alice')], videos: [video('orphan-video', { channel: 'ghost-channel' })] });
    expect(() => modelOf(broken)).toThrow(/orphan-video[\s\S]*ghost-channel|ghost-channel[\s\S]*orphan-video/);
  });

  it('writes the creator of each video from its channel', () => {
    const m = modelOf(catalogueOf({ channels: [channel('alice', { displayName: 'Alice A.' })], videos: [video('v', { channel: 'alice' })] }));
    expect(m.videos.get('v')!.resource.creator).toMatchObject({ username: 'alice', displayName: 'Alice A.' });
  });

  it('keeps the derived trending score and related videos of each video', () => {
    for (const [i, v] of videos.entries()) {
      const e = model.videos.get(v.id)!;
      expect(e.trending).toBe(derived.trending[i]);
      expect(Array.from(e.related, (j) => model.entries[j]!.video.id)).toEqual(Array.from(derived.related[i]!, (j) => videos[j]!.id));
    }
  });

  it('builds an empty model from an empty catalogue', () => {
    const empty = modelOf(catalogueOf({ channels: [] }));
    expect(empty.videos.size).toBe(0);
    for (const sort of VIDEO_SORTS) expect(empty.orders[sort]).toEqual([]);
  });
});

describe('one representation per video (docs/architecture.md)', () => {
  const rich = catalogueOf({
    channels: [channel('alice', { displayName: 'Alice' })],
    videos: [
      video('v1', { channel: 'alice', description: 'About “quotes” 🐍', tags: ['a', 'b'], duration: 90, chapters: [{ start: 0, title: 'Intro' }] }),
      video('v2', { channel: 'alice', tags: ['a', 'b'], thumbnailUrl: 'https://img.example.test/v2.jpg', privacy: 'unlisted' }),
      video('v3', { channel: 'alice', description: '' }),
    ],
    comments: [comment('c1', 'v1', { author: { displayName: 'Viewer 7' } }), comment('c2', 'v1', { parentId: 'c1' })],
  });
  const built = modelOf(rich);

  it('makes the resource from the record when asked: equal each time, never the same object', () => {
    for (const record of rich.videos) {
      const entry = built.videos.get(record.id)!;
      expect(JSON.stringify(entry.resource)).toBe(JSON.stringify(toVideo(record, entry.resource.creator, entry.commentCount, createUrls(BASE_URL))));
      expect(entry.resource).not.toBe(entry.resource);
      expect(entry.resource).toEqual(entry.resource);
    }
    expect(built.videos.get('v1')!.resource.description).toBe('About “quotes” 🐍');
    expect(built.videos.get('v1')!.resource.comments).toBe(2);
  });

  it('keeps a video the build\'s read already stored as it is when sharing none (startModel), and stores its whole record when sharing', () => {
    const read = { ...rich, videos: rich.videos.map(keepAsStored(new TextPool())) };
    const derivedOf = deriveCatalogue(read);
    const started = startModel(read).finish(derivedOf, BASE_URL);
    read.videos.forEach((v, i) => expect(started.entries[i]!.video).toBe(v));
    // kept as startModel's model stores a video: the features one of the sixteen frozen objects, the record's own lists
    expect(started.videos.get('v3')!.video.features).toBe(started.videos.get('v1')!.video.features);
    expect(Object.isFrozen(started.videos.get('v1')!.video.features)).toBe(true);
    expect(started.videos.get('v1')!.video.tags).toBe(rich.videos[0]!.tags);
    // the description lives on a StoredVideo's prototype: a model that copies the record must not lose it
    const shared = buildModel(read, derivedOf, BASE_URL);
    expect(shared.videos.get('v1')!.video).not.toBe(read.videos[0]);
    expect(shared.videos.get('v1')!.video.description).toBe('About “quotes” 🐍');
    for (const model of [started, shared]) {
      for (const record of rich.videos) expect(JSON.parse(JSON.stringify(model.videos.get(record.id)!.video))).toEqual(record);
      expect(JSON.stringify(model.entries.map((e) => e.resource))).toBe(JSON.stringify(built.entries.map((e) => e.resource)));
    }
  });

  it('keeps each record whole, its repeated values shared', () => {
    for (const record of rich.videos) expect(JSON.parse(JSON.stringify(built.videos.get(record.id)!.video))).toEqual(record);
    expect(built.videos.get('v2')!.video.tags).toBe(built.videos.get('v1')!.video.tags);
    expect(built.videos.get('v3')!.video.features).toBe(built.videos.get('v1')!.video.features);
  });

  it('answers alike from the catalogue and from the snapshot\'s model data (related lists in one pool)', () => {
    const many = catalogueOf({
      channels: [channel('alice')],
      categories: [category('music')],
      videos: Array.from({ length: 40 }, (_, i) => video(`v${i}`, { channel: 'alice', category: 'music', tags: [`t${i % 3}`], views: i * 7 % 11 })),
    });
    const derivedMany = deriveCatalogue(many);
    const direct = buildModel(many, derivedMany, BASE_URL);
    const stored = parseModelLines(modelLines(many, derivedMany, BASE_URL));
    const loaded = buildModel(stored.catalogue, stored.derived, stored.baseUrl);
    expect(new Set(stored.derived.related.map((r) => (r as Int32Array).buffer)).size).toBe(1);
    for (const e of direct.entries) {
      const other = loaded.entries[e.index]!;
      expect(Array.from(other.related)).toEqual(Array.from(e.related));
      expect(JSON.stringify(other.resource)).toBe(JSON.stringify(e.resource));
    }
    // the same with the related lists spread over many small blocks (a list never split)
    const collector = collectModelLines(64);
    for (const line of modelLines(many, derivedMany, BASE_URL)) collector.add(line);
    const blocked = collector.finish();
    expect(new Set(blocked.derived.related.map((r) => (r as Int32Array).buffer)).size).toBeGreaterThan(2);
    const fromBlocks = buildModel(blocked.catalogue, blocked.derived, blocked.baseUrl);
    for (const e of direct.entries) expect(Array.from(fromBlocks.entries[e.index]!.related)).toEqual(Array.from(e.related));
  });

  it('recognises the video resources in an answer, and nothing else', () => {
    const resource = built.videos.get('v1')!.resource;
    expect(entryOfResource(built, resource)).toBe(built.videos.get('v1'));
    expect(entryOfResource(built, { ...resource, watchUrl: `${BASE_URL}/watch/v2` })).toBeUndefined();
    expect(entryOfResource(built, { id: 'v1' })).toBeUndefined();
    expect(entryOfResource(built, built.channels.get('alice')!.resource)).toBeUndefined();
  });
});
