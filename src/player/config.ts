// What the embed page hands its player script (as JSON in the page): the video's media, captions,
// chapters and features as /v1/videos/{id} and its /playback describe them, and the options of the
// embed URL. buildPlayerConfig is the one place that turns those resources into a config: the page
// runs it on the server, the player in the browser when `load` or `cue` brings another video.
import type { Playback } from '../model/schemas.ts';
import type { ChapterInfo, PlayerErrorInfo } from './protocol.ts';

export interface PlayerSource {
  readonly url: string;
  readonly type: string;
  /** `480p` */
  readonly quality: string;
  readonly height: number;
}

export interface PlayerCaptions {
  readonly lang: string;
  readonly label: string;
  readonly url: string;
}

export interface PlayerOptions {
  readonly autoplay: boolean;
  readonly muted: boolean;
  readonly loop: boolean;
  readonly controls: boolean;
  readonly restricted: boolean;
  /** seconds */
  readonly start: number;
  /** seconds: playback stops there, as at the end; undefined plays to the end */
  readonly end: number | undefined;
  /** the starting playback rate, one of PLAYBACK_RATES */
  readonly rate: number;
  /** false lets a phone browser play full screen only (iOS without `playsinline`) */
  readonly playsinline: boolean;
  /** false turns the keyboard shortcuts off (the controls still work from the keyboard) */
  readonly keyboard: boolean;
  readonly quality: string | undefined;
  readonly captions: string | undefined;
  /** where events go: the embedding page's origin, or any page when absent */
  readonly origin: string | undefined;
}

export interface PlayerConfig {
  readonly videoId: string;
  readonly title: string;
  readonly poster: string | undefined;
  /** seconds, from the catalogue; 0 when unknown */
  readonly duration: number;
  /** best first */
  readonly sources: readonly PlayerSource[];
  /** the quality the player starts with, or undefined without media */
  readonly quality: string | undefined;
  /** only tracks with a WebVTT file */
  readonly captions: readonly PlayerCaptions[];
  /** sorted by start, each inside the duration (docs/catalogue.md) */
  readonly chapters: readonly ChapterInfo[];
  /** whether each of the video's extras can be switched on */
  readonly features: { readonly stereo: boolean; readonly calm: boolean };
  readonly options: PlayerOptions;
  /** the service's origin, where the player asks for another video's resources */
  readonly base: string;
  /** why nothing can play, when nothing can */
  readonly unavailable: PlayerErrorInfo | undefined;
}

/** The quality to start with: the one asked for, else the best below it, else the default. */
export function startingQuality(sources: readonly PlayerSource[], asked: string | undefined, fallback: string | undefined): string | undefined {
  if (asked !== undefined) {
    const height = Number.parseInt(asked, 10);
    const fit = sources.find((s) => s.height <= height);
    if (fit) return fit.quality;
  }
  return fallback ?? sources[0]?.quality;
}

/** The parts of the video resource the player uses. */
export interface PlayerVideoFacts {
  readonly title: string;
  readonly thumbnailUrl: string;
  readonly duration?: number | undefined;
  readonly chapters?: readonly ChapterInfo[] | undefined;
}

export interface PlayerConfigInput {
  readonly videoId: string;
  /** undefined: no such public or unlisted video */
  readonly video: PlayerVideoFacts | undefined;
  readonly playback: Playback | undefined;
  readonly options: PlayerOptions;
  readonly base: string;
}

export function buildPlayerConfig({ videoId, video, playback, options, base }: PlayerConfigInput): PlayerConfig {
  const sameOrigin = (url: string) => url.startsWith(`${base}/`);
  const sources = playback?.sources ?? [];
  const unavailable: PlayerErrorInfo | undefined =
    !video || !playback ? { code: 'unavailable', message: 'This video is unavailable: it does not exist or is private.' }
    : options.restricted && !playback.restrictedMode.available ? { code: 'restricted', message: 'This video is not available in restricted mode.' }
    : sources.length === 0 ? { code: 'no-media', message: 'This video has no playable media yet.' }
    : undefined;
  // A caption file on another origin loads only if the media is fetched with CORS too, which a media
  // host may not allow: the player offers the tracks it can load for certain, those on its own origin.
  const captions = (playback?.captions ?? []).flatMap((c) => (c.url === undefined || !sameOrigin(c.url) ? [] : [{ lang: c.lang, label: c.label, url: c.url }]));
  return {
    videoId,
    title: video?.title ?? 'Video unavailable',
    poster: video?.thumbnailUrl,
    duration: video?.duration ?? 0,
    sources,
    quality: startingQuality(sources, options.quality, playback?.defaultQuality),
    captions,
    chapters: video?.chapters ?? [],
    features: {
      stereo: playback?.['3d'].available === true,
      // Calm audio runs the sound through Web Audio, which hears media from other origins only with CORS.
      calm: playback?.calmAudio.available === true && sources.every((s) => sameOrigin(s.url)),
    },
    options,
    base,
    unavailable,
  };
}

/** The distinct quality labels, best first. */
export const qualityLabels = (config: PlayerConfig): string[] => [...new Set(config.sources.map((s) => s.quality))];
