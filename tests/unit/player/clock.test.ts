import { describe, expect, it } from 'vitest';
import { formatClock } from '../../../src/player/clock.ts';

describe('formatClock', () => {
  it.each([
    [0, '0:00'], [7.9, '0:07'], [65, '1:05'], [725, '12:05'], [3723, '1:02:03'], [-4, '0:00'], [Number.NaN, '0:00'],
  ])('shows %s seconds as %s', (seconds, text) => {
    expect(formatClock(seconds)).toBe(text);
  });
});
