// The player's keyboard shortcuts (docs/embeds.md), as a pure map from a key press and where it
// happened to what the player does; the player carries it out.

export type ShortcutAction =
  | { readonly action: 'toggle-play' | 'toggle-mute' | 'toggle-fullscreen' | 'toggle-captions' }
  | { readonly action: 'seek-by'; readonly seconds: number }
  | { readonly action: 'volume-by'; readonly step: number };

export interface KeyPress {
  readonly key: string;
  readonly altKey: boolean;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  /** the focused element's tag name (`INPUT`, `BUTTON`...) */
  readonly tag: string;
  /** whether the focus is on the seek bar */
  readonly onSeekBar: boolean;
}

export const SEEK_STEP = 5;
export const VOLUME_STEP = 0.1;

/** What a key press does, or undefined when it is not a shortcut there (the browser's own then). */
export function findShortcut(press: KeyPress): ShortcutAction | undefined {
  if (press.altKey || press.ctrlKey || press.metaKey) return undefined;
  const inField = press.tag === 'INPUT' || press.tag === 'SELECT';
  switch (press.key) {
    case ' ': return inField || press.tag === 'BUTTON' ? undefined : { action: 'toggle-play' };
    case 'k': case 'K': return { action: 'toggle-play' };
    case 'm': case 'M': return { action: 'toggle-mute' };
    case 'f': case 'F': return { action: 'toggle-fullscreen' };
    case 'c': case 'C': return { action: 'toggle-captions' };
    // on the seek bar, arrows seek by 5 s as everywhere else, not by the slider's own step
    case 'ArrowLeft': case 'ArrowRight':
      return inField && !press.onSeekBar ? undefined : { action: 'seek-by', seconds: press.key === 'ArrowLeft' ? -SEEK_STEP : SEEK_STEP };
    case 'ArrowUp': case 'ArrowDown':
      return inField ? undefined : { action: 'volume-by', step: press.key === 'ArrowUp' ? VOLUME_STEP : -VOLUME_STEP };
    default: return undefined;
  }
}

/** The volume after a step, in tenths, within 0 to 1. */
export const stepVolume = (volume: number, step: number): number => Math.min(1, Math.max(0, Math.round((volume + step) * 10) / 10));
