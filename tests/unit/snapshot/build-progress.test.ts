// The pages phase's progress line (src/snapshot/build-progress.ts): the share of pages written and
// the time left, which must hold when the plan writes its list pages (a page of videos each) before
// the pages of one video each, as plan-pages.ts does.
import { describe, expect, it } from 'vitest';
import { createPagesProgress, LIST_PAGE_WEIGHT } from '../../../src/snapshot/build-progress.ts';

/** Seconds in "1 h 2 min", "3 min 4 s", "5 s". */
function secondsIn(text: string): number {
  const match = /\(\d+%, (?:(\d+) h )?(?:(\d+) min ?)?(?:(\d+) s)? left\)/.exec(text);
  if (!match) throw new Error(`no time left in ${JSON.stringify(text)}`);
  return Number(match[1] ?? 0) * 3600 + Number(match[2] ?? 0) * 60 + Number(match[3] ?? 0);
}

describe('createPagesProgress', () => {
  // a plan of 4,000 list pages, then 3 pages for each of 96,000 videos, 1,000 playlists and the categories
  const videos = 96_000;
  const playlists = 1_000;
  const lists = 4_000;
  const pages = lists + 3 * videos + playlists + 1;
  const expected = { pages, listPages: lists };

  it('says the time left within a fifth of the real one when the list pages come first and cost a page of videos each', () => {
    const perVideoPage = 0.001;
    const perList = perVideoPage * LIST_PAGE_WEIGHT;
    const whole = lists * perList + (pages - lists) * perVideoPage;
    for (const after of [lists / 2, lists, lists + 30_000, pages - 50_000]) {
      const progress = createPagesProgress(expected);
      let elapsed = 0;
      for (let n = 0; n < after; n++) {
        const list = n < lists;
        progress.page(list);
        elapsed += list ? perList : perVideoPage;
      }
      const said = secondsIn(progress.describe(elapsed));
      expect(Math.abs(said - (whole - elapsed))).toBeLessThanOrEqual(Math.max(1, 0.2 * (whole - elapsed)));
    }
  });

  it('gives the share of pages written, and nothing once more were written than expected', () => {
    const progress = createPagesProgress({ pages: 200, listPages: 0 });
    for (let n = 0; n < 50; n++) progress.page(false);
    expect(progress.describe(5)).toBe(' of about 200 (25%, 15 s left)');
    for (let n = 0; n < 150; n++) progress.page(false);
    expect(progress.describe(20)).toBe('');
  });

  it('does not divide by nothing before the first page', () => {
    expect(createPagesProgress(expected).describe(0)).toBe(` of about ${pages} (0%, time left unknown)`);
  });
});
