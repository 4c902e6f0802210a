// The HTML pages every URL points to, opened in real Chromium: no console errors, no failed
// requests, no accessibility violations (axe), and correct OpenGraph, Twitter card, JSON-LD and
// oEmbed discovery tags on watch pages.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test, type Site } from './site.ts';

interface Thumb { url: string; width: number; height: number }
interface Video { id: string; title: string; description?: string; duration?: number; views: number; publishedAt: string; thumbnailUrl: string; watchUrl: string; embedUrl: string; creator: { displayName: string; channelUrl: string }; thumbnails?: Record<'default' | 'medium' | 'high' | 'standard' | 'maxres', Thumb> }
interface Channel { username: string; displayName: string; videos: number; channelUrl: string }
interface Shelf { id: string; title: string; items: { watchUrl?: string }[] }

const enc = encodeURIComponent;

/** Opens a page, scrolls through it so lazy images load, and returns everything that went wrong. */
async function open(page: Page, url: string): Promise<{ status: number; problems: string[] }> {
  const problems: string[] = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`));
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`${r.status()} for ${r.url()}`); });
  const res = await page.goto(url, { waitUntil: 'load' });
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.waitForLoadState('networkidle');
  return { status: res?.status() ?? 0, problems };
}

async function accessibilityViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')})`);
}

const meta = (page: Page, key: string) => page.locator(`meta[property="${key}"], meta[name="${key}"]`).first().getAttribute('content');

async function someVideoWithComments(site: Site): Promise<Video> {
  const id = site.truth.publicVideos.find((v) => (site.truth.threads.get(v.id)?.length ?? 0) >= 3)!.id;
  return (await site.json<{ data: Video }>(`/v1/videos/${enc(id)}`)).data;
}

test.describe('pages open cleanly in Chromium', () => {
  test('home, watch, embed, channel, playlist, live and problem pages: 200, no console errors, no failed requests, no axe violations', async ({ page, site }) => {
    test.setTimeout(240_000); // eleven pages, each scrolled through and checked by axe: minutes on a loaded machine
    const video = await someVideoWithComments(site);
    const channels = (await site.json<{ data: Channel[] }>('/v1/channels?limit=1')).data;
    const playlist = [...site.truth.playlists.values()].find((p) => p.privacy === 'public')!;
    const live = site.truth.live.find((l) => l.state === 'live')!;
    const targets = [
      '/', `/watch/${enc(video.id)}`, `/embed/${enc(video.id)}`, `/channels/${enc(channels[0]!.username)}`,
      `/channels/${enc(channels[0]!.username)}?page=2`, `/playlists/${enc(playlist.id)}`,
      `/channels/${enc(live.channel)}/live`, `/embed/live/${enc(live.channel)}`, '/problems/not-found', '/problems', '/docs',
    ];
    for (const target of targets) {
      const { status, problems } = await open(page, site.base + target);
      expect(status, target).toBe(200);
      expect(problems, target).toEqual([]);
      expect(await accessibilityViolations(page), target).toEqual([]);
      page.removeAllListeners();
    }
  });

  test('an unknown video page answers 404 in the browser too', async ({ page, site }) => {
    const res = await page.goto(`${site.base}/watch/no-such-video`);
    expect(res?.status()).toBe(404);
  });
});

test.describe('watch page', () => {
  test('carries OpenGraph and Twitter player tags for the video', async ({ page, site }) => {
    const video = await someVideoWithComments(site);
    await open(page, video.watchUrl);
    await expect(page).toHaveTitle(new RegExp(video.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    expect(await meta(page, 'og:type')).toBe('video.other');
    expect(await meta(page, 'og:title')).toBe(video.title);
    expect(await meta(page, 'og:url')).toBe(video.watchUrl);
    // a raster picture with its size and text (no social site renders SVG)
    expect(await meta(page, 'og:image')).toBe(video.thumbnails?.maxres.url ?? video.thumbnailUrl);
    if (video.thumbnails) expect([await meta(page, 'og:image:width'), await meta(page, 'og:image:height')]).toEqual(['1280', '720']);
    expect(await meta(page, 'og:image:alt')).toContain(video.title);
    expect(await meta(page, 'og:video')).toBe(video.embedUrl);
    expect(await meta(page, 'twitter:card')).toBe('player');
    expect(await meta(page, 'twitter:player')).toBe(video.embedUrl);
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(video.watchUrl);
    await expect(page.locator('h1')).toHaveText(video.title);
    await expect(page.locator(`a[href="${video.creator.channelUrl}"]`).first()).toBeVisible();
  });

  test('carries a JSON-LD VideoObject that matches the API', async ({ page, site }) => {
    const video = await someVideoWithComments(site);
    await open(page, video.watchUrl);
    const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
    expect(blocks).toHaveLength(1);
    const ld = JSON.parse(blocks[0]!);
    expect(ld).toMatchObject({
      '@context': 'https://schema.org', '@type': 'VideoObject', name: video.title, uploadDate: video.publishedAt,
      embedUrl: video.embedUrl, url: video.watchUrl,
      thumbnailUrl: video.thumbnails ? [video.thumbnails.maxres.url, video.thumbnails.standard.url, video.thumbnails.medium.url] : [video.thumbnailUrl],
    });
    expect(ld.interactionStatistic[0]).toMatchObject({ interactionType: { '@type': 'WatchAction' }, userInteractionCount: video.views });
    if (video.duration !== undefined) {
      const [, h, m, s] = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?$/.exec(ld.duration)!;
      expect(Number(h ?? 0) * 3600 + Number(m ?? 0) * 60 + Number(s ?? 0)).toBe(video.duration);
    }
  });

  test('links its oEmbed document for the watch URL, and embeds the player from embedUrl', async ({ page, site }) => {
    const video = await someVideoWithComments(site);
    await open(page, video.watchUrl);
    const link = page.locator('link[rel="alternate"][type="application/json+oembed"]');
    await expect(link).toHaveCount(1);
    const href = new URL((await link.getAttribute('href'))!);
    expect(href.origin + href.pathname).toBe(`${site.base}/oembed`);
    expect(href.searchParams.get('url')).toBe(video.watchUrl);
    expect(href.searchParams.get('format')).toBe('json');
    expect(await link.getAttribute('title')).toBe(video.title);
    expect(await page.locator('iframe.player').getAttribute('src')).toBe(video.embedUrl);
    expect(page.frames().some((f) => f.url() === video.embedUrl)).toBe(true);
  });

  test('shows an unlisted video, marked noindex', async ({ page, site }) => {
    const id = site.truth.unlistedIds[0]!;
    const res = await page.goto(`${site.base}/watch/${enc(id)}`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['x-robots-tag']).toMatch(/noindex/);
    expect(await meta(page, 'robots')).toBe('noindex');
  });

  test('shows the published comments, newest first', async ({ page, site }) => {
    const video = await someVideoWithComments(site);
    const threads = (await site.json<{ data: { text: string }[] }>(`/v1/videos/${enc(video.id)}/comments`)).data;
    await open(page, video.watchUrl);
    const shown = await page.locator('.comments > li > .text').allTextContents();
    expect(shown).toEqual(threads.map((t) => t.text));
  });
});

test.describe('channel and home pages', () => {
  test('a channel page shows its newest 24 videos, then pages on', async ({ page, site }) => {
    const channel = (await site.json<{ data: Channel[] }>('/v1/channels?sort=videos&limit=1')).data[0]!;
    expect(channel.videos).toBeGreaterThan(24);
    const videos = (await site.json<{ data: Video[] }>(`/v1/channels/${enc(channel.username)}/videos?limit=48`)).data;
    await open(page, channel.channelUrl);
    await expect(page.locator('h1')).toHaveText(channel.displayName);
    const titles = page.locator('#videos ~ ul .card h3 a');
    expect(await titles.evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href))).toEqual(videos.slice(0, 24).map((v) => v.watchUrl));
    await page.locator('a[rel="next"]').click();
    await expect(page).toHaveURL(`${channel.channelUrl}?page=2`);
    expect(await titles.evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href))).toEqual(videos.slice(24, 48).map((v) => v.watchUrl));
  });

  test('the home page shows the discovery shelves with the same videos as /v1/discovery', async ({ page, site }) => {
    const { shelves } = (await site.json<{ data: { shelves: Shelf[] } }>('/v1/discovery')).data;
    await open(page, `${site.base}/`);
    const headings = await page.locator('main h2').allTextContents();
    expect(headings).toEqual(['live', 'latest', 'trending', 'feature-ready', 'categories'].map((id) => shelves.find((s) => s.id === id)!.title));
    for (const shelf of shelves.slice(0, 3)) {
      const links = await page.locator(`section[aria-labelledby="${shelf.id}"] .card h3 a`).evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
      expect(links, shelf.id).toEqual(shelf.items.map((v) => v.watchUrl));
    }
  });

  test('a keyboard user reaches the skip link first and lands on the content', async ({ page, site }) => {
    await open(page, `${site.base}/`);
    await page.keyboard.press('Tab');
    await expect(page.locator(':focus')).toHaveText('Skip to content');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(`${site.base}/#main`);
  });
});
