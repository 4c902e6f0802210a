// Admission of an API request through node:http: it counts against its rate-limit lane (and its
// app's usage, partners.ts), and its answer carries the lane's RateLimit headers (gate.ts,
// docs/api-contract.md §7). In the same turn unless a key must be looked up: a request is never
// held up without need.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { matchRoute } from '../api/routes.ts';
import type { Admission, Gate, RequestFacts } from './gate.ts';
import type { Partners } from './partners.ts';
import { headerOf } from './send-answer.ts';

/** What the gate needs to know of a request. */
export function factsOf(req: IncomingMessage): RequestFacts {
  return {
    remoteAddress: req.socket.remoteAddress, forwardedFor: headerOf(req, 'x-forwarded-for'),
    origin: headerOf(req, 'origin'), referer: headerOf(req, 'referer'), authorization: headerOf(req, 'authorization'), cookie: headerOf(req, 'cookie'),
  };
}

/** Sets the admission's headers on the answer and counts an app's call by the endpoint's path template. */
function settle(res: ServerResponse, url: URL, admission: Admission, partners: Partners | undefined): Admission {
  for (const [name, value] of Object.entries(admission.headers)) res.setHeader(name, value);
  if (admission.caller.kind === 'app') {
    const route = matchRoute(url.pathname);
    partners?.count(admission.caller.appId, route ? route.endpoint.path.replace(/:(\w+)/g, '{$1}') : 'other');
  }
  return admission;
}

/** Admits a request to a limited path; undefined when nothing limits it (no gate, or a path outside the lanes). */
export function admitRequest(req: IncomingMessage, res: ServerResponse, url: URL, gate: Gate | undefined, partners: Partners | undefined): Admission | undefined | Promise<Admission> {
  if (!gate || !gate.limits(url.pathname)) return undefined;
  const admitted = gate.admitFresh(factsOf(req));
  return admitted instanceof Promise ? admitted.then((a) => settle(res, url, a, partners)) : settle(res, url, admitted, partners);
}
