// Our node:http server (docs/architecture.md, "The flow"): every request goes through the pipeline
// of handle-request.ts; what node:http would answer bare or not at all — a head it cannot read, a
// head or body past its deadline, CONNECT, an unknown Expect — is a problem too
// (protocol-problems.ts, docs/reliability.md "HTTP front"). The fast path (fast-path.ts) hands it
// the connections it does not answer itself.
import { createServer, type Server } from 'node:http';
import { ProblemError } from '../api/problems.ts';
import { renderProblem } from '../api/respond.ts';
import { createUrls } from '../model/urls.ts';
import { sweepPeriodOf } from './connection-guard.ts';
import { createRequestHandler, type ServerOptions } from './handle-request.ts';
import { answerProtocolProblems, trackEarlyAnswers } from './protocol-problems.ts';
import { send } from './send-answer.ts';

export type { AstroHandler, ServerOptions } from './handle-request.ts';

export function createApiServer(options: ServerOptions): Server {
  const log = options.log ?? ((m: string) => console.log(m));
  const urls = createUrls(options.baseUrl);
  const handle = createRequestHandler(options);
  const early = trackEarlyAnswers();
  const timeouts = options.timeouts ?? { headMs: 10_000, requestMs: 20_000 };
  const server = createServer({
    // node:http checks these only on a server it sees listening: see the 'listening' event below
    headersTimeout: timeouts.headMs,
    requestTimeout: timeouts.requestMs,
    connectionsCheckingInterval: sweepPeriodOf(timeouts.headMs),
    keepAliveTimeout: 65_000,
    requireHostHeader: false,
  }, (req, res) => {
    if (options.monitor) res.once('finish', () => options.monitor!.record(res.statusCode));
    early.track(req, res);
    handle(req, res).catch((error: unknown) => {
      log(`[server] failed on ${req.method} ${req.url}: ${(error as Error).stack ?? String(error)}`);
      if (!res.headersSent) send(req, res, renderProblem(new ProblemError('internal-error', 'The service failed to answer this request.'), (req.url ?? '/').slice(0, 2000), urls));
      else res.destroy();
    });
  });
  answerProtocolProblems(server, urls, early, options.monitor);
  // The front server listens and hands connections over, so node:http never sees 'listening',
  // which is when it starts checking headersTimeout and requestTimeout: start them here.
  server.emit('listening');
  return server;
}
