// The build's progress lines: the time and memory of each phase, and durations people read.
import { DEFAULT_LIMIT } from '../api/params.ts';
import { formatDuration } from '../lib/progress.ts';

/** A lap timer: each call gives the seconds since the previous one and the memory now. */
export function createLap(): () => string {
  let last = performance.now();
  return () => {
    const now = performance.now();
    const seconds = ((now - last) / 1000).toFixed(1);
    last = now;
    const m = process.memoryUsage();
    return `${seconds} s, heap ${(m.heapUsed / 1e6).toFixed(0)} MB, rss ${(m.rss / 1e6).toFixed(0)} MB, buffers ${(m.arrayBuffers / 1e6).toFixed(0)} MB`;
  };
}

/**
 * A list page's share of the pages phase's work, against a page of one video's: it holds a page
 * of videos (DEFAULT_LIMIT), each serialised, keyed and compressed as a video's own page is.
 */
export const LIST_PAGE_WEIGHT = DEFAULT_LIMIT;

/** What the pages phase expects to write: its pages, and how many of them are pages of a list. */
export interface PagesExpected {
  readonly pages: number;
  readonly listPages: number;
}

/**
 * The progress of the pages phase: " of about 310651 (2%, 12 s left)". The share is of the pages;
 * the time left is of the work, a list page weighing LIST_PAGE_WEIGHT pages: the plan writes the
 * lists first, so a count of pages alone said "2 h 55 min left" at 2% of a million-video build
 * that ended 8 minutes later. Empty once more pages were written than expected.
 */
export function createPagesProgress(expected: PagesExpected): { page(list: boolean): void; describe(elapsedSeconds: number): string } {
  const weightOf = (pages: number, lists: number) => pages + (LIST_PAGE_WEIGHT - 1) * lists;
  const total = weightOf(expected.pages, Math.min(expected.listPages, expected.pages));
  let pages = 0;
  let lists = 0;
  return {
    page(list) {
      pages++;
      if (list) lists++;
    },
    describe(elapsed) {
      if (pages >= expected.pages) return '';
      const done = weightOf(pages, lists);
      const left = done === 0 ? 'time left unknown' : `${formatDuration((elapsed / done) * Math.max(0, total - done))} left`;
      return ` of about ${expected.pages} (${Math.floor((pages / expected.pages) * 100)}%, ${left})`;
    },
  };
}
