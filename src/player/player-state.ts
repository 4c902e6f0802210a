// The state of a player that has nothing to play (an unavailable video): what the config says.
import { qualityLabels, type PlayerConfig } from './config.ts';
import { PLAYBACK_RATES, type PlayerState } from './protocol.ts';

export function describeIdleState(config: PlayerConfig): PlayerState {
  return {
    videoId: config.videoId, currentTime: 0, duration: config.duration, paused: true, ended: false, buffering: false, buffered: 0,
    muted: config.options.muted || config.options.autoplay, volume: 1, rate: 1, rates: PLAYBACK_RATES, quality: config.quality ?? null,
    qualities: qualityLabels(config), captions: null, textTracks: config.captions.map(({ lang, label }) => ({ lang, label })),
    chapter: null, mode: 'inline',
  };
}
