// Chapters as the player uses them: which one is playing, where their markers sit on the seek bar.
import type { ChapterInfo } from './protocol.ts';

/** The index of the chapter playing at `time`, or null before the first (or without chapters). */
export function findChapter(chapters: readonly ChapterInfo[], time: number): number | null {
  let found: number | null = null;
  for (const [index, chapter] of chapters.entries()) {
    if (chapter.start > time) break;
    found = index;
  }
  return found;
}

/** Each chapter's start as a percentage of the duration, for the seek bar's markers (none at 0). */
export function placeMarkers(chapters: readonly ChapterInfo[], duration: number): { title: string; percent: number }[] {
  if (!(duration > 0)) return [];
  return chapters.filter((c) => c.start > 0 && c.start < duration).map((c) => ({ title: c.title, percent: Math.round((c.start / duration) * 10_000) / 100 }));
}
