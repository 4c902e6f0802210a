// A command the player refused or could not carry out, with the protocol's error facts.
import type { PlayerErrorInfo } from './protocol.ts';

export class PlayerError extends Error {
  readonly info: PlayerErrorInfo;
  constructor(info: PlayerErrorInfo) {
    super(info.message);
    this.info = info;
  }
}

export const badCommand = (message: string): PlayerError => new PlayerError({ code: 'bad-command', message });
