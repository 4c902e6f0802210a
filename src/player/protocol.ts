// The postMessage protocol between the hosted player (/embed/{id}) and the page embedding it
// (docs/embeds.md). Shared by the player script and the SDK; types only, plus a few constants,
// so neither bundle grows.
//
// Page → player: a command, with an id the player answers with a response to that page only.
// Player → page: responses, and events, each carrying the player's whole state.

export const PROTOCOL = 'video-platform';
export const PROTOCOL_VERSION = 1;

/**
 * What an iframe of the player may do (its `allow` attribute): autoplay (muted), full screen,
 * picture-in-picture. No `allowfullscreen` beside it: `fullscreen` here says it, and Chromium
 * warns when both are set.
 */
export const IFRAME_ALLOW = 'autoplay; fullscreen; picture-in-picture; encrypted-media';

/** The playback rates the player offers (the `rate` option, `setPlaybackRate`), slowest first. */
export const PLAYBACK_RATES = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2] as const;
export type PlaybackRate = (typeof PLAYBACK_RATES)[number];

export type PlayerMode = 'inline' | 'theater' | 'fullscreen' | 'pip';

/** A caption track the player can show. */
export interface TextTrackInfo {
  /** a language tag, the value `setCaptions` takes */
  readonly lang: string;
  readonly label: string;
}

/** A chapter of the video: from `start` to the next chapter's start (or the end). */
export interface ChapterInfo {
  /** seconds */
  readonly start: number;
  readonly title: string;
}

/** What the player is doing, sent with every event and response. */
export interface PlayerState {
  readonly videoId: string;
  /** seconds */
  readonly currentTime: number;
  /** seconds; the catalogue's duration until the media says otherwise, 0 when neither knows */
  readonly duration: number;
  readonly paused: boolean;
  readonly ended: boolean;
  /** waiting for data: playback stalled until more media arrives */
  readonly buffering: boolean;
  /** the fraction of the media downloaded ahead of the position, 0 to 1 */
  readonly buffered: number;
  readonly muted: boolean;
  /** 0 to 1 */
  readonly volume: number;
  /** the playback rate (1 is normal speed) */
  readonly rate: number;
  readonly rates: readonly number[];
  /** the playing quality's label (`480p`), or null without media */
  readonly quality: string | null;
  readonly qualities: readonly string[];
  /** the language of the captions shown, or null */
  readonly captions: string | null;
  readonly textTracks: readonly TextTrackInfo[];
  /** the index of the chapter playing (in `getChapters()`), or null: no chapters, or before the first */
  readonly chapter: number | null;
  readonly mode: PlayerMode;
}

/** Where to start and stop a video that `load` or `cue` puts in the player, in seconds. */
export interface LoadRange {
  readonly start?: number;
  readonly end?: number;
}

export type PlayerCommand =
  | { readonly command: 'play' }
  | { readonly command: 'pause' }
  /** pauses and goes back to the start (or the `start` option) */
  | { readonly command: 'stop' }
  | { readonly command: 'seek'; readonly time: number }
  | { readonly command: 'mute' }
  | { readonly command: 'unmute' }
  | { readonly command: 'volume'; readonly volume: number }
  | { readonly command: 'rate'; readonly rate: number }
  | { readonly command: 'quality'; readonly quality: string }
  | { readonly command: 'captions'; readonly lang: string | null }
  /** another video in this player, playing at once (`load`) or waiting for play (`cue`) */
  | ({ readonly command: 'load' | 'cue'; readonly videoId: string } & LoadRange)
  /** asks the browser for full screen or picture-in-picture (or leaves it, `on: false`) */
  | { readonly command: 'fullscreen' | 'pip'; readonly on: boolean }
  /** answers with the chapters in `data` */
  | { readonly command: 'chapters' }
  /** answers with the state and changes nothing */
  | { readonly command: 'state' };

export type CommandName = PlayerCommand['command'];

export type CommandMessage = PlayerCommand & {
  readonly protocol: typeof PROTOCOL;
  readonly version: typeof PROTOCOL_VERSION;
  readonly id: number;
};

export const PLAYER_EVENTS = [
  'ready', 'loaded', 'play', 'playing', 'pause', 'ended', 'timeupdate', 'progress', 'waiting', 'seeking', 'seeked',
  'durationchange', 'ratechange', 'error', 'autoplayblocked', 'qualitychange', 'volumechange', 'captionschange',
  'chapterchange', 'modechange',
] as const;

export type PlayerEventName = (typeof PLAYER_EVENTS)[number];

/**
 * Why something failed: `unavailable` (no such public or unlisted video), `restricted` (not
 * available in restricted mode), `no-media` (the catalogue has no media for it), `media` (the
 * media failed to load or decode), `play-blocked` (the browser refused to start playback, as
 * autoplay with sound is), `not-allowed` (full screen or picture-in-picture refused: no user
 * gesture, or not allowed in this frame), `bad-command` (unknown command or an invalid argument),
 * `bad-option` (the embed URL has an invalid option: the player page is a 400 error page).
 */
export type PlayerErrorCode = 'unavailable' | 'restricted' | 'no-media' | 'media' | 'play-blocked' | 'not-allowed' | 'bad-command' | 'bad-option';

/**
 * The HTTP problem (RFC 9457) a player URL was answered with instead of a player: an invalid
 * option (400), an unknown live channel (404). The words its error page shows.
 */
export interface PlayerProblem {
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  /** each invalid parameter, with what is wrong with it */
  readonly errors?: readonly { readonly parameter: string; readonly detail: string }[];
}

export interface PlayerErrorInfo {
  readonly code: PlayerErrorCode;
  readonly message: string;
  /** when the player URL was answered with an error page instead of the player */
  readonly problem?: PlayerProblem;
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
  /** what a query command asked for (`chapters`: ChapterInfo[]) */
  readonly data?: unknown;
}

export type PlayerMessage = EventMessage | ResponseMessage;

/** Whether a message event's data is this protocol's (any version-1 message). */
export const isProtocolMessage = (data: unknown): data is { protocol: typeof PROTOCOL; version: number } =>
  typeof data === 'object' && data !== null && (data as { protocol?: unknown }).protocol === PROTOCOL
  && (data as { version?: unknown }).version === PROTOCOL_VERSION;
