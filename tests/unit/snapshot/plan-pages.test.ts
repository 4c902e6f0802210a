// planPages: which canonical queries the build prerenders. Here the channel and playlist pages, and
// the answers that follow live state, which are never prerendered.
import { describe, expect, it } from 'vitest';
import { matchRoute } from '../../../src/api/routes.ts';
import { openCatalogue } from '../../../src/catalogue/open-catalogue.ts';
import { readCatalogue } from '../../../src/catalogue/read-catalogue.ts';
import { estimateListPages, estimatePages, planPages, type PlannedQuery } from '../../../src/snapshot/plan-pages.ts';
import { catalogueOf, category, channel, liveStream, modelOf, playlist, rawChannel, rawPlaylist, rawVideo, video, writeRecords } from '../support/fixtures.ts';

const model = modelOf(catalogueOf({
  categories: [category('music')],
  channels: [channel('alice'), channel('bob'), channel('quiet.one')],
  videos: [video('v1', { category: 'music' }), video('u1', { privacy: 'unlisted' }), video('b1', { channel: 'bob' })],
  playlists: [playlist('pl-pub', ['v1']), playlist('pl-unl', ['u1'], { privacy: 'unlisted' }), playlist('pl-bob', ['b1'], { channel: 'bob' })],
  live: [liveStream('alice', 'live', { startedAt: '2026-01-01T00:00:00Z', viewers: 3 })],
}));
const plan: PlannedQuery[] = [...planPages(model)];
const pagesOf = (url: string) => plan.find((q) => q.url === url)?.pages;
const urls = plan.map((q) => q.url);

describe('planPages: channels', () => {
  it('plans every page of every channel\'s videos and playlists', () => {
    for (const username of ['alice', 'bob', 'quiet.one']) {
      expect(pagesOf(`/v1/channels/${username}/videos?limit=20`)).toBe(Number.POSITIVE_INFINITY);
      expect(pagesOf(`/v1/channels/${username}/playlists?limit=20`)).toBe(Number.POSITIVE_INFINITY);
    }
  });

  it('plans neither the channel list nor a channel: they carry isLive, which follows the live state', () => {
    expect(urls.filter((u) => u.startsWith('/v1/channels?') || /^\/v1\/channels\/[^/?]+$/.test(u))).toEqual([]);
  });

  it('plans no channel the catalogue does not have', () => {
    expect(urls.filter((u) => u.startsWith('/v1/channels/')).map((u) => u.split('/')[3]).filter((u, i, all) => all.indexOf(u) === i).sort()).toEqual(['alice', 'bob', 'quiet.one']);
  });
});

describe('planPages: playlists', () => {
  it('plans every public and unlisted playlist, with every page of its videos', () => {
    for (const id of ['pl-pub', 'pl-unl', 'pl-bob']) {
      expect(pagesOf(`/v1/playlists/${id}`)).toBe(1);
      expect(pagesOf(`/v1/playlists/${id}/videos?limit=20`)).toBe(Number.POSITIVE_INFINITY);
    }
  });

  it('plans no private playlist read from the catalogue', () => {
    const db = openCatalogue(':memory:');
    try {
      writeRecords(db, [
        rawChannel('alice'), rawVideo('v1'),
        rawPlaylist('open', ['v1']), rawPlaylist('link-only', ['v1'], { privacy: 'unlisted' }), rawPlaylist('secret', ['v1'], { privacy: 'private' }),
      ]);
      const planned = [...planPages(modelOf(readCatalogue(db)))].map((q) => q.url);
      expect(planned.filter((u) => u.startsWith('/v1/playlists/') && !u.includes('/videos')).sort()).toEqual(['/v1/playlists/link-only', '/v1/playlists/open']);
      expect(planned.join('\n')).not.toContain('secret');
    } finally {
      db.close();
    }
  });
});

describe('planPages: live state', () => {
  it('never plans /v1/discovery or /v1/live, which follow live state', () => {
    expect(urls.filter((u) => u.startsWith('/v1/discovery') || u.startsWith('/v1/live'))).toEqual([]);
  });

  it('plans only endpoints cached with the snapshot', () => {
    for (const url of urls) {
      const match = matchRoute(url.split('?')[0]!);
      expect(match, url).toBeDefined();
      expect(match!.endpoint.cache, url).toBe('snapshot');
    }
  });
});

describe('planPages: canonical URLs', () => {
  it('plans each URL once', () => {
    expect(new Set(urls).size).toBe(urls.length);
  });

  it('plans URLs that are their endpoint\'s canonical URL, so the server finds the prerendered page', () => {
    for (const url of urls) {
      const [path, query = ''] = url.split('?') as [string, string?];
      const { endpoint, params } = matchRoute(path)!;
      expect(endpoint.canonical(endpoint.parse(params, new URLSearchParams(query))), url).toBe(url);
    }
  });
});

describe('planPages: which queries are lists (the build\'s time left weighs their pages)', () => {
  it('marks every query of a list, and only those: each of its pages holds a page of videos, channels or playlists', () => {
    for (const q of plan) expect(q.list === true, q.url).toBe(q.group === undefined && q.url.includes('limit='));
  });

  it('estimateListPages counts the pages that are not single pages of something else: the categories, each playlist\'s own page, each video\'s three', () => {
    const singles = plan.filter((q) => q.list !== true);
    expect(singles.every((q) => q.pages === 1)).toBe(true);
    expect(singles.length).toBe(1 + model.playlists.size + 3 * model.videos.size);
    const pages = estimatePages(model);
    expect(estimateListPages(model, pages)).toBe(pages - singles.length);
    expect(estimateListPages(model, 0)).toBe(0);
  });
});
