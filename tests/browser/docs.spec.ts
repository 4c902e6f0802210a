// The /docs page on a phone (390 × 844, an iPhone's viewport) in real Chromium: nothing is wider
// than the screen (only a sample's own scrolling box may hold wider lines), the sidebar's filter
// narrows the operations, "try it" sends the sample request to this origin and shows the answer,
// and the sidebar and an operation have no accessibility violations with the script running
// (tests/browser/pages.spec.ts runs axe on the whole page).
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './site.ts';

test.use({ viewport: { width: 390, height: 844 } });

/** Elements whose box ends right of the viewport, outside any box that scrolls or clips them. */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const clips = (element: Element) => ['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(element).overflowX);
    const out: string[] = [];
    if (document.documentElement.scrollWidth > width) out.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px wide in ${width}`);
    for (const element of document.body.querySelectorAll('*')) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.right <= width + 0.5) continue;
      let parent = element.parentElement;
      while (parent && parent !== document.body && !clips(parent)) parent = parent.parentElement;
      if (parent && parent !== document.body) continue;
      out.push(`${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}.${element.className}: right edge at ${Math.round(box.right)} px`);
    }
    return out.slice(0, 10);
  });
}

test.describe('/docs on a 390 px wide screen', () => {
  test('nothing overflows the viewport, with every sample answer open', async ({ page, site }) => {
    const res = await page.goto(`${site.base}/docs`);
    expect(res?.status()).toBe(200);
    expect(await page.locator('article.operation').count()).toBeGreaterThanOrEqual(20);
    expect(await overflowing(page)).toEqual([]);
    await page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
    expect(await overflowing(page)).toEqual([]);
  });

  test('the filter narrows operations and schemas to those matching every word', async ({ page, site }) => {
    await page.goto(`${site.base}/docs`);
    // on a phone the contents start folded; the filter is above them and unfolds them
    await expect(page.locator('.toc a[href="#listVideos"]')).toBeHidden();
    const filter = page.getByRole('searchbox', { name: 'Filter' });
    await expect(filter).toBeVisible();
    const total = await page.locator('article.operation').count();
    await filter.fill('Playlists  videos');
    const shown = await page.locator('article.operation:visible').evaluateAll((articles) => articles.map((a) => a.querySelector('h3 code')!.textContent!));
    expect(shown).toContain('/v1/playlists/{id}/videos');
    expect(shown).not.toContain('/v1/videos/{id}');
    expect(shown.length).toBeLessThan(total);
    const hidden = await page.locator('article.operation:not(:visible)').evaluateAll((articles) => articles.map((a) => (a as HTMLElement).dataset['filter']!));
    expect(hidden.filter((text) => text.includes('playlists') && text.includes('videos'))).toEqual([]);
    await expect(page.locator('.toc a[href="#getPlaylist"]')).toBeHidden();
    await expect(page.locator('.toc a[href="#playlistVideos"]')).toBeVisible();
    await filter.fill('');
    expect(await page.locator('article.operation:visible').count()).toBeGreaterThanOrEqual(20);
  });

  test('try it sends the sample request to this origin and shows the answer', async ({ page, site }) => {
    await page.goto(`${site.base}/docs#listVideos`);
    const form = page.locator('#listVideos form.try');
    await form.getByRole('button', { name: 'Send' }).click();
    await expect(form.locator('output')).toHaveAttribute('data-status', '200');
    await expect(form.locator('output pre')).toContainText('"paging"');
    // an edited request is sent as it is: a bad limit shows the problem
    await form.getByRole('textbox').fill('/v1/videos?limit=500');
    await form.getByRole('button', { name: 'Send' }).click();
    await expect(form.locator('output')).toHaveAttribute('data-status', '400');
    await expect(form.locator('output pre')).toContainText('invalid-parameter');
    expect(await overflowing(page)).toEqual([]);
    const axe = await new AxeBuilder({ page }).include('#listVideos').include('.sidebar').analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  });
});
