// The site as visitors use it, in real Chromium at a desktop (1280 × 800) and a phone (390 × 844):
// no element overflows the viewport, the header stays one row, axe finds nothing, the console stays
// quiet; the HTML error page, search with a typo, category pages, "More" links, the share panel
// with a start time, playlist social tags and feeds, raster previews, BroadcastEvent data on live pages.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test, type Site } from './site.ts';

const enc = encodeURIComponent;
const VIEWPORTS = [{ width: 1280, height: 800 }, { width: 390, height: 844 }] as const;

interface Video { id: string; title: string; category?: string; watchUrl: string; embedUrl: string; thumbnails?: { maxres: { url: string } } }

async function targets(site: Site): Promise<string[]> {
  const video = site.truth.publicVideos.find((v) => v.category !== null && (v.description ?? '').length > 0)!;
  const playlist = [...site.truth.playlists.values()].find((p) => p.privacy === 'public' && p.videoIds.length >= 3)!;
  const live = site.truth.live.find((l) => l.state === 'live')!;
  const channel = [...site.truth.channels.keys()][0]!;
  return ['/', `/watch/${enc(video.id)}`, `/channels/${enc(channel)}`, `/playlists/${enc(playlist.id)}`, `/channels/${enc(live.channel)}/live`,
    '/search?q=guitar', `/categories/${enc(video.category!)}`, '/videos?sort=trending', '/watch/no-such-video', '/problems'];
}

/** Elements wider than the viewport or sticking out of it (visually hidden ones aside). */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    for (const el of document.querySelectorAll('body *')) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || el.closest('.skip, .visually-hidden')) continue;
      if (box.right > width + 0.5 || box.left < -0.5) out.push(`${el.tagName.toLowerCase()}.${(el as HTMLElement).className} [${Math.round(box.left)}, ${Math.round(box.right)}]`);
    }
    if (document.documentElement.scrollWidth > width) out.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
    return out.slice(0, 10);
  });
}

/** Distinct rows the header's items sit on. */
function headerRows(page: Page): Promise<number> {
  return page.evaluate(() => {
    const tops = [...document.querySelectorAll('header.site nav > *')]
      .map((el) => el.getBoundingClientRect())
      .filter((b) => b.width > 0)
      .map((b) => Math.round(b.top + b.height / 2));
    return new Set(tops.map((t) => Math.round(t / 12))).size;
  });
}

test.describe('layout at desktop and phone sizes', () => {
  for (const viewport of VIEWPORTS) {
    test(`${viewport.width}×${viewport.height}: nothing overflows, the header is one row, axe is clean, the console quiet`, async ({ browser, site }) => {
      test.setTimeout(300_000); // ten pages, each scrolled through and checked by axe
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (m) => { if (m.type() === 'error') problems.push(`${page.url()}: ${m.text()}`); });
      page.on('pageerror', (e) => problems.push(`${page.url()}: ${e.message}`));
      for (const target of await targets(site)) {
        const res = await page.goto(site.base + target, { waitUntil: 'load' });
        expect([200, 404], target).toContain(res?.status());
        await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
        await page.waitForLoadState('networkidle');
        expect(await overflowing(page), target).toEqual([]);
        expect(await headerRows(page), target).toBe(1);
        const axe = await new AxeBuilder({ page }).analyze();
        expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`), target).toEqual([]);
      }
      expect(problems.filter((p) => !/404 \(Not Found\)/.test(p))).toEqual([]);
      await context.close();
    });
  }

  test('a date or time never breaks across lines at phone size (375 px)', async ({ browser, site }) => {
    // before: "since 2012-05-" / "05" on a channel page, "started 2026-" / "10-31 18:54 UTC" on a live one
    test.setTimeout(120_000);
    const context = await browser.newContext({ viewport: { width: 375, height: 667 } });
    const page = await context.newPage();
    const live = site.truth.live.filter((l) => l.state !== 'offline').map((l) => `/channels/${enc(l.channel)}/live`);
    const channels = [...site.truth.channels.keys()].map((c) => `/channels/${enc(c)}`);
    const broken: string[] = [];
    for (const target of [...live, ...channels]) {
      await page.goto(site.base + target);
      const times = await page.locator('main time').evaluateAll((ts) => ts.filter((t) => t.getClientRects().length > 1).map((t) => t.textContent));
      broken.push(...times.map((t) => `${target}: ${t}`));
    }
    expect(broken).toEqual([]);
    await context.close();
  });

  test('card titles sit clear of the length badge on playlist pages, at phone size', async ({ browser, site }) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const playlist = [...site.truth.playlists.values()].find((p) => p.privacy === 'public' && p.videoIds.length >= 3)!;
    await page.goto(`${site.base}/playlists/${enc(playlist.id)}`);
    const cards = page.locator('.card');
    expect(await cards.count()).toBeGreaterThan(0);
    for (let i = 0; i < Math.min(4, await cards.count()); i++) {
      const badge = await cards.nth(i).locator('.length').boundingBox();
      const title = await cards.nth(i).locator('h3').boundingBox();
      if (!badge || !title) continue;
      expect(title.y, `card ${i}`).toBeGreaterThanOrEqual(badge.y + badge.height);
      // the picture behind the badge is a PNG without text (src/site/png.ts)
      expect(await cards.nth(i).locator('img').getAttribute('src')).toMatch(/\.320x180\.png$|^https?:\/\/(?!.*\/thumbnails\/)/);
    }
    await context.close();
  });
});

test.describe('errors, search and lists', () => {
  test('a mistyped watch URL shows an HTML 404 page whose search box finds the video despite a typo', async ({ page, site }) => {
    const video = site.truth.publicVideos.find((v) => /^[A-Za-z]{6,}$/.test(v.title.split(' ')[0] ?? ''))!;
    const res = await page.goto(`${site.base}/watch/${enc(video.id)}x`);
    expect(res?.status()).toBe(404);
    expect(res?.headers()['content-type']).toBe('text/html; charset=utf-8');
    await expect(page.locator('h1')).toHaveText('Not found');
    await expect(page.locator('main')).toContainText(`/watch/${video.id}x`);
    const word = video.title.split(' ')[0]!;
    const typo = word.slice(0, 2) + word[3] + word[2] + word.slice(4); // two letters swapped
    await page.locator('main input[name="q"]').fill(`${typo} ${video.title.split(' ').slice(1, 3).join(' ')}`);
    await page.locator('main form[role="search"] button').click();
    await expect(page).toHaveURL(/\/search\?q=/);
    await expect(page.locator('h1')).toContainText('Results for');
    const links = await page.locator('main a').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
    expect(links).toContain(`${site.base}/watch/${enc(video.id)}`);
  });

  test('the header search box is on every page and lands on results from /v1/search', async ({ page, site }) => {
    await page.goto(`${site.base}/problems`);
    await page.locator('header input[name="q"]').fill('guitar');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(`${site.base}/search?q=guitar`);
    const api = await site.json<{ data: { type: string; item: { watchUrl?: string } }[]; paging: { total: number } }>('/v1/search?q=guitar&type=all&limit=24');
    const shown = await page.locator('.card h3 a').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
    expect(shown).toEqual(api.data.filter((r) => r.type === 'video').map((r) => r.item.watchUrl));
    await expect(page.locator('[role="status"]')).toContainText(String(api.paging.total));
  });

  test('a watch page links its category to a category page listing the category\'s videos', async ({ page, site }) => {
    const id = site.truth.publicVideos.find((v) => v.category !== null)!.id;
    const video = (await site.json<{ data: Video }>(`/v1/videos/${enc(id)}`)).data;
    await page.goto(video.watchUrl);
    await page.locator(`a[href="/categories/${enc(video.category!)}"]`).click();
    await expect(page).toHaveURL(`${site.base}/categories/${enc(video.category!)}`);
    const api = await site.json<{ data: Video[] }>(`/v1/videos?category=${enc(video.category!)}&limit=24`);
    expect(await page.locator('.card h3 a').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href))).toEqual(api.data.map((v) => v.watchUrl));
  });

  test('the home page\'s "More" and category links lead to the full lists', async ({ page, site }) => {
    await page.goto(`${site.base}/`);
    await page.locator('a[aria-label^="More: Trending"]').click();
    await expect(page).toHaveURL(`${site.base}/videos?sort=trending`);
    const api = await site.json<{ data: Video[] }>('/v1/videos?sort=trending&limit=24');
    expect(await page.locator('.card h3 a').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href))).toEqual(api.data.map((v) => v.watchUrl));
    await page.goto(`${site.base}/`);
    const category = page.locator('section[aria-labelledby="categories"] a').first();
    const href = await category.getAttribute('href');
    await category.click();
    await expect(page).toHaveURL(site.base + href);
    await expect(page.locator('h1')).toBeVisible();
  });
});

test.describe('sharing and previews', () => {
  test('the share panel gives the link and embed code, with a start time that the shared link honours', async ({ page, site }) => {
    const video = (await site.json<{ data: Video }>(`/v1/videos/${enc(site.truth.publicVideos[0]!.id)}`)).data;
    await page.goto(video.watchUrl);
    await page.locator('.share summary').click();
    await expect(page.locator('#share-link')).toHaveValue(video.watchUrl);
    await expect(page.locator('#share-embed')).toHaveValue(new RegExp(`src="${video.embedUrl.replace(/[.?]/g, '\\$&')}"`));
    await page.locator('#share-time').fill('1:30');
    await expect(page.locator('#share-start')).toBeChecked();
    await expect(page.locator('#share-link')).toHaveValue(`${video.watchUrl}?t=90`);
    await expect(page.locator('#share-embed')).toHaveValue(new RegExp(`src="${video.embedUrl.replace(/[.?]/g, '\\$&')}\\?start=90"`));
    await page.locator('#share-start').uncheck();
    await expect(page.locator('#share-link')).toHaveValue(video.watchUrl);
    await page.goto(`${video.watchUrl}?t=90`);
    expect(await page.locator('iframe.player').getAttribute('src')).toBe(`${video.embedUrl}?start=90`);
    // the watch page's player and the share code grant what oEmbed's iframe grants, no more, no less
    const oembed = await site.json<{ html: string }>(`/oembed?url=${encodeURIComponent(video.watchUrl)}`);
    const allow = /allow="([^"]*)"/.exec(oembed.html)?.[1];
    expect(allow).toBeTruthy();
    expect(await page.locator('iframe.player').getAttribute('allow')).toBe(allow);
    await page.locator('.share summary').click();
    await expect(page.locator('#share-embed')).toHaveValue(new RegExp(`allow="${allow!.replace(/[.?;]/g, '\\$&')}"`));
    await expect(page.locator('#share-embed')).not.toHaveValue(/allowfullscreen/);
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(video.watchUrl);
  });

  test('previews are raster pictures of the size they state; playlist and home pages carry social tags and feed links', async ({ page, site }) => {
    const playlist = [...site.truth.playlists.values()].find((p) => p.privacy === 'public' && p.videoIds.length >= 1)!;
    const url = `${site.base}/playlists/${enc(playlist.id)}`;
    await page.goto(url);
    const meta = (key: string) => page.locator(`meta[property="${key}"], meta[name="${key}"]`).first().getAttribute('content');
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(url);
    expect(await meta('og:url')).toBe(url);
    expect(await meta('og:title')).toBe(playlist.title);
    expect(await meta('description')).toBeTruthy();
    expect(await meta('twitter:card')).toBe('summary_large_image');
    expect(await page.locator('link[rel="alternate"][type="application/atom+xml"]').getAttribute('href')).toBe(`${site.base}/feeds/playlists/${enc(playlist.id)}.xml`);
    for (const target of [url, `${site.base}/`]) {
      await page.goto(target);
      const image = (await meta('og:image'))!;
      const [width, height] = [Number(await meta('og:image:width')), Number(await meta('og:image:height'))];
      expect(await meta('og:image:alt'), target).toBeTruthy();
      const res = await page.request.get(image);
      expect(res.headers()['content-type'], image).toMatch(/^image\/(png|jpeg|webp)/);
      const size = await page.evaluate(async (src) => { const img = new Image(); img.src = src; await img.decode(); return [img.naturalWidth, img.naturalHeight]; }, image);
      expect(size, image).toEqual([width, height]);
    }
  });

  test('a live page carries a VideoObject with a BroadcastEvent', async ({ page, site }) => {
    const live = site.truth.live.find((l) => l.state === 'live')!;
    await page.goto(`${site.base}/channels/${enc(live.channel)}/live`);
    const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
    expect(blocks).toHaveLength(1);
    const ld = JSON.parse(blocks[0]!);
    expect(ld).toMatchObject({ '@type': 'VideoObject', publication: { '@type': 'BroadcastEvent', isLiveBroadcast: true } });
    expect(ld.publication.startDate).toBe(live.startedAt);
  });
});
