// What node:http would answer bare or not at all, answered with a problem instead (docs/reliability.md,
// "HTTP front"): a head it cannot read or a request past its deadline (when no answer is under way on
// the connection), CONNECT, an Expect other than 100-continue. The connection is closed after each.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ProblemError } from '../api/problems.ts';
import { renderProblem } from '../api/respond.ts';
import type { Urls } from '../model/urls.ts';
import { ALLOWED_METHODS, CORS_HEADERS } from '../http/cors.ts';
import { send } from './send-answer.ts';
import type { HealthMonitor } from './service-health.ts';
import { answerAndClose, asksForHead, clientErrorProblem, instanceOf, isClosing } from './socket-problems.ts';

/** node:http's own: a socket's `_httpMessage` is the response in flight on it. */
type HttpSocket = Socket & { _httpMessage?: { headersSent?: boolean } | null };

/** Sockets whose request was answered before its body arrived: a late error there gets no second answer. */
export interface EarlyAnswers {
  /** Call for every request: notes its socket when its answer finishes before its body has arrived. */
  track(req: IncomingMessage, res: ServerResponse): void;
  has(socket: Socket): boolean;
}

export function trackEarlyAnswers(): EarlyAnswers {
  const answeredEarly = new WeakSet<Socket>();
  return {
    track(req, res) {
      res.once('finish', () => {
        if (req.complete) return;
        answeredEarly.add(req.socket);
        req.once('end', () => answeredEarly.delete(req.socket));
      });
    },
    has: (socket) => answeredEarly.has(socket),
  };
}

/** Answers node:http's client errors, CONNECT and unmet expectations on `server` with problems. */
export function answerProtocolProblems(server: Server, urls: Urls, early: EarlyAnswers, monitor: HealthMonitor | undefined): void {
  server.on('clientError', (error: Error & { code?: string; rawPacket?: Buffer }, socket: Socket) => {
    if (isClosing(socket)) return;
    if (error.code === 'ECONNRESET' || error.code === 'EPIPE' || (socket as HttpSocket)._httpMessage?.headersSent || early.has(socket)) {
      socket.destroy();
      return;
    }
    const problem = clientErrorProblem(error);
    answerAndClose(socket, renderProblem(problem, instanceOf(error.rawPacket), urls), { head: asksForHead(error.rawPacket) });
    monitor?.record(problem.status);
  });
  // CONNECT asks for a tunnel, which this service does not make: a 405 problem, not a dropped connection.
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    answerAndClose(socket, renderProblem(new ProblemError('method-not-allowed', `CONNECT is not allowed: this API is read-only (${ALLOWED_METHODS}).`), '/', urls), { extra: { allow: ALLOWED_METHODS } });
    monitor?.record(405);
  });
  // An Expect other than 100-continue (node:http answers 100-continue itself).
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    for (const [name, value] of Object.entries(CORS_HEADERS)) res.setHeader(name, value);
    if (monitor) res.once('finish', () => monitor.record(res.statusCode));
    send(req, res, renderProblem(new ProblemError('expectation-failed', 'The only expectation this service meets is Expect: 100-continue.'), (req.url ?? '/').slice(0, 2000), urls));
  });
}
