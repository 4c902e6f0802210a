import { describe, expect, it } from 'vitest';
import { describeClips, findChapter, placeMarkers, writeChaptersVtt } from '../../../src/player/chapters.ts';

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

describe('writeChaptersVtt', () => {
  it('writes one cue per chapter, each up to the next chapter or the end', () => {
    expect(writeChaptersVtt(chapters, 200)).toBe([
      'WEBVTT', '',
      '1', '00:00:00.000 --> 00:01:00.000', 'Intro', '',
      '2', '00:01:00.000 --> 00:02:30.000', 'Setup', '',
      '3', '00:02:30.000 --> 00:03:20.000', 'Demo', '',
    ].join('\n'));
  });

  it('escapes markup and keeps each title on one line, so no title can end its cue or add one', () => {
    const vtt = writeChaptersVtt([{ start: 3725, title: 'A <b>&</b>\n2\n00:00:00.000 --> 00:00:01.000' }], undefined);
    expect(vtt).toBe('WEBVTT\n\n1\n01:02:05.000 --> 101:02:05.000\nA &lt;b&gt;&amp;&lt;/b&gt; 2 00:00:00.000 --&gt; 00:00:01.000\n');
  });
});

describe('describeClips', () => {
  it('makes a schema.org Clip per chapter, with its start, its end and a link to that moment', () => {
    expect(describeClips(chapters, 200, 'https://videos.example/watch/v1')).toEqual([
      { '@type': 'Clip', name: 'Intro', startOffset: 0, endOffset: 60, url: 'https://videos.example/watch/v1?t=0' },
      { '@type': 'Clip', name: 'Setup', startOffset: 60, endOffset: 150, url: 'https://videos.example/watch/v1?t=60' },
      { '@type': 'Clip', name: 'Demo', startOffset: 150, endOffset: 200, url: 'https://videos.example/watch/v1?t=150' },
    ]);
    expect(describeClips([{ start: 5, title: 'Only' }], undefined, 'https://videos.example/watch/v1')).toEqual([
      { '@type': 'Clip', name: 'Only', startOffset: 5, url: 'https://videos.example/watch/v1?t=5' },
    ]);
  });
});
