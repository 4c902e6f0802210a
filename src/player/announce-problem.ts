// The script of the player pages' error page (src/pages/error/player.astro): tells the embedding
// page that this player cannot play and why, and answers every command with that reason, as the
// player of an unavailable video does. The messages come whole from the page (problem-event.ts);
// the rules are the player's channel's (messaging.ts), written again here because a module shared
// with the player's script would split that script in two: events to the parent only (to the
// `origin` option when given), commands heard only from that origin, each answered to its sender.
import type { ProblemMessages } from './problem-event.ts';
import type { ResponseMessage } from './protocol.ts';

const messages = JSON.parse(document.getElementById('player-problem')?.textContent ?? 'null') as ProblemMessages | null;
if (messages) {
  const { origin, event } = messages;
  addEventListener('message', (received: MessageEvent) => {
    const data: unknown = received.data;
    if (typeof data !== 'object' || data === null || !received.source) return;
    const command = data as { protocol?: unknown; version?: unknown; command?: unknown; id?: unknown };
    if (command.protocol !== event.protocol || command.version !== event.version || typeof command.command !== 'string') return;
    if (origin !== undefined && received.origin !== origin) return;
    const response: ResponseMessage = {
      protocol: event.protocol, version: event.version, kind: 'response', id: Number(command.id), ok: false, state: event.state, error: event.error,
    };
    (received.source as Window).postMessage(response, received.origin === 'null' ? '*' : received.origin);
  });
  if (parent !== window) parent.postMessage(event, origin ?? '*');
}
