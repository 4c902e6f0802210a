// What the embed page hands its player script (as JSON in the page): the video's media, captions
// and features as /v1/videos/{id}/playback describes them, and the options of the embed URL.
import type { PlayerErrorInfo } from './protocol.ts';

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
  readonly quality: string | undefined;
  readonly captions: string | undefined;
  /** where events go: the embedding page's origin, or any page when absent */
  readonly origin: string | undefined;
}

export interface PlayerConfig {
  readonly videoId: string;
  /** seconds, from the catalogue; 0 when unknown */
  readonly duration: number;
  /** best first */
  readonly sources: readonly PlayerSource[];
  /** the quality the player starts with, or undefined without media */
  readonly quality: string | undefined;
  /** only tracks with a WebVTT file */
  readonly captions: readonly PlayerCaptions[];
  /** whether each of the video's extras can be switched on */
  readonly features: { readonly stereo: boolean; readonly calm: boolean };
  readonly options: PlayerOptions;
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
