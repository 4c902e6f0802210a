import { describe, expect, it } from 'vitest';
import { cannotPlayMessages, problemMessage, problemMessages } from '../../../src/player/problem-event.ts';

const rate = { parameter: 'rate', detail: 'must be one of 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2' };
const end = { parameter: 'end', detail: 'must be a whole number of seconds from 1 to 1000000, after start' };
const oneBad = { status: 400, title: 'Invalid parameter', detail: `rate: ${rate.detail}`, errors: [rate] };
const notFound = { status: 404, title: 'Not found', detail: 'Nothing is at /embed/live/nobody.' };

describe('problemMessage', () => {
  it('says what the page says: title, status and detail, and each parameter when the page lists several', () => {
    expect(problemMessage(oneBad)).toBe(`Invalid parameter (HTTP 400): rate: ${rate.detail}`);
    expect(problemMessage(notFound)).toBe('Not found (HTTP 404): Nothing is at /embed/live/nobody.');
    expect(problemMessage({ status: 400, title: 'Invalid parameter', detail: 'Invalid parameters: end, rate', errors: [end, rate] }))
      .toBe(`Invalid parameter (HTTP 400): Invalid parameters: end, rate (end: ${end.detail}; rate: ${rate.detail})`);
  });
});

describe('problemMessages', () => {
  it('is the protocol\'s error event, with the problem: bad-option for a 400, unavailable otherwise', () => {
    const bad = problemMessages(oneBad, '/embed/abc?rate=3')!;
    expect(bad.origin).toBeUndefined();
    expect(bad.event).toMatchObject({ protocol: 'video-platform', version: 1, kind: 'event', event: 'error', state: { videoId: 'abc', paused: true, quality: null } });
    expect(bad.event.error).toEqual({ code: 'bad-option', message: problemMessage(oneBad), problem: oneBad });
    const missing = problemMessages(notFound, '/embed/live/nobody')!;
    expect(missing.event.error).toEqual({ code: 'unavailable', message: problemMessage(notFound), problem: notFound });
    // a live channel or another path names no video
    expect(missing.event.state.videoId).toBe('');
    expect(problemMessages(notFound, '/embed/a/b/c')!.event.state.videoId).toBe('');
    expect(problemMessages(oneBad, '/embed/a%20b%2F?rate=3')!.event.state.videoId).toBe('a b/');
    expect(problemMessages(oneBad, '/embed/%E0%A4%A?rate=3')!.event.state.videoId).toBe('');
  });

  it('goes only to the origin the embed names, and says nothing when that option is invalid or repeated', () => {
    expect(problemMessages(oneBad, `/embed/abc?rate=3&origin=${encodeURIComponent('https://blog.example')}`)!.origin).toBe('https://blog.example');
    expect(problemMessages(notFound, `/embed/live/nobody?origin=${encodeURIComponent('http://localhost:8080')}`)!.origin).toBe('http://localhost:8080');
    for (const origin of ['https://blog.example/path', 'javascript:alert(1)', '*', 'null', '']) {
      expect(problemMessages(oneBad, `/embed/abc?rate=3&origin=${encodeURIComponent(origin)}`), origin).toBeUndefined();
    }
    expect(problemMessages(oneBad, '/embed/abc?origin=https%3A%2F%2Fa.example&origin=https%3A%2F%2Fb.example')).toBeUndefined();
  });
});

describe('cannotPlayMessages (the live player)', () => {
  const noStream = { code: 'no-media', message: 'Channel: offline. This player shows a live channel\'s state; it has no stream to play.' } as const;

  it('is the protocol\'s error event with the error given, no problem, and no video', () => {
    const live = cannotPlayMessages(noStream, '/embed/live/channel')!;
    expect(live.origin).toBeUndefined();
    expect(live.event).toMatchObject({ kind: 'event', event: 'error', state: { videoId: '', paused: true }, error: noStream });
    expect(live.event.error.problem).toBeUndefined();
  });

  it('goes to the origin option alone when it is one, and stays silent when it is not', () => {
    expect(cannotPlayMessages(noStream, '/embed/live/channel?origin=https%3A%2F%2Fblog.example')!.origin).toBe('https://blog.example');
    expect(cannotPlayMessages(noStream, '/embed/live/channel?origin=javascript%3Aalert(1)')).toBeUndefined();
    expect(cannotPlayMessages(noStream, '/embed/live/channel?origin=https%3A%2F%2Fa.example&origin=https%3A%2F%2Fb.example')).toBeUndefined();
  });
});
