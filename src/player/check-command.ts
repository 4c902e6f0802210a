// Checks a command from the embedding page against what this player can do, before anything
// changes: a command is carried out whole or refused with `bad-command` naming what is wrong.
import { badCommand } from './player-error.ts';
import { PLAYBACK_RATES, type PlayerCommand } from './protocol.ts';

/** What the player offers right now. */
export interface CommandContext {
  readonly qualities: readonly string[];
  readonly captions: readonly string[];
}

/** The longest video id `load` and `cue` accept (as the API's id parameters). */
const MAX_ID_LENGTH = 200;

const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

function checkRange(start: unknown, end: unknown): { start?: number; end?: number } {
  if (start !== undefined && !isTime(start)) throw badCommand('start needs a time in seconds, 0 or more');
  if (end !== undefined && !isTime(end)) throw badCommand('end needs a time in seconds, 0 or more');
  if (start !== undefined && end !== undefined && end <= start) throw badCommand('end must come after start');
  return { ...(start !== undefined && { start }), ...(end !== undefined && { end }) };
}

/** The command as the player will run it, or a PlayerError thrown with `bad-command`. */
export function checkCommand(message: Readonly<Record<string, unknown>>, context: CommandContext): PlayerCommand {
  const command = message['command'];
  switch (command) {
    case 'play': case 'pause': case 'stop': case 'mute': case 'unmute': case 'state': case 'chapters':
      return { command };
    case 'seek': {
      const time = message['time'];
      if (!isTime(time)) throw badCommand('seek needs a time in seconds, 0 or more');
      return { command, time };
    }
    case 'volume': {
      const volume = message['volume'];
      if (typeof volume !== 'number' || !(volume >= 0 && volume <= 1)) throw badCommand('volume needs a number from 0 to 1');
      return { command, volume };
    }
    case 'rate': {
      const rate = message['rate'];
      if (!PLAYBACK_RATES.some((r) => r === rate)) throw badCommand(`rate must be one of ${PLAYBACK_RATES.join(', ')}`);
      return { command, rate: rate as number };
    }
    case 'quality': {
      const quality = message['quality'];
      if (typeof quality !== 'string' || !context.qualities.includes(quality)) {
        throw badCommand(context.qualities.length === 0 ? 'this video has no media' : `quality must be one of ${context.qualities.join(', ')}`);
      }
      return { command, quality };
    }
    case 'captions': {
      const lang = message['lang'];
      if (lang !== null && (typeof lang !== 'string' || !context.captions.includes(lang))) {
        throw badCommand(context.captions.length === 0 ? 'this video has no caption files' : `captions must be null or one of ${context.captions.join(', ')}`);
      }
      return { command, lang };
    }
    case 'load': case 'cue': {
      const videoId = message['videoId'];
      if (typeof videoId !== 'string' || videoId === '' || videoId.length > MAX_ID_LENGTH) throw badCommand(`${command} needs a videoId of 1 to ${MAX_ID_LENGTH} characters`);
      return { command, videoId, ...checkRange(message['start'], message['end']) };
    }
    case 'fullscreen': case 'pip': {
      const on = message['on'];
      if (typeof on !== 'boolean') throw badCommand(`${command} needs on: true or false`);
      return { command, on };
    }
    default:
      throw badCommand(`unknown command ${JSON.stringify(command) ?? 'undefined'}`);
  }
}
