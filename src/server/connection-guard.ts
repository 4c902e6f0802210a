// Guards the front's connections against slow and greedy clients (docs/reliability.md, "HTTP
// front"): at most `perClient` open connections per client address (an IPv6 address counts by its
// /64, what one subscriber is usually given), and a deadline for each request head, from its first
// byte (or from the connection's opening, for the first) to its last, whoever reads it — the fast
// path, or node:http after the hand-off until node:http has read the head (node:http's own
// headersTimeout and requestTimeout take over from there, for the body and later requests).

import type { Socket } from 'node:net';

export interface ConnectionGuard {
  /** Counts a new connection against its address; false when the address already holds `perClient`. */
  admit(socket: Socket): boolean;
  /** The head now being read on this socket started at `since` (ms, Date.now()). */
  startHead(socket: Socket, since: number): void;
  /** The socket's head has been read (or the socket is idle between requests). */
  endHead(socket: Socket): void;
  /** Stops the deadline checks. */
  close(): void;
}

export interface GuardOptions {
  /** open connections allowed per client address; 0 for no limit */
  readonly perClient: number;
  /** how long a request head may take to arrive, in ms */
  readonly headTimeoutMs: number;
  /** called once for a socket whose head missed its deadline */
  readonly onHeadTimeout: (socket: Socket) => void;
}

/** The groups of an IPv6 address, `::` expanded; undefined when it is not one. */
function ipv6Groups(address: string): string[] | undefined {
  if (!address.includes(':')) return undefined;
  const [left, right] = address.split('::') as [string, string | undefined];
  const head = left === '' ? [] : left.split(':');
  const tail = right === undefined || right === '' ? [] : right.split(':');
  const missing = 8 - head.length - tail.length;
  if (right === undefined ? head.length !== 8 : missing < 0) return undefined;
  return [...head, ...Array<string>(right === undefined ? 0 : missing).fill('0'), ...tail];
}

/** The key a connection counts under: an IPv4 address (also IPv4-mapped IPv6) as it is, an IPv6 address by its /64. */
export function clientKeyOf(address: string | undefined): string {
  if (address === undefined) return '';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  const groups = ipv6Groups(address.split('%')[0]!);
  if (!groups) return address;
  return `${groups.slice(0, 4).map((g) => g.toLowerCase().replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/** How often deadlines are checked: a tenth of the deadline, between 50 ms and 1 s. */
export const sweepPeriodOf = (timeoutMs: number): number => Math.max(50, Math.min(1000, Math.floor(timeoutMs / 10)));

export function guardConnections(options: GuardOptions): ConnectionGuard {
  const open = new Map<string, number>();
  /** sockets whose head is being read, with the time its first byte came */
  const reading = new Map<Socket, number>();

  const sweep = setInterval(() => {
    const expired = Date.now() - options.headTimeoutMs;
    for (const [socket, since] of reading) {
      if (since > expired) continue;
      reading.delete(socket);
      options.onHeadTimeout(socket);
    }
  }, sweepPeriodOf(options.headTimeoutMs)).unref();

  return {
    admit(socket) {
      const key = clientKeyOf(socket.remoteAddress);
      const count = open.get(key) ?? 0;
      if (options.perClient > 0 && count >= options.perClient) return false;
      open.set(key, count + 1);
      socket.once('close', () => {
        reading.delete(socket);
        const left = (open.get(key) ?? 1) - 1;
        if (left <= 0) open.delete(key);
        else open.set(key, left);
      });
      return true;
    },
    startHead(socket, since) {
      if (!reading.has(socket) && !socket.destroyed) reading.set(socket, since);
    },
    endHead(socket) {
      reading.delete(socket);
    },
    close() {
      clearInterval(sweep);
      reading.clear();
    },
  };
}
