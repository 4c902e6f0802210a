// What the player pages' error page (src/pages/error/player.astro) and the live player
// (src/pages/embed/live/[username].astro) tell the page embedding them, so the SDK's ready()
// rejects at once instead of timing out (docs/embeds.md, "Options"): the
// protocol's `error` event, carrying the problem the page shows (its state and error are also
// the answer to every command). Made whole on the server, so the page's script
// (announce-problem.ts) imports nothing of the player's at run time: sharing a module with the
// player's own script would split that script in two.
import { EmbedQuery } from '../api/params.ts';
import {
  PLAYBACK_RATES, PROTOCOL, PROTOCOL_VERSION, type EventMessage, type PlayerErrorInfo, type PlayerProblem, type PlayerState,
} from './protocol.ts';

export interface ProblemMessages {
  /** the `origin` option: where the event goes, and whose commands are answered; any page without it */
  readonly origin: string | undefined;
  readonly event: EventMessage & { readonly error: PlayerErrorInfo };
}

/** The words of the page, as one line: title and status, detail, and each invalid parameter when it lists several. */
export function problemMessage(problem: PlayerProblem): string {
  const listed = problem.errors && problem.errors.length > 1 ? ` (${problem.errors.map((e) => `${e.parameter}: ${e.detail}`).join('; ')})` : '';
  return `${problem.title} (HTTP ${problem.status}): ${problem.detail}${listed}`;
}

/**
 * The messages for `problem`, answered at `instance` (the request's path and query). Undefined when
 * the page must stay silent: its `origin` option is invalid or repeated, so it cannot tell which
 * page may hear it (the player without the option talks to any page; with it, to that origin only).
 */
export function problemMessages(problem: PlayerProblem, instance: string): ProblemMessages | undefined {
  return cannotPlayMessages({ code: problem.status === 400 ? 'bad-option' : 'unavailable', message: problemMessage(problem), problem }, instance);
}

/**
 * The messages of a player page that cannot play, for `error`, answered at `instance`: the error
 * page's (problemMessages), and the live player's, which shows a channel's live state and has no
 * stream to play (code `no-media`). Undefined when the page must stay silent (problemMessages).
 */
export function cannotPlayMessages(error: PlayerErrorInfo, instance: string): ProblemMessages | undefined {
  const url = new URL(instance, 'http://origin.invalid');
  const given = url.searchParams.getAll('origin');
  if (given.length > 1) return undefined;
  const origin = given[0];
  if (origin !== undefined && !EmbedQuery.shape.origin.safeParse(origin).success) return undefined;
  // `/embed/{id}`: that video, which this page will not play; a live channel or any other path: none
  const id = /^\/embed\/([^/]+)$/.exec(url.pathname)?.[1];
  let videoId = '';
  try {
    videoId = id === undefined ? '' : decodeURIComponent(id);
  } catch {
    // not a video id any page could have asked for
  }
  const state: PlayerState = {
    videoId, currentTime: 0, duration: 0, paused: true, ended: false, buffering: false, buffered: 0, muted: false, volume: 1,
    rate: 1, rates: PLAYBACK_RATES, quality: null, qualities: [], captions: null, textTracks: [], chapter: null, mode: 'inline',
  };
  return { origin, event: { protocol: PROTOCOL, version: PROTOCOL_VERSION, kind: 'event', event: 'error', state, error } };
}
