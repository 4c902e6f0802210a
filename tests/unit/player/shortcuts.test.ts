import { describe, expect, it } from 'vitest';
import { findShortcut, stepVolume, type KeyPress } from '../../../src/player/shortcuts.ts';

const press = (key: string, more: Partial<KeyPress> = {}): KeyPress => ({ key, altKey: false, ctrlKey: false, metaKey: false, tag: 'VIDEO', onSeekBar: false, ...more });

describe('findShortcut', () => {
  it('maps the documented keys anywhere in the player', () => {
    expect(findShortcut(press('k'))).toEqual({ action: 'toggle-play' });
    expect(findShortcut(press('K'))).toEqual({ action: 'toggle-play' });
    expect(findShortcut(press(' '))).toEqual({ action: 'toggle-play' });
    expect(findShortcut(press('m'))).toEqual({ action: 'toggle-mute' });
    expect(findShortcut(press('f'))).toEqual({ action: 'toggle-fullscreen' });
    expect(findShortcut(press('c'))).toEqual({ action: 'toggle-captions' });
    expect(findShortcut(press('ArrowLeft'))).toEqual({ action: 'seek-by', seconds: -5 });
    expect(findShortcut(press('ArrowRight'))).toEqual({ action: 'seek-by', seconds: 5 });
    expect(findShortcut(press('ArrowUp'))).toEqual({ action: 'volume-by', step: 0.1 });
    expect(findShortcut(press('ArrowDown'))).toEqual({ action: 'volume-by', step: -0.1 });
  });

  it('leaves keys to the browser where they mean something else', () => {
    expect(findShortcut(press(' ', { tag: 'BUTTON' }))).toBeUndefined(); // Space presses the button
    expect(findShortcut(press(' ', { tag: 'SELECT' }))).toBeUndefined();
    expect(findShortcut(press('ArrowUp', { tag: 'SELECT' }))).toBeUndefined(); // moves in the menu
    expect(findShortcut(press('ArrowLeft', { tag: 'INPUT' }))).toBeUndefined(); // the volume slider's own
    expect(findShortcut(press('ArrowLeft', { tag: 'INPUT', onSeekBar: true }))).toEqual({ action: 'seek-by', seconds: -5 });
    expect(findShortcut(press('k', { ctrlKey: true }))).toBeUndefined();
    expect(findShortcut(press('f', { metaKey: true }))).toBeUndefined();
    expect(findShortcut(press('x'))).toBeUndefined();
  });
});

describe('stepVolume', () => {
  it('steps in tenths within 0 and 1', () => {
    expect(stepVolume(0.5, 0.1)).toBe(0.6);
    expect(stepVolume(0.95, 0.1)).toBe(1);
    expect(stepVolume(0.05, -0.1)).toBe(0);
    expect(stepVolume(0.7, -0.1)).toBe(0.6);
  });
});
