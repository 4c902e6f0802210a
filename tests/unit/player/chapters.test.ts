import { describe, expect, it } from 'vitest';
import { findChapter, placeMarkers } from '../../../src/player/chapters.ts';

const chapters = [{ start: 0, title: 'Intro' }, { start: 60, title: 'Setup' }, { start: 150, title: 'Demo' }];

describe('findChapter', () => {
  it('finds the chapter whose span holds the time, a chapter starting exactly there included', () => {
    expect(findChapter(chapters, 0)).toBe(0);
    expect(findChapter(chapters, 59.9)).toBe(0);
    expect(findChapter(chapters, 60)).toBe(1);
    expect(findChapter(chapters, 10_000)).toBe(2);
  });

  it('is null before the first chapter and without chapters', () => {
    expect(findChapter([{ start: 10, title: 'Late start' }], 3)).toBeNull();
    expect(findChapter([], 3)).toBeNull();
  });
});

describe('placeMarkers', () => {
  it('places each chapter after the first as a percentage of the duration', () => {
    expect(placeMarkers(chapters, 300)).toEqual([{ title: 'Setup', percent: 20 }, { title: 'Demo', percent: 50 }]);
    expect(placeMarkers([{ start: 0, title: 'a' }, { start: 1, title: 'b' }], 3)).toEqual([{ title: 'b', percent: 33.33 }]);
  });

  it('places none without a duration, and none past its end', () => {
    expect(placeMarkers(chapters, 0)).toEqual([]);
    expect(placeMarkers(chapters, Number.NaN)).toEqual([]);
    expect(placeMarkers(chapters, 100)).toEqual([{ title: 'Setup', percent: 60 }]);
  });
});
