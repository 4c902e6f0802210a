// The SDK's embeds: `embed` puts the hosted player in an iframe, `attach` takes one already on the
// page (pasted from oEmbed, or marked `data-video-platform`); both return a Player at once, whose
// promise methods send commands over postMessage (src/player/protocol.ts) once the player is
// ready. Only messages from that iframe's window and the player's origin are heard.
import {
  IFRAME_ALLOW, isProtocolMessage, PLAYER_EVENTS, PROTOCOL, PROTOCOL_VERSION,
  type ChapterInfo, type CommandMessage, type LoadRange, type PlayerCommand, type PlayerErrorCode, type PlayerErrorInfo,
  type PlayerEventName, type PlayerMessage, type PlayerMode, type PlayerProblem, type PlayerState, type TextTrackInfo,
} from '../player/protocol.ts';
import { defaultBaseUrl } from './origin.ts';

export type { ChapterInfo, LoadRange, PlayerErrorCode, PlayerErrorInfo, PlayerEventName, PlayerMode, PlayerProblem, PlayerState, TextTrackInfo };
export { IFRAME_ALLOW, PLAYER_EVENTS };

/** A command the player refused or could not carry out, or a player that cannot play at all. */
export class PlayerError extends Error {
  override readonly name = 'PlayerError';
  readonly code: PlayerErrorCode | 'timeout' | 'destroyed';
  /**
   * The HTTP problem the player's URL was answered with instead of a player (an invalid option: 400,
   * code `bad-option`; an unknown live channel: 404, code `unavailable`): what its page shows.
   */
  readonly problem: PlayerProblem | undefined;
  constructor(code: PlayerError['code'], message: string, problem?: PlayerProblem) {
    super(message);
    this.code = code;
    this.problem = problem;
  }
}

/** The error of a player's message (`error` event, or a refused command). */
const errorOf = (info: PlayerErrorInfo) => new PlayerError(info.code, info.message, info.problem);

/** The player's options, as in the embed URL (docs/embeds.md). */
export interface PlayerUrlOptions {
  /** start playing at once (muted, as browsers require) */
  readonly autoplay?: boolean;
  /** seconds, 0 to 1000000 (a fraction is rounded down) */
  readonly start?: number;
  /** seconds, 1 to 1000000 and after `start` (a fraction is rounded up): playback stops there, as at the end */
  readonly end?: number;
  readonly loop?: boolean;
  /** false hides the control bar */
  readonly controls?: boolean;
  readonly muted?: boolean;
  /** the starting playback rate, one of 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2 */
  readonly rate?: number;
  /** false lets phones play in their own full-screen player (default true) */
  readonly playsinline?: boolean;
  /** false turns the player's keyboard shortcuts off (default true) */
  readonly keyboard?: boolean;
  /** a quality label such as `720p`: that one, or the best below it */
  readonly quality?: string;
  /** a caption language to show from the start */
  readonly captions?: string;
  /** only play videos available in restricted mode */
  readonly restricted?: boolean;
}

export interface EmbedOptions extends PlayerUrlOptions {
  readonly videoId: string;
  /** the service's origin; defaults to where the SDK was loaded from */
  readonly baseUrl?: string;
  /** CSS width and height of the iframe (default: 100% wide, 16:9) */
  readonly width?: number | string;
  readonly height?: number | string;
  /** the iframe's accessible name (default: "Video player") */
  readonly title?: string;
  /** ms to wait for a command's answer (default 10000) */
  readonly timeout?: number;
}

export interface AttachOptions {
  /** ms to wait for a command's answer, and for the player to answer at all (default 10000) */
  readonly timeout?: number;
}

export type PlayerListener = (state: PlayerState, error?: PlayerErrorInfo) => void;

export interface Player {
  readonly iframe: HTMLIFrameElement;
  /** the last state the player reported, or undefined before it is ready */
  readonly state: PlayerState | undefined;
  /**
   * Resolves when the player accepts commands. Rejects with a PlayerError as soon as the player
   * says it cannot play: `unavailable`, `restricted` or `no-media` for the video; `bad-option` (an
   * invalid option, 400) or `unavailable` (an unknown live channel, 404) when its URL was answered
   * with an error page, whose words are in the error's `message` and `problem` (status, title,
   * detail). Every command then rejects with the same error. `timeout` when the player does not
   * answer within the timeout; `destroyed` after destroy().
   */
  ready(): Promise<PlayerState>;
  play(): Promise<PlayerState>;
  pause(): Promise<PlayerState>;
  /** pauses and goes back to the start */
  stop(): Promise<PlayerState>;
  seek(seconds: number): Promise<PlayerState>;
  mute(): Promise<PlayerState>;
  unmute(): Promise<PlayerState>;
  /** 0 to 1 */
  setVolume(volume: number): Promise<PlayerState>;
  /** one of getAvailablePlaybackRates() */
  setPlaybackRate(rate: number): Promise<PlayerState>;
  setQuality(quality: string): Promise<PlayerState>;
  /** a caption language, or null for none */
  setCaptions(lang: string | null): Promise<PlayerState>;
  /** another video in this player, playing at once (muted unless the page had a user gesture) */
  load(videoId: string, range?: LoadRange): Promise<PlayerState>;
  /** another video in this player, waiting for play() */
  cue(videoId: string, range?: LoadRange): Promise<PlayerState>;
  /** full screen: call it from a click or key press handler, the browser allows it only then */
  requestFullscreen(): Promise<PlayerState>;
  exitFullscreen(): Promise<PlayerState>;
  /** picture-in-picture: the browser allows it only after a user gesture in the player */
  requestPictureInPicture(): Promise<PlayerState>;
  exitPictureInPicture(): Promise<PlayerState>;
  getState(): Promise<PlayerState>;
  getCurrentTime(): Promise<number>;
  getDuration(): Promise<number>;
  getVolume(): Promise<number>;
  isMuted(): Promise<boolean>;
  getPlaybackRate(): Promise<number>;
  getAvailablePlaybackRates(): Promise<readonly number[]>;
  getQuality(): Promise<string | null>;
  getQualities(): Promise<readonly string[]>;
  getTextTracks(): Promise<readonly TextTrackInfo[]>;
  getChapters(): Promise<readonly ChapterInfo[]>;
  on(event: PlayerEventName, listener: PlayerListener): Player;
  /** like on(), for the next such event only */
  once(event: PlayerEventName, listener: PlayerListener): Player;
  off(event: PlayerEventName, listener: PlayerListener): Player;
  /** stops listening and, for a player embed() created, removes the iframe; pending commands reject */
  destroy(): void;
}

/** The player's query string for the embed options (the same names, 1/0 for switches). */
export function embedQuery(options: PlayerUrlOptions, origin: string | undefined): string {
  const query = new URLSearchParams();
  const flag = (name: string, value: boolean | undefined) => { if (value !== undefined) query.set(name, value ? '1' : '0'); };
  flag('autoplay', options.autoplay);
  flag('muted', options.muted);
  flag('loop', options.loop);
  flag('controls', options.controls);
  flag('restricted', options.restricted);
  flag('playsinline', options.playsinline);
  flag('keyboard', options.keyboard);
  // fractions rounded outwards to the player's whole seconds; anything else (a negative, NaN, an end
  // not after start) goes as given, for the player to refuse by name (a bad-option PlayerError)
  if (options.start !== undefined) query.set('start', String(Math.floor(options.start)));
  if (options.end !== undefined) query.set('end', String(Math.ceil(options.end)));
  if (options.rate !== undefined) query.set('rate', String(options.rate));
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

  const iframe = document.createElement('iframe');
  iframe.src = `${base}/embed/${encodeURIComponent(options.videoId)}${embedQuery(options, location.origin)}`;
  iframe.title = options.title ?? 'Video player';
  iframe.allow = IFRAME_ALLOW;
  iframe.style.border = '0';
  iframe.style.width = size(options.width ?? '100%');
  if (options.height !== undefined) iframe.style.height = size(options.height);
  else iframe.style.aspectRatio = '16 / 9';
  const player = connect(iframe, new URL(base).origin, options.timeout ?? 10_000, true);
  host.appendChild(iframe);
  return player;
}

/** The iframes of this service's player under `root`: `data-video-platform`, or an `/embed/` src on `baseUrl`. */
function findPlayerFrames(root: ParentNode, base: string): HTMLIFrameElement[] {
  return Array.from(root.querySelectorAll('iframe')).filter((f) => f.hasAttribute('data-video-platform') || f.src.startsWith(`${base}/embed/`));
}

/**
 * A Player for an iframe of the hosted player already on the page (an oEmbed `html`, or one
 * marked `data-video-platform`). Without the `origin` option in its URL the player talks to any
 * page, so this works on pasted iframes as they are.
 */
export function attach(target: string | HTMLIFrameElement, options: AttachOptions = {}): Player {
  const iframe = typeof target === 'string' ? document.querySelector(target) : target;
  if (!(iframe instanceof HTMLIFrameElement)) throw new TypeError(`attach: ${String(target)} is not an iframe`);
  let origin: string;
  try {
    origin = new URL(iframe.src).origin;
  } catch {
    throw new TypeError('attach: the iframe has no player URL in src');
  }
  if (!iframe.allow.includes('fullscreen')) iframe.allow = IFRAME_ALLOW; // takes effect on its next navigation
  return connect(iframe, origin, options.timeout ?? 10_000, false);
}

/** A Player for each of this service's player iframes on the page (see attach). */
export function attachAll(root: ParentNode = document, options: AttachOptions & { baseUrl?: string } = {}): Player[] {
  const base = (options.baseUrl ?? defaultBaseUrl()).replace(/\/+$/, '');
  return findPlayerFrames(root, base).map((iframe) => attach(iframe, options));
}

function connect(iframe: HTMLIFrameElement, playerOrigin: string, timeout: number, owned: boolean): Player {
  const listeners = new Map<PlayerEventName, Set<PlayerListener>>();
  const pending = new Map<number, { resolve: (m: { state: PlayerState; data: unknown }) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> }>();
  let nextId = 1;
  let state: PlayerState | undefined;
  let destroyed = false;
  let settle!: { resolve: (s: PlayerState) => void; reject: (e: Error) => void };
  const readiness = new Promise<PlayerState>((resolve, reject) => { settle = { resolve, reject }; });
  readiness.catch(() => {}); // a player that cannot play rejects ready() and commands, not the page
  let ready = false;
  /** why this player cannot play, once it said so before being ready: every command fails with it */
  let failure: PlayerError | undefined;

  function becomeReady(current: PlayerState): void {
    if (failure) return;
    ready = true;
    settle.resolve(current);
  }

  /** The player cannot play: ready() and every command waiting or to come reject at once. */
  function fail(error: PlayerError): void {
    if (ready || failure) return;
    failure = error;
    settle.reject(error);
    for (const [, waiting] of pending) {
      clearTimeout(waiting.timer);
      waiting.reject(error);
    }
    pending.clear();
  }

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
      if (message.ok) waiting.resolve({ state: message.state, data: message.data });
      else waiting.reject(message.error ? errorOf(message.error) : new PlayerError('bad-command', 'The player refused the command.'));
      return;
    }
    if (message.event === 'ready') becomeReady(message.state);
    // before `ready`, an error says the player cannot play at all (after it, only that media failed)
    if (message.event === 'error' && message.error) fail(errorOf(message.error));
    if (message.event === 'modechange' && owned) iframe.dataset['mode'] = message.state.mode;
    dispatch(message.event, message.state, message.error);
  }

  function post(command: PlayerCommand, wait = timeout): Promise<{ state: PlayerState; data: unknown }> {
    if (destroyed) return Promise.reject(new PlayerError('destroyed', 'The player was destroyed.'));
    if (failure) return Promise.reject(failure);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new PlayerError('timeout', `The player did not answer ${command.command} within ${wait} ms.`));
      }, wait);
      pending.set(id, { resolve, reject, timer });
      const message: CommandMessage = { ...command, protocol: PROTOCOL, version: PROTOCOL_VERSION, id };
      // Full screen needs a user gesture, which the page had and the player did not: pass it on
      // (Capability Delegation; browsers without it ignore the option).
      const delegate = command.command === 'fullscreen' && command.on ? { delegate: 'fullscreen' } : {};
      iframe.contentWindow?.postMessage(message, { targetOrigin: playerOrigin, ...delegate } as WindowPostMessageOptions);
    });
  }

  const ask = async (command: PlayerCommand) => {
    await readiness;
    return post(command);
  };
  const send = async (command: PlayerCommand) => (await ask(command)).state;
  const read = async <T>(pick: (s: PlayerState) => T) => pick(await send({ command: 'state' }));

  window.addEventListener('message', onMessage);
  // The player's ready event may come before we listen (an iframe already on the page, or one that
  // loaded fast): then its answer to `state` settles readiness. A message sent while the frame
  // still holds its first blank document is lost, so ask again until an answer or the timeout.
  const deadline = Date.now() + timeout;
  const probe = () => {
    if (state || destroyed) return;
    if (Date.now() >= deadline) {
      settle.reject(new PlayerError('timeout', `The player did not answer within ${timeout} ms.`));
      return;
    }
    post({ command: 'state' }, 500).then((answer) => becomeReady(answer.state), (error: PlayerError) => {
      if (error.code === 'timeout') probe();
      else fail(error);
    });
  };
  iframe.addEventListener('load', probe);
  if (!owned) probe();

  const player: Player = {
    iframe,
    get state() { return state; },
    ready: () => readiness,
    play: () => send({ command: 'play' }),
    pause: () => send({ command: 'pause' }),
    stop: () => send({ command: 'stop' }),
    seek: (seconds) => send({ command: 'seek', time: seconds }),
    mute: () => send({ command: 'mute' }),
    unmute: () => send({ command: 'unmute' }),
    setVolume: (volume) => send({ command: 'volume', volume }),
    setPlaybackRate: (rate) => send({ command: 'rate', rate }),
    setQuality: (quality) => send({ command: 'quality', quality }),
    setCaptions: (lang) => send({ command: 'captions', lang }),
    load: (videoId, range = {}) => send({ command: 'load', videoId, ...range }),
    cue: (videoId, range = {}) => send({ command: 'cue', videoId, ...range }),
    // not after `await readiness`: the gesture the browser requires would be spent by then
    requestFullscreen: async () => (state ? post({ command: 'fullscreen', on: true }) : ask({ command: 'fullscreen', on: true })).then((a) => a.state),
    exitFullscreen: () => send({ command: 'fullscreen', on: false }),
    requestPictureInPicture: async () => (state ? post({ command: 'pip', on: true }) : ask({ command: 'pip', on: true })).then((a) => a.state),
    exitPictureInPicture: () => send({ command: 'pip', on: false }),
    getState: () => send({ command: 'state' }),
    getCurrentTime: () => read((s) => s.currentTime),
    getDuration: () => read((s) => s.duration),
    getVolume: () => read((s) => s.volume),
    isMuted: () => read((s) => s.muted),
    getPlaybackRate: () => read((s) => s.rate),
    getAvailablePlaybackRates: () => read((s) => s.rates),
    getQuality: () => read((s) => s.quality),
    getQualities: () => read((s) => s.qualities),
    getTextTracks: () => read((s) => s.textTracks),
    getChapters: async () => (await ask({ command: 'chapters' })).data as ChapterInfo[],
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      return player;
    },
    once(event, listener) {
      const once: PlayerListener = (current, error) => {
        player.off(event, once);
        listener(current, error);
      };
      return player.on(event, once);
    },
    off(event, listener) {
      listeners.get(event)?.delete(listener);
      return player;
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      window.removeEventListener('message', onMessage);
      iframe.removeEventListener('load', probe);
      for (const [, waiting] of pending) {
        clearTimeout(waiting.timer);
        waiting.reject(new PlayerError('destroyed', 'The player was destroyed.'));
      }
      pending.clear();
      listeners.clear();
      settle.reject(new PlayerError('destroyed', 'The player was destroyed.'));
      if (owned) iframe.remove();
    },
  };
  return player;
}
