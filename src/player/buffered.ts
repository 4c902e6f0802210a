// How much of the media the browser holds ahead of the position, as `progress` events report it.

/** The ranges of a TimeRanges, in order. */
export interface Ranges {
  readonly length: number;
  start(index: number): number;
  end(index: number): number;
}

/** The fraction (0 to 1) of the media downloaded up to the end of the range holding `time` (0 when none holds it). */
export function measureBuffered(ranges: Ranges, time: number, duration: number): number {
  if (!(duration > 0)) return 0;
  for (let i = 0; i < ranges.length; i++) {
    if (ranges.start(i) <= time + 0.5 && time <= ranges.end(i)) return Math.min(1, Math.max(0, ranges.end(i) / duration));
  }
  return 0;
}
