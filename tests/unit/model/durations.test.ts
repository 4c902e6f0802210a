import { describe, expect, it } from 'vitest';
import { durationClass, durationText } from '../../../src/model/durations.ts';

describe('durationClass', () => {
  it.each([
    [0, 'short'], [1, 'short'], [239, 'short'],
    [240, 'medium'], [600, 'medium'], [1200, 'medium'],
    [1201, 'long'], [3600, 'long'], [100_000, 'long'],
  ])('classes %i seconds as %s (short under 240 s, medium 240–1200 s inclusive, long over)', (seconds, expected) => {
    expect(durationClass(seconds)).toBe(expected);
  });
});

describe('durationText', () => {
  it.each([
    [0, '0:00'], [5, '0:05'], [45, '0:45'], [60, '1:00'], [245, '4:05'], [600, '10:00'], [3599, '59:59'],
  ])('writes %i seconds as M:SS under an hour: %s', (seconds, expected) => {
    expect(durationText(seconds)).toBe(expected);
  });

  it.each([
    [3600, '1:00:00'], [3723, '1:02:03'], [36_000, '10:00:00'], [86_399, '23:59:59'], [90_061, '25:01:01'],
  ])('writes %i seconds as H:MM:SS from an hour: %s', (seconds, expected) => {
    expect(durationText(seconds)).toBe(expected);
  });

  it('reads back to the same number of seconds for every duration up to ten hours', () => {
    for (let seconds = 0; seconds <= 36_000; seconds += 17) {
      const text = durationText(seconds);
      const parts = text.split(':').map(Number);
      expect(parts.length).toBe(seconds < 3600 ? 2 : 3);
      expect(parts.reduce((total, part) => total * 60 + part, 0)).toBe(seconds);
      expect(text).toMatch(seconds < 3600 ? /^\d+:[0-5]\d$/ : /^[1-9]\d*:[0-5]\d:[0-5]\d$/);
    }
  });
});
