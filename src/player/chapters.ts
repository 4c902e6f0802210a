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

/** The longest a chapter without a known end runs in the WebVTT track: 100 hours. */
const OPEN_END = 360_000;

const vttTime = (seconds: number) => {
  const ms = Math.round(seconds * 1000);
  const [h, m, s] = [Math.floor(ms / 3_600_000), Math.floor(ms / 60_000) % 60, Math.floor(ms / 1000) % 60];
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(ms % 1000).padStart(3, '0')}`;
};

/** Text safe in a WebVTT cue: one line, `&`, `<` and `>` escaped (no `-->` can then appear). */
const cueText = (title: string) => title.replace(/[\r\n]+/g, ' ').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The chapters as a WebVTT `kind="chapters"` track: one cue per chapter, up to the next (or the end). */
export function writeChaptersVtt(chapters: readonly ChapterInfo[], duration: number | undefined): string {
  const cues = chapters.map((chapter, i) => {
    const end = chapters[i + 1]?.start ?? (duration !== undefined && duration > chapter.start ? duration : chapter.start + OPEN_END);
    return `${i + 1}\n${vttTime(chapter.start)} --> ${vttTime(end)}\n${cueText(chapter.title)}\n`;
  });
  return ['WEBVTT', '', ...cues].join('\n');
}

/** schema.org `Clip` items for a watch page's VideoObject (`hasPart`), so search engines can show key moments. */
export function describeClips(chapters: readonly ChapterInfo[], duration: number | undefined, watchUrl: string): Record<string, unknown>[] {
  return chapters.map((chapter, i) => {
    const end = chapters[i + 1]?.start ?? duration;
    return {
      '@type': 'Clip',
      name: chapter.title,
      startOffset: chapter.start,
      ...(end !== undefined && end > chapter.start && { endOffset: end }),
      url: `${watchUrl}${watchUrl.includes('?') ? '&' : '?'}t=${chapter.start}`,
    };
  });
}
