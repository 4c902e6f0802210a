// The SDK's embed: puts the hosted player in an iframe and returns a Player at once, whose promise
// methods send commands over postMessage (src/player/protocol.ts) once the player is ready. Only
// messages from that iframe's window and the player's origin are heard.
import {
  isProtocolMessage, PROTOCOL, PROTOCOL_VERSION,
  type CommandMessage, type PlayerCommand, type PlayerErrorCode, type PlayerErrorInfo, type PlayerEventName,
  type PlayerMessage, type PlayerState,
} from '../player/protocol.ts';
import { defaultBaseUrl } from './origin.ts';

export type { PlayerErrorCode, PlayerEventName, PlayerState };

/** A command the player refused or could not carry out, or a player that cannot play at all. */
export class PlayerError extends Error {
  override readonly name = 'PlayerError';
  readonly code: PlayerErrorCode | 'timeout' | 'destroyed';
  constructor(code: PlayerError['code'], message: string) {
    super(message);
    this.code = code;
  }
}

export interface EmbedOptions {
  readonly videoId: string;
  /** the service's origin; defaults to where the SDK was loaded from */
  readonly baseUrl?: string;
  /** CSS width and height of the iframe (default: 100% wide, 16:9) */
  readonly width?: number | string;
  readonly height?: number | string;
  /** start playing at once (muted, as browsers require) */
  readonly autoplay?: boolean;
  /** seconds */
  readonly start?: number;
  readonly loop?: boolean;
  /** false hides the control bar */
  readonly controls?: boolean;
  readonly muted?: boolean;
  /** a quality label such as `720p`: that one, or the best below it */
  readonly quality?: string;
  /** a caption language to show from the start */
  readonly captions?: string;
  /** only play videos available in restricted mode */
  readonly restricted?: boolean;
  /** the iframe's accessible name (default: "Video player") */
  readonly title?: string;
  /** ms to wait for a command's answer (default 10000) */
  readonly timeout?: number;
}

export type PlayerListener = (state: PlayerState, error?: PlayerErrorInfo) => void;

export interface Player {
  readonly iframe: HTMLIFrameElement;
  /** the last state the player reported, or undefined before it is ready */
  readonly state: PlayerState | undefined;
  /** resolves when the player accepts commands; rejects when it cannot play (unknown video...) */
  ready(): Promise<PlayerState>;
  play(): Promise<PlayerState>;
  pause(): Promise<PlayerState>;
  seek(seconds: number): Promise<PlayerState>;
  mute(): Promise<PlayerState>;
  unmute(): Promise<PlayerState>;
  /** 0 to 1 */
  setVolume(volume: number): Promise<PlayerState>;
  setQuality(quality: string): Promise<PlayerState>;
  /** a caption language, or null for none */
  setCaptions(lang: string | null): Promise<PlayerState>;
  getState(): Promise<PlayerState>;
  getCurrentTime(): Promise<number>;
  getDuration(): Promise<number>;
  getVolume(): Promise<number>;
  isMuted(): Promise<boolean>;
  getQuality(): Promise<string | null>;
  on(event: PlayerEventName, listener: PlayerListener): Player;
  off(event: PlayerEventName, listener: PlayerListener): Player;
  /** removes the iframe and stops listening; pending commands reject */
  destroy(): void;
}

/** The player's query string for the embed options (the same names, 1/0 for switches). */
export function embedQuery(options: EmbedOptions, origin: string | undefined): string {
  const query = new URLSearchParams();
  const flag = (name: string, value: boolean | undefined) => { if (value !== undefined) query.set(name, value ? '1' : '0'); };
  flag('autoplay', options.autoplay);
  flag('muted', options.muted);
  flag('loop', options.loop);
  flag('controls', options.controls);
  flag('restricted', options.restricted);
  if (options.start !== undefined) query.set('start', String(Math.max(0, Math.floor(options.start))));
  if (options.quality !== undefined) query.set('quality', options.quality);
  if (options.captions !== undefined) query.set('captions', options.captions);
  if (origin !== undefined && /^https?:/.test(origin)) query.set('origin', origin);
  return query.size > 0 ? `?${query}` : '';
}

const size = (value: number | string) => (typeof value === 'number' ? `${value}px` : value);

export function embed(target: string | Element, options: EmbedOptions): Player {
  const host = typeof target === 'string' ? document.querySelector(target) : target;
  if (!host) throw new TypeError(`embed: no element matches ${String(target)}`);
  if (!options || typeof options.videoId !== 'string' || options.videoId === '') throw new TypeError('embed: videoId is required');
  const base = (options.baseUrl ?? defaultBaseUrl()).replace(/\/+$/, '');
  const playerOrigin = new URL(base).origin;
  const timeout = options.timeout ?? 10_000;

  const iframe = document.createElement('iframe');
  iframe.src = `${base}/embed/${encodeURIComponent(options.videoId)}${embedQuery(options, location.origin)}`;
  iframe.title = options.title ?? 'Video player';
  iframe.allow = 'autoplay; fullscreen; picture-in-picture; encrypted-media';
  iframe.allowFullscreen = true;
  iframe.style.border = '0';
  iframe.style.width = size(options.width ?? '100%');
  if (options.height !== undefined) iframe.style.height = size(options.height);
  else iframe.style.aspectRatio = '16 / 9';

  const listeners = new Map<PlayerEventName, Set<PlayerListener>>();
  const pending = new Map<number, { resolve: (s: PlayerState) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> }>();
  let nextId = 1;
  let state: PlayerState | undefined;
  let destroyed = false;
  let settle: { resolve: (s: PlayerState) => void; reject: (e: Error) => void };
  const readiness = new Promise<PlayerState>((resolve, reject) => { settle = { resolve, reject }; });
  readiness.catch(() => {}); // a player that cannot play rejects ready() and commands, not the page

  function dispatch(event: PlayerEventName, current: PlayerState, error?: PlayerErrorInfo): void {
    for (const listener of [...(listeners.get(event) ?? [])]) {
      try {
        listener(current, error);
      } catch (thrown) {
        setTimeout(() => { throw thrown; }); // a listener's error is the page's, reported as such
      }
    }
  }

  function onMessage(event: MessageEvent): void {
    if (event.source !== iframe.contentWindow || event.origin !== playerOrigin || !isProtocolMessage(event.data)) return;
    const message = event.data as PlayerMessage;
    state = message.state;
    if (message.kind === 'response') {
      const waiting = pending.get(message.id);
      if (!waiting) return;
      pending.delete(message.id);
      clearTimeout(waiting.timer);
      if (message.ok) waiting.resolve(message.state);
      else waiting.reject(new PlayerError(message.error?.code ?? 'bad-command', message.error?.message ?? 'The player refused the command.'));
      return;
    }
    if (message.event === 'ready') settle.resolve(message.state);
    if (message.event === 'error' && message.error) settle.reject(new PlayerError(message.error.code, message.error.message));
    if (message.event === 'modechange') iframe.dataset['mode'] = message.state.mode;
    dispatch(message.event, message.state, message.error);
  }

  function post(command: PlayerCommand): Promise<PlayerState> {
    if (destroyed) return Promise.reject(new PlayerError('destroyed', 'The player was destroyed.'));
    const id = nextId++;
    return new Promise<PlayerState>((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new PlayerError('timeout', `The player did not answer ${command.command} within ${timeout} ms.`));
      }, timeout);
      pending.set(id, { resolve, reject, timer });
      const message: CommandMessage = { ...command, protocol: PROTOCOL, version: PROTOCOL_VERSION, id };
      iframe.contentWindow?.postMessage(message, playerOrigin);
    });
  }

  const send = async (command: PlayerCommand) => {
    await readiness;
    return post(command);
  };

  window.addEventListener('message', onMessage);
  // Should the player's ready event come before we listen, its answer to `state` settles readiness.
  iframe.addEventListener('load', () => {
    if (!state && !destroyed) post({ command: 'state' }).then((s) => settle.resolve(s), (e: Error) => settle.reject(e));
  });
  host.appendChild(iframe);

  const player: Player = {
    iframe,
    get state() { return state; },
    ready: () => readiness,
    play: () => send({ command: 'play' }),
    pause: () => send({ command: 'pause' }),
    seek: (seconds) => send({ command: 'seek', time: seconds }),
    mute: () => send({ command: 'mute' }),
    unmute: () => send({ command: 'unmute' }),
    setVolume: (volume) => send({ command: 'volume', volume }),
    setQuality: (quality) => send({ command: 'quality', quality }),
    setCaptions: (lang) => send({ command: 'captions', lang }),
    getState: () => send({ command: 'state' }),
    getCurrentTime: async () => (await send({ command: 'state' })).currentTime,
    getDuration: async () => (await send({ command: 'state' })).duration,
    getVolume: async () => (await send({ command: 'state' })).volume,
    isMuted: async () => (await send({ command: 'state' })).muted,
    getQuality: async () => (await send({ command: 'state' })).quality,
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      return player;
    },
    off(event, listener) {
      listeners.get(event)?.delete(listener);
      return player;
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      window.removeEventListener('message', onMessage);
      for (const [, waiting] of pending) {
        clearTimeout(waiting.timer);
        waiting.reject(new PlayerError('destroyed', 'The player was destroyed.'));
      }
      pending.clear();
      listeners.clear();
      settle.reject(new PlayerError('destroyed', 'The player was destroyed.'));
      iframe.remove();
    },
  };
  return player;
}
