import { describe, expect, it } from 'vitest';
import { measureBuffered, type Ranges } from '../../../src/player/buffered.ts';

const ranges = (...spans: [number, number][]): Ranges => ({ length: spans.length, start: (i) => spans[i]![0], end: (i) => spans[i]![1] });

describe('measureBuffered', () => {
  it('is the end of the range holding the position, as a fraction of the duration', () => {
    expect(measureBuffered(ranges([0, 30]), 10, 120)).toBe(0.25);
    expect(measureBuffered(ranges([0, 5], [40, 90]), 50, 100)).toBe(0.9);
    expect(measureBuffered(ranges([0, 120]), 0, 120)).toBe(1);
  });

  it('is 0 when no range holds the position, nothing is buffered, or the duration is unknown', () => {
    expect(measureBuffered(ranges([0, 5]), 50, 100)).toBe(0);
    expect(measureBuffered(ranges(), 0, 100)).toBe(0);
    expect(measureBuffered(ranges([0, 5]), 0, Number.NaN)).toBe(0);
  });
});
