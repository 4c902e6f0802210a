import { describe, expect, it } from 'vitest';
import { search } from '../../../../src/api/handlers/search.ts';
import type { SearchResult } from '../../../../src/model/schemas.ts';
import { catalogueOf, channel, liveStream, modelOf, playlist, video } from '../../support/fixtures.ts';
import { call, pageOf, problemOf } from '../../support/handlers.ts';

const model = modelOf(catalogueOf({
  channels: [channel('alice', { displayName: 'Python Alice' }), channel('bob')],
  videos: Array.from({ length: 25 }, (_, i) => video(`v${String(i).padStart(2, '0')}`, { title: `Python lesson ${i}` })),
  playlists: [playlist('p1', ['v01'], { title: 'Python course' })],
}));
const results = (query: string) => pageOf<SearchResult>(call(search, model, query));

describe('search', () => {
  it('answers {type, score, item} for videos by default, best first, with paging', () => {
    const page = results('q=python');
    expect(page.paging).toMatchObject({ limit: 20, offset: 0, total: 25 });
    expect(page.paging.nextCursor).not.toBeNull();
    expect(page.data.every((r) => r.type === 'video' && r.score > 0)).toBe(true);
    expect(page.data[0]!.item).toEqual(model.videos.get((page.data[0]!.item as { id: string }).id)!.resource);
    for (let i = 1; i < page.data.length; i++) expect(page.data[i - 1]!.score).toBeGreaterThanOrEqual(page.data[i]!.score);
  });

  it('searches channels, playlists, or all kinds with type', () => {
    expect(results('q=python&type=channels').data.map((r) => [r.type, (r.item as { username: string }).username])).toEqual([['channel', 'alice']]);
    expect(results('q=python&type=playlists').data.map((r) => [r.type, (r.item as { id: string }).id])).toEqual([['playlist', 'p1']]);
    const all = results('q=python&type=all&limit=50');
    expect(all.paging.total).toBe(27);
    expect(new Set(all.data.map((r) => r.type))).toEqual(new Set(['video', 'channel', 'playlist']));
  });

  it('gives channels their live state as of the request', () => {
    const context = { model, snapshot: undefined, liveStreams: () => [liveStream('alice', 'live', { startedAt: '2026-01-01T00:00:00Z', viewers: 1 })] };
    const answer = search.handle(search.parse({}, new URLSearchParams('q=alice&type=channels')), context);
    expect((answer.body as { data: SearchResult[] }).data[0]!.item).toMatchObject({ username: 'alice', isLive: true });
  });

  it('answers 400 naming q when it is missing, blank or over 200 characters, and type when unknown', () => {
    for (const [query, parameter] of [['', 'q'], ['q=%20%20', 'q'], [`q=${'a'.repeat(201)}`, 'q'], ['q=x&type=users', 'type'], ['q=x&limit=51', 'limit']] as const) {
      const error = problemOf(() => call(search, model, query));
      expect(error.status, query).toBe(400);
      expect(error.errors?.map((e) => e.parameter), query).toContain(parameter);
    }
    expect(problemOf(() => call(search, model, '')).errors?.[0]?.detail).toMatch(/required/);
  });

  it('has a canonical URL with q trimmed and the default type filled in', () => {
    expect(search.canonical(search.parse({}, new URLSearchParams('q=%20python%20&ref=x')))).toBe('/v1/search?limit=20&q=python&type=videos');
  });
});
