import { describe, expect, it } from 'vitest';
import { checkCommand } from '../../../src/player/check-command.ts';
import { PlayerError } from '../../../src/player/player-error.ts';

const context = { qualities: ['480p', '240p'], captions: ['en', 'fr'] };
const refusal = (message: Record<string, unknown>) => {
  try {
    checkCommand(message, context);
  } catch (error) {
    return error instanceof PlayerError ? error.info : error;
  }
  return 'accepted';
};

describe('checkCommand', () => {
  it('passes the commands without arguments through, dropping the envelope', () => {
    for (const command of ['play', 'pause', 'stop', 'mute', 'unmute', 'state', 'chapters']) {
      expect(checkCommand({ protocol: 'video-platform', version: 1, id: 3, command }, context)).toEqual({ command });
    }
  });

  it('accepts a seek to 0 or later, and refuses negative, infinite or non-number times', () => {
    expect(checkCommand({ command: 'seek', time: 0 }, context)).toEqual({ command: 'seek', time: 0 });
    expect(checkCommand({ command: 'seek', time: 12.5 }, context)).toEqual({ command: 'seek', time: 12.5 });
    for (const time of [-1, Number.POSITIVE_INFINITY, Number.NaN, '5', null, undefined]) {
      expect(refusal({ command: 'seek', time })).toEqual({ code: 'bad-command', message: 'seek needs a time in seconds, 0 or more' });
    }
  });

  it('accepts volumes from 0 to 1 only', () => {
    expect(checkCommand({ command: 'volume', volume: 0 }, context)).toEqual({ command: 'volume', volume: 0 });
    expect(checkCommand({ command: 'volume', volume: 1 }, context)).toEqual({ command: 'volume', volume: 1 });
    for (const volume of [-0.1, 1.01, Number.NaN, '0.5']) expect(refusal({ command: 'volume', volume })).toMatchObject({ code: 'bad-command' });
  });

  it('accepts the offered playback rates and names them when refusing another', () => {
    expect(checkCommand({ command: 'rate', rate: 1.5 }, context)).toEqual({ command: 'rate', rate: 1.5 });
    expect(checkCommand({ command: 'rate', rate: 0.25 }, context)).toEqual({ command: 'rate', rate: 0.25 });
    expect(refusal({ command: 'rate', rate: 3 })).toEqual({ code: 'bad-command', message: 'rate must be one of 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2' });
    expect(refusal({ command: 'rate', rate: '1' })).toMatchObject({ code: 'bad-command' });
  });

  it('accepts only the video\'s qualities and caption languages (or null for no captions)', () => {
    expect(checkCommand({ command: 'quality', quality: '240p' }, context)).toEqual({ command: 'quality', quality: '240p' });
    expect(refusal({ command: 'quality', quality: '4320p' })).toEqual({ code: 'bad-command', message: 'quality must be one of 480p, 240p' });
    expect(checkCommand({ command: 'captions', lang: null }, context)).toEqual({ command: 'captions', lang: null });
    expect(checkCommand({ command: 'captions', lang: 'fr' }, context)).toEqual({ command: 'captions', lang: 'fr' });
    expect(refusal({ command: 'captions', lang: 'xx' })).toEqual({ code: 'bad-command', message: 'captions must be null or one of en, fr' });
    expect(checkCommand({ command: 'captions', lang: null }, { qualities: [], captions: [] })).toEqual({ command: 'captions', lang: null });
    expect(() => checkCommand({ command: 'captions', lang: 'en' }, { qualities: [], captions: [] })).toThrow('this video has no caption files');
  });

  it('accepts load and cue with a video id and an optional range, and refuses a bad id or range', () => {
    expect(checkCommand({ command: 'load', videoId: 'abc' }, context)).toEqual({ command: 'load', videoId: 'abc' });
    expect(checkCommand({ command: 'cue', videoId: 'abc', start: 5, end: 9 }, context)).toEqual({ command: 'cue', videoId: 'abc', start: 5, end: 9 });
    expect(refusal({ command: 'load', videoId: '' })).toMatchObject({ code: 'bad-command', message: 'load needs a videoId of 1 to 200 characters' });
    expect(refusal({ command: 'load', videoId: 'x'.repeat(201) })).toMatchObject({ code: 'bad-command' });
    expect(refusal({ command: 'cue', videoId: 42 })).toMatchObject({ code: 'bad-command' });
    expect(refusal({ command: 'load', videoId: 'abc', start: -3 })).toEqual({ code: 'bad-command', message: 'start needs a time in seconds, 0 or more' });
    expect(refusal({ command: 'load', videoId: 'abc', start: 9, end: 5 })).toEqual({ code: 'bad-command', message: 'end must come after start' });
  });

  it('needs on: true or false for full screen and picture-in-picture', () => {
    expect(checkCommand({ command: 'fullscreen', on: true }, context)).toEqual({ command: 'fullscreen', on: true });
    expect(checkCommand({ command: 'pip', on: false }, context)).toEqual({ command: 'pip', on: false });
    expect(refusal({ command: 'fullscreen' })).toEqual({ code: 'bad-command', message: 'fullscreen needs on: true or false' });
  });

  it('refuses an unknown command by name', () => {
    expect(refusal({ command: 'explode' })).toEqual({ code: 'bad-command', message: 'unknown command "explode"' });
    expect(refusal({})).toEqual({ code: 'bad-command', message: 'unknown command undefined' });
  });
});
