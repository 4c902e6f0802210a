// The search engine: what a query matches (every word; exact in any field; typos and completions
// in the short fields), how it ranks (title over tags over description), and its cache.
import { describe, expect, it } from 'vitest';
import { buildSearchIndex, loadSearchIndex, serialiseSearchIndex } from '../../../src/search/search-index.ts';
import { KEPT_MATCHES, searchAll, searchKind } from '../../../src/search/run-search.ts';
import type { Endpoint } from '../../../src/api/endpoint.ts';
import { search } from '../../../src/api/handlers/search.ts';
import { listVideos } from '../../../src/api/handlers/list-videos.ts';
import { catalogueOf, channel, modelOf, playlist, video } from '../support/fixtures.ts';

const model = modelOf(catalogueOf({
  channels: [channel('alice', { displayName: 'Alice Cooks', description: 'Kitchen experiments' }), channel('bob', { displayName: 'Bob Plays Jazz' })],
  videos: [
    video('t1', { title: 'Python packaging explained' }),
    video('t2', { title: 'Gardening basics', tags: ['python'] }),
    video('t3', { title: 'Weekend vlog', description: 'We talk about python for a minute' }),
    video('t4', { title: 'Pythonic idioms', channel: 'bob' }),
    video('t5', { title: 'Jazz piano for beginners', channel: 'bob', tags: ['piano'] }),
    video('u1', { title: 'Python secrets unlisted', privacy: 'unlisted' }),
    video('x1', { title: 'Café crème au lait' }),
  ],
  playlists: [playlist('p1', ['t1'], { title: 'Python course' }), playlist('pu', ['t1'], { title: 'Python hidden list', privacy: 'unlisted' })],
}));
const index = buildSearchIndex(model);
const ids = (q: string) => Array.from(searchKind(index, 'videos', q).ids, (id) => index.videos.keys[id]);

describe('searchKind: matching', () => {
  it('finds a word in the title, tags or description, and ranks title over tags over description', () => {
    // t4 ("Pythonic") is a completion of the last word, found in a title: worth less than the word
    // as typed in a title or tags, more than in a description
    expect(ids('python')).toEqual(['t1', 't2', 't4', 't3']);
  });

  it('never ranks a rare completion above the word as typed in the same field', () => {
    const r = searchKind(index, 'videos', 'python');
    const score = (key: string) => r.scores[Array.from(r.ids).findIndex((id) => index.videos.keys[id] === key)]!;
    expect(score('t1')).toBeGreaterThan(score('t4'));
  });

  it('finds a title word with a typo (one edit from 4 letters)', () => {
    expect(ids('pyhton')).toContain('t1'); // two letters swapped
    expect(ids('pythn')).toContain('t1');
    expect(ids('packagin')).toEqual(['t1']);
    expect(ids('gardenign')).toEqual(['t2']);
  });

  it('treats the last word as a prefix: every completion, of a short prefix or a longer one', () => {
    expect(ids('pyth')).toEqual(expect.arrayContaining(['t1', 't2', 't4']));
    expect(ids('gar')).toEqual(['t2']);
    expect(ids('python pack')).toEqual(['t1']);
  });

  it('needs every word to match', () => {
    expect(ids('python packaging')).toEqual(['t1']);
    expect(ids('python zebra')).toEqual([]);
  });

  it('does not take typos or completions from descriptions: only exact words match there', () => {
    expect(ids('minute')).toEqual(['t3']);
    expect(ids('minutx')).toEqual([]);
    expect(ids('minu')).toEqual([]);
  });

  it('ignores case, accents and the commonest function words', () => {
    expect(ids('CAFE creme')).toEqual(['x1']);
    expect(ids('the python')).toEqual(ids('python'));
    expect(ids('the of and')).toEqual([]);
  });

  it('holds public videos only: unlisted ones are never found', () => {
    expect(ids('secrets')).toEqual([]);
    expect(index.videos.keys).not.toContain('u1');
  });

  it('searches channels by display name, username and description, and public playlists by title', () => {
    const channels = (q: string) => Array.from(searchKind(index, 'channels', q).ids, (id) => index.channels.keys[id]);
    const playlists = (q: string) => Array.from(searchKind(index, 'playlists', q).ids, (id) => index.playlists.keys[id]);
    expect(channels('jazz')).toEqual(['bob']);
    expect(channels('kitchen')).toEqual(['alice']);
    expect(channels('alic')).toEqual(['alice']);
    expect(playlists('python')).toEqual(['p1']);
  });
});

describe('searchKind: ranking and cache', () => {
  it('orders by score, best first, ties by document id', () => {
    const r = searchKind(index, 'videos', 'python');
    for (let i = 1; i < r.ids.length; i++) expect(r.scores[i - 1]! > r.scores[i]! || (r.scores[i - 1] === r.scores[i] && r.ids[i - 1]! < r.ids[i]!)).toBe(true);
  });

  it('answers a query asked again from its cache, whatever the case and spacing', () => {
    expect(searchKind(index, 'videos', 'Python  packaging')).toBe(searchKind(index, 'videos', 'python packaging'));
  });

  it('merges every kind for searchAll, best first', () => {
    const all = searchAll(index, 'python');
    expect(new Set(all.kinds)).toEqual(new Set([0, 2]));
    for (let i = 1; i < all.scores.length; i++) expect(all.scores[i - 1]!).toBeGreaterThanOrEqual(all.scores[i]!);
    expect(all.ids.length).toBe(searchKind(index, 'videos', 'python').ids.length + searchKind(index, 'playlists', 'python').ids.length);
  });
});

describe('serialiseSearchIndex and loadSearchIndex', () => {
  it('round-trip to an index that answers every query alike', () => {
    const loaded = loadSearchIndex(serialiseSearchIndex(index));
    for (const q of ['python', 'pyhton', 'pyth', 'gar', 'jazz piano', 'cafe']) {
      const a = searchKind(index, 'videos', q);
      const b = searchKind(loaded, 'videos', q);
      expect(Array.from(b.ids), q).toEqual(Array.from(a.ids));
      expect(Array.from(b.scores), q).toEqual(Array.from(a.scores));
    }
  });

  it("loads from the file's bytes as from its text", () => {
    const text = serialiseSearchIndex(index);
    expect(/^[\x20-\x7e]*$/.test(text)).toBe(true); // ASCII: its characters are its bytes
    const loaded = loadSearchIndex(Buffer.from(text));
    for (const q of ['python', 'pyhton', 'pyth', 'jazz piano']) expect(Array.from(searchKind(loaded, 'videos', q).ids), q).toEqual(Array.from(searchKind(index, 'videos', q).ids));
  });

  it('refuses an index of another format, saying to rebuild', () => {
    expect(() => loadSearchIndex('{"format":1}')).toThrow(/rebuild/);
    expect(() => loadSearchIndex('{"format":3,"videos":{}}')).toThrow(/format 3 is not \d+: rebuild/);
  });

  it('refuses a damaged index instead of reading past its arrays', () => {
    const text = serialiseSearchIndex(index);
    for (const cut of [20, 60, Math.floor(text.length / 2), text.length - 3]) expect(() => loadSearchIndex(text.slice(0, cut)), String(cut)).toThrow(/search index/);
    // every posting moved past the last document
    const layout = JSON.parse(text.slice(text.indexOf('"layout":') + 9, text.indexOf(',"data":"'))) as { videos: { arrays: { docs: [number, number] } } };
    const dataAt = text.indexOf(',"data":"') + 9;
    const [from, chars] = layout.videos.arrays.docs;
    const gaps = Buffer.from(text.slice(dataAt + from, dataAt + from + chars), 'base64');
    gaps[0] = 0x7f;
    const damaged = text.slice(0, dataAt + from) + gaps.toString('base64') + text.slice(dataAt + from + chars);
    expect(() => loadSearchIndex(damaged)).toThrow(/search index: (a posting names no document|the postings are damaged)/);
  });
});

describe('searchKind: deep rankings', () => {
  const many = modelOf(catalogueOf({
    videos: Array.from({ length: 1050 }, (_, i) => video(`m${String(i).padStart(4, '0')}`, { title: `Lesson ${i} ${'extra '.repeat(i % 7)}`.trim() })),
  }));
  const big = buildSearchIndex(many);

  it(`keeps the best ${KEPT_MATCHES} matches cached, counts them all, and ranks in full when asked deeper`, () => {
    const top = searchKind(big, 'videos', 'lesson');
    expect(top.total).toBe(1050);
    expect(top.ids.length).toBe(KEPT_MATCHES);
    const full = searchKind(big, 'videos', 'lesson', Number.POSITIVE_INFINITY);
    expect(full.ids.length).toBe(1050);
    expect(Array.from(full.ids.subarray(0, KEPT_MATCHES))).toEqual(Array.from(top.ids));
  });

  it('pages past the kept matches in the same order as the full ranking, through /v1/search and /v1/videos?q', () => {
    const full = Array.from(searchKind(big, 'videos', 'lesson', Number.POSITIVE_INFINITY).ids, (id) => big.videos.keys[id]);
    const context = { model: many, snapshot: undefined, liveStreams: () => [], search: big };
    type Body = { data: { id?: string; item?: { id: string } }[]; paging: { total: number } };
    const page = (endpoint: Endpoint<any>, query: string) => endpoint.handle(endpoint.parse({}, new URLSearchParams(query)), context).body as Body;
    const searched = page(search, 'q=lesson&offset=990&limit=50');
    expect(searched.paging.total).toBe(1050);
    expect(searched.data.map((r) => r.item!.id)).toEqual(full.slice(990, 1040));
    const listed = page(listVideos, 'q=lesson&offset=990&limit=50');
    expect(listed.data.map((v) => v.id)).toEqual(full.slice(990, 1040));
  });

  it('answers a video found again (its place in the model remembered) as the first time, and as the model shows it', () => {
    const context = { model: many, snapshot: undefined, liveStreams: () => [], search: big };
    const answer = (query: string) => JSON.stringify(search.handle(search.parse({}, new URLSearchParams(query)), context).body);
    const first = answer('q=lesson&limit=50');
    expect(answer('q=lesson&limit=50')).toBe(first);
    expect(answer('q=lesson+3&limit=50')).toBe(answer('q=lesson+3&limit=50'));
    const items = (JSON.parse(first) as { data: { item: { id: string } }[] }).data.map((r) => r.item);
    expect(items.map((item) => JSON.stringify(item))).toEqual(items.map((item) => JSON.stringify(many.videos.get(item.id)!.resource)));
    // another model with the same index: its own entries, never the first model's
    const other = modelOf(catalogueOf({
      videos: Array.from({ length: 1050 }, (_, i) => video(`m${String(i).padStart(4, '0')}`, { title: `Lesson ${i} ${'extra '.repeat(i % 7)}`.trim(), description: 'second' })),
    }));
    const again = JSON.parse(JSON.stringify(search.handle(search.parse({}, new URLSearchParams('q=lesson&limit=50')), { ...context, model: other }).body)) as { data: { item: { description: string } }[] };
    expect(again.data.every((r) => r.item.description === 'second')).toBe(true);
  });
});
