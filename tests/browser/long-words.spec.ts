// Real catalogues hold words longer than a phone is wide (pyvideo: "Gloriajw-BoostingTheNumbers…",
// 71 letters with no space; a search for a pasted URL): a page at phone size wraps them inside the
// viewport, in the heading and on every video card, and never scrolls sideways.
import { startFixture, type Fixture } from '../http/server-fixture.ts';
import { openCatalogue } from '../../src/catalogue/open-catalogue.ts';
import { expect, test } from './site.ts';

const LONG_WORD = 'Gloriajw-BoostingTheNumbersPythonForWomenAndDoingItRightInTheCommunity2012';

let fx: Fixture;
let video: { id: string; channel: string };

test.beforeAll(async () => {
  test.setTimeout(120_000);
  fx = await startFixture({ seed: { videos: 40 } });
  const db = openCatalogue(fx.catalogue);
  try {
    video = db.prepare("SELECT id, channel FROM videos WHERE privacy = 'public' ORDER BY id LIMIT 1").get() as { id: string; channel: string };
    db.prepare('UPDATE videos SET title = ? WHERE id = ?').run(LONG_WORD, video.id);
  } finally {
    db.close();
  }
  await fx.rebuild();
});

test.afterAll(async () => {
  await fx?.close();
});

test('a title or query of one long word wraps inside a phone-sized viewport', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 667 } });
  const page = await context.newPage();
  const enc = encodeURIComponent;
  for (const target of [`/watch/${enc(video.id)}`, `/search?q=${enc(LONG_WORD)}`, `/channels/${enc(video.channel)}`, `/search?q=${'x'.repeat(190)}`]) {
    const res = await page.goto(fx.base + target);
    expect(res?.status(), target).toBe(200);
    const wide = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      const out = [...document.querySelectorAll('h1, .card h3')]
        .filter((el) => el.getBoundingClientRect().right > width + 0.5)
        .map((el) => `${el.tagName.toLowerCase()} ends at ${Math.round(el.getBoundingClientRect().right)} px`);
      if (document.documentElement.scrollWidth > width) out.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px in ${width}`);
      return out;
    });
    expect(wide, target).toEqual([]);
    // the long title is on a card of the search for it and of its channel's page
    if (!target.startsWith('/watch/') && !target.includes('xxx')) await expect(page.locator('.card h3', { hasText: LONG_WORD }).first(), target).toBeVisible();
  }
  await context.close();
});
