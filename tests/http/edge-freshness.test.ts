// A video made private leaves every CDN edge within minutes (docs/cdn.md, "Rebuilding without a
// blip, and purging"): every URL that showed it is either in the build's purge list (the
// prerendered pages, kept a day) or cached by shared caches for 6 minutes at most (HTML pages,
// pictures, answers computed on demand). A real server, a real rebuild, the real purge list.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchRoute } from '../../src/api/routes.ts';
import { openCatalogue } from '../../src/catalogue/open-catalogue.ts';
import { createClient, decoded, header, type Client, type RawResponse } from './http-client.ts';
import { startFixture, type Fixture } from './server-fixture.ts';

/** The most a privacy change may take to reach every edge without a purge. */
const EDGE_LIMIT_SECONDS = 6 * 60;

/**
 * How long a shared cache may serve an answer after fetching it, from its Cache-Control:
 * s-maxage (else max-age) plus stale-while-revalidate; 0 when shared caches may not keep it.
 */
function edgeSeconds(cacheControl: string | undefined): number {
  const directives = new Map((cacheControl ?? '').split(',').map((d): [string, string | undefined] => {
    const [name, value] = d.trim().toLowerCase().split('=');
    return [name ?? '', value];
  }));
  if (directives.has('no-store') || directives.has('private')) return 0;
  if (!directives.has('public') && !directives.has('s-maxage') && !directives.has('max-age')) return Infinity;
  const fresh = Number(directives.get('s-maxage') ?? directives.get('max-age') ?? 0);
  return fresh + Number(directives.get('stale-while-revalidate') ?? 0);
}

/**
 * The URL the purge list would name for a request: its canonical form for an API route (a CDN keys
 * its cache on it, docs/cdn.md), the path as sent for the rest.
 */
function purgeKey(target: string): string {
  const url = new URL(target, 'http://x.invalid');
  const route = matchRoute(url.pathname);
  if (route === undefined || route.endpoint.cache !== 'snapshot') return target;
  return route.endpoint.canonical(route.endpoint.parse(route.params, url.searchParams));
}

let fx: Fixture;
let api: Client;
let video: { id: string; title: string; channel: string; playlist: string };

beforeAll(async () => {
  fx = await startFixture({ seed: { videos: 120, seed: 11 } });
  api = createClient(fx.base);
  const db = openCatalogue(fx.catalogue, { readonly: true });
  try {
    // a public video in a public playlist, the newest such (so it shows on its channel's first page)
    video = db.prepare(`
      SELECT v.id, v.title, v.channel, p.id AS playlist FROM videos v
      JOIN playlist_items i ON i.video_id = v.id JOIN playlists p ON p.id = i.playlist_id
      WHERE v.privacy = 'public' AND p.privacy = 'public'
      ORDER BY v.published_at DESC LIMIT 1`).get() as typeof video;
  } finally {
    db.close();
  }
});
afterAll(() => fx?.close());

describe('a video made private, at the edge', () => {
  it('reads shared-cache lifetimes from Cache-Control as a CDN does', () => {
    expect(edgeSeconds('public, max-age=300, s-maxage=86400, stale-while-revalidate=86400')).toBe(172_800);
    expect(edgeSeconds('public, max-age=60')).toBe(60);
    expect(edgeSeconds('private, no-store')).toBe(0);
    expect(edgeSeconds(undefined)).toBe(Infinity);
  });

  it('leaves every page that showed it through the purge list or within minutes', async () => {
    expect(video, 'the seeded catalogue has a public video in a public playlist').toBeDefined();
    const { id, title, channel, playlist } = video;
    const enc = encodeURIComponent;
    const targets = [
      `/watch/${id}`, `/embed/${id}`, `/thumbnails/${id}.svg`, `/channels/${channel}`, `/channels/${channel}/live`, `/playlists/${playlist}`, '/',
      `/v1/videos/${id}`, `/v1/videos/${id}/playback`, `/v1/videos/batch?ids=${id}`, `/oembed?url=${enc(`${fx.base}/watch/${id}`)}`,
      `/v1/playlists/${playlist}/videos`, `/v1/channels/${channel}/videos`, '/v1/videos?sort=latest&limit=7&offset=1',
    ];
    const before = new Map<string, RawResponse>();
    for (const target of targets) {
      const res = await api.send(target, { headers: { accept: 'text/html,application/json' } });
      expect(res.status, target).toBe(200);
      before.set(target, res);
    }
    const showed = targets.filter((t) => {
      const text = decoded(before.get(t)!).toString('utf8');
      return text.includes(id) || text.includes(title.replace(/&/g, '&amp;').replace(/</g, '&lt;'));
    });
    // the pages that matter most show it for sure
    expect(showed).toEqual(expect.arrayContaining([`/watch/${id}`, `/embed/${id}`, `/thumbnails/${id}.svg`, `/playlists/${playlist}`, `/v1/videos/${id}`]));

    const db = openCatalogue(fx.catalogue);
    try {
      db.prepare("UPDATE videos SET privacy = 'private' WHERE id = ?").run(id);
    } finally {
      db.close();
    }
    const rebuilt = await fx.rebuild();
    const purge = new Set(readFileSync(rebuilt.changesFile!, 'utf8').split('\n').filter(Boolean));
    expect(purge.has(`${fx.base}/v1/videos/${id}`)).toBe(true);

    const late: string[] = [];
    for (const target of showed) {
      const cacheControl = header(before.get(target)!, 'cache-control');
      if (!purge.has(`${fx.base}${purgeKey(target)}`) && edgeSeconds(cacheControl) > EDGE_LIMIT_SECONDS) late.push(`${target} (${cacheControl})`);
    }
    expect(late, 'pages showing the video, neither purged nor short-lived at the edge').toEqual([]);

    // and the origin itself stops showing it as soon as it has swapped the snapshot in
    let watch = await api.send(`/watch/${id}`);
    for (let i = 0; i < 100 && watch.status === 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      watch = await api.send(`/watch/${id}`);
    }
    for (const target of [`/watch/${id}`, `/embed/${id}`, `/thumbnails/${id}.svg`, `/v1/videos/${id}`]) {
      expect((await api.send(target)).status, target).toBe(404);
    }
  });

  it('keeps prerendered pages a day at the edge: their changes are in the purge list', async () => {
    const res = await api.send('/v1/categories');
    expect(edgeSeconds(header(res, 'cache-control'))).toBeGreaterThanOrEqual(86_400);
  });
});
