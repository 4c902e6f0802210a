// The postMessage protocol between the hosted player (/embed/{id}) and the page embedding it
// (docs/embeds.md). Shared by the player script and the SDK; types only, plus a few constants,
// so neither bundle grows.
//
// Page → player: a command, with an id the player answers with a response to that page only.
// Player → page: responses, and events, each carrying the player's whole state.

export const PROTOCOL = 'video-platform';
export const PROTOCOL_VERSION = 1;

export type PlayerMode = 'inline' | 'theater' | 'fullscreen' | 'pip';

/** What the player is doing, sent with every event and response. */
export interface PlayerState {
  readonly videoId: string;
  /** seconds */
  readonly currentTime: number;
  /** seconds; the catalogue's duration until the media says otherwise, 0 when neither knows */
  readonly duration: number;
  readonly paused: boolean;
  readonly ended: boolean;
  readonly muted: boolean;
  /** 0 to 1 */
  readonly volume: number;
  /** the playing quality's label (`480p`), or null without media */
  readonly quality: string | null;
  readonly qualities: readonly string[];
  /** the language of the captions shown, or null */
  readonly captions: string | null;
  readonly mode: PlayerMode;
}

export type PlayerCommand =
  | { readonly command: 'play' }
  | { readonly command: 'pause' }
  | { readonly command: 'seek'; readonly time: number }
  | { readonly command: 'mute' }
  | { readonly command: 'unmute' }
  | { readonly command: 'volume'; readonly volume: number }
  | { readonly command: 'quality'; readonly quality: string }
  | { readonly command: 'captions'; readonly lang: string | null }
  /** answers with the state and changes nothing */
  | { readonly command: 'state' };

export type CommandName = PlayerCommand['command'];

export type CommandMessage = PlayerCommand & {
  readonly protocol: typeof PROTOCOL;
  readonly version: typeof PROTOCOL_VERSION;
  readonly id: number;
};

export type PlayerEventName =
  | 'ready' | 'play' | 'pause' | 'ended' | 'timeupdate' | 'seeked' | 'error'
  | 'qualitychange' | 'volumechange' | 'captionschange' | 'modechange';

export const PLAYER_EVENTS: readonly PlayerEventName[] = [
  'ready', 'play', 'pause', 'ended', 'timeupdate', 'seeked', 'error',
  'qualitychange', 'volumechange', 'captionschange', 'modechange',
];

/**
 * Why something failed: `unavailable` (no such public or unlisted video), `restricted` (not
 * available in restricted mode), `no-media` (the catalogue has no media for it), `media` (the
 * media failed to load or decode), `play-blocked` (the browser refused to start playback, as
 * autoplay with sound is), `bad-command` (unknown command or an invalid argument).
 */
export type PlayerErrorCode = 'unavailable' | 'restricted' | 'no-media' | 'media' | 'play-blocked' | 'bad-command';

export interface PlayerErrorInfo {
  readonly code: PlayerErrorCode;
  readonly message: string;
}

export interface EventMessage {
  readonly protocol: typeof PROTOCOL;
  readonly version: typeof PROTOCOL_VERSION;
  readonly kind: 'event';
  readonly event: PlayerEventName;
  readonly state: PlayerState;
  /** with `error` events */
  readonly error?: PlayerErrorInfo;
}

export interface ResponseMessage {
  readonly protocol: typeof PROTOCOL;
  readonly version: typeof PROTOCOL_VERSION;
  readonly kind: 'response';
  readonly id: number;
  readonly ok: boolean;
  readonly state: PlayerState;
  readonly error?: PlayerErrorInfo;
}

export type PlayerMessage = EventMessage | ResponseMessage;

/** Whether a message event's data is this protocol's (any version-1 message). */
export const isProtocolMessage = (data: unknown): data is { protocol: typeof PROTOCOL; version: number } =>
  typeof data === 'object' && data !== null && (data as { protocol?: unknown }).protocol === PROTOCOL
  && (data as { version?: unknown }).version === PROTOCOL_VERSION;
