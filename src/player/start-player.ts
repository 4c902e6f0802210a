// The embed page's script: reads the config the page holds (config.ts) and starts the player on
// its <video>; for a video that cannot play, answers every command with the reason instead.
import type { PlayerConfig } from './config.ts';
import { openChannel } from './messaging.ts';
import { PlayerError } from './player-error.ts';
import { describeIdleState } from './player-state.ts';
import { createPlayer } from './player.ts';

const config = JSON.parse(document.getElementById('player-config')?.textContent ?? 'null') as PlayerConfig;
const root = document.querySelector<HTMLElement>('.player');
const video = root?.querySelector('video');

if (root && video && !config.unavailable) {
  createPlayer(root, video, config);
} else {
  const reason = config.unavailable ?? { code: 'no-media', message: 'This video has no playable media.' } as const;
  const state = () => describeIdleState(config);
  const channel = openChannel(window, config.options.origin, { answer: () => Promise.reject(new PlayerError(reason)), state });
  channel.emit('error', state(), reason);
}
