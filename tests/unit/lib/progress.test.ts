// Progress lines (src/lib/progress.ts): the total, the percentage and the time left at the rate so
// far, which an operator watching a long seed, build or export relies on.
import { describe, expect, it } from 'vitest';
import { describeProgress, formatDuration } from '../../../src/lib/progress.ts';

describe('describeProgress', () => {
  it('gives the count out of the total, the percentage and the time left at the rate so far', () => {
    expect(describeProgress(300, 3000, 'videos', 2)).toBe('300/3,000 videos (10%, 18 s left)');
    expect(describeProgress(250_000, 1_000_000, 'records', 100)).toBe('250,000/1,000,000 records (25%, 5 min 0 s left)');
  });

  it('says nothing is left at the end, and that the time left is unknown before the first item', () => {
    expect(describeProgress(3000, 3000, 'videos', 12)).toBe('3,000/3,000 videos (100%, 0 s left)');
    expect(describeProgress(0, 3000, 'videos', 0)).toBe('0/3,000 videos (0%, time left unknown)');
  });

  it('never claims more than 100% or a negative time when the total was an estimate that was passed', () => {
    expect(describeProgress(3100, 3000, 'pages', 31)).toBe('3,100/3,000 pages (100%, 0 s left)');
  });
});

describe('formatDuration', () => {
  it('reads as hours and minutes, minutes and seconds, or seconds', () => {
    expect(formatDuration(3725)).toBe('1 h 2 min');
    expect(formatDuration(184)).toBe('3 min 4 s');
    expect(formatDuration(4.6)).toBe('5 s');
    expect(formatDuration(-3)).toBe('0 s');
  });
});
