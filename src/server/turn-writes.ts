// The fast path's answers held until the event loop's turn ends, then written socket after
// socket (fast-path.ts). One turn reads the requests of every connection that has one; answering
// each at once wrote each with a writev of its own while the client, between two of them, had
// time to go to sleep in epoll_wait: each answer paid a wake-up of the client's thread (on this
// machine's 2 cores, a tenth of the server's CPU time in a bench:mix run, all of it inside writev:
// docs/performance.md, "The fast path's long tail, tenth round"). Written together at the end of
// the turn (setImmediate runs right after the poll phase that read them), the answers of one turn
// find the client awake after the first. An answer waits only for the other answers of its turn,
// never for more input: a socket's writes leave in the same turn as the request that asked. And
// not for long: a turn of many first answers (about a millisecond each) writes what it holds once
// HOLD_MS have passed since it began holding, so an early answer does not wait for fifty others.

import type { Socket } from 'node:net';

/** The longest the first answer held in a turn waits for the turn's others, in ms. */
export const HOLD_MS = 1;

export interface TurnWrites {
  /** Holds what is written to `socket` from now until the turn ends (socket.cork, once a turn). */
  hold(socket: Socket): void;
  /** Writes what `socket` holds now (before another layer writes to it: the hand-off to node:http). */
  release(socket: Socket): void;
}

export function createTurnWrites(options: { now?: () => number } = {}): TurnWrites {
  const now = options.now ?? performance.now.bind(performance);
  const held = new Set<Socket>();
  let scheduled = false;
  /** when the first socket held now was held */
  let since = 0;
  const write = () => {
    // a socket ended or destroyed meanwhile has written or dropped what it held: uncork is a no-op then
    for (const socket of held) socket.uncork();
    held.clear();
  };
  const flush = () => {
    scheduled = false;
    write();
  };
  return {
    hold(socket) {
      if (held.size > 0 && now() - since >= HOLD_MS) write();
      if (held.has(socket)) return;
      if (held.size === 0) since = now();
      socket.cork();
      held.add(socket);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    release(socket) {
      if (held.delete(socket)) socket.uncork();
    },
  };
}
