// The player's side of the postMessage protocol (protocol.ts): events to the embedding page, and
// commands from it answered to the window and origin that sent them only.
import { PlayerError } from './player-error.ts';
import {
  isProtocolMessage, PROTOCOL, PROTOCOL_VERSION,
  type EventMessage, type PlayerErrorInfo, type PlayerEventName, type PlayerState, type ResponseMessage,
} from './protocol.ts';

export interface PlayerChannel {
  emit(event: PlayerEventName, state: PlayerState, error?: PlayerErrorInfo): void;
  close(): void;
}

export interface ChannelHandlers {
  /** carries out a command (the message's fields) and resolves with what a query asked for */
  answer(message: Readonly<Record<string, unknown>>): Promise<unknown>;
  state(): PlayerState;
}

/** Opens the channel with the embedding page; `origin` (the embed option) restricts both ways. */
export function openChannel(win: Window, origin: string | undefined, handlers: ChannelHandlers): PlayerChannel {
  const onMessage = (event: MessageEvent) => {
    const data: unknown = event.data;
    if (!isProtocolMessage(data) || typeof (data as { command?: unknown }).command !== 'string' || !event.source) return;
    // With an `origin` option, only that page may steer the player or read its state.
    if (origin !== undefined && event.origin !== origin) return;
    const message = data as unknown as Readonly<Record<string, unknown>>;
    const reply = (error?: PlayerErrorInfo, result?: unknown) => {
      const response: ResponseMessage = {
        protocol: PROTOCOL, version: PROTOCOL_VERSION, kind: 'response', id: Number(message['id']), ok: !error,
        state: handlers.state(), ...(error && { error }), ...(result !== undefined && { data: result }),
      };
      // only the page that asked hears the answer
      (event.source as Window).postMessage(response, event.origin === 'null' ? '*' : event.origin);
    };
    let answered: Promise<unknown>;
    try {
      answered = handlers.answer(message);
    } catch (error) {
      answered = Promise.reject(error);
    }
    answered.then((result) => reply(undefined, result), (error: unknown) => reply(error instanceof PlayerError ? error.info : { code: 'bad-command', message: String(error) }));
  };
  win.addEventListener('message', onMessage);
  return {
    emit(event, state, error) {
      if (win.parent === win) return;
      const message: EventMessage = { protocol: PROTOCOL, version: PROTOCOL_VERSION, kind: 'event', event, state, ...(error && { error }) };
      win.parent.postMessage(message, origin ?? '*');
    },
    close: () => win.removeEventListener('message', onMessage),
  };
}
