// Writing an answer through node:http: a rendered problem or answer as it is, or an endpoint's
// answer with conditional GET and on-demand compression (http/negotiate.ts), or a kept answer with
// the variants and header sets it keeps (answer-cache.ts): the same bytes either way.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Rendered } from '../api/respond.ts';
import { matchesIfNoneMatch } from '../http/etag.ts';
import { negotiateRendered } from '../http/negotiate.ts';
import { chooseKeptVariant, type AnswerCache } from './answer-cache.ts';

/** A request header as one string (repeated headers joined by a comma). */
export function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Sends `rendered` as it is (a problem, an answer without validator), with `extra` headers. */
export function send(req: IncomingMessage, res: ServerResponse, rendered: Rendered, extra: Record<string, string> = {}): void {
  res.writeHead(rendered.status, { ...rendered.headers, ...extra, 'content-length': rendered.body.length });
  res.end(req.method === 'HEAD' ? undefined : rendered.body);
}

/**
 * An endpoint's answer with conditional GET and on-demand compression (as toResponse does for
 * Astro); a kept answer with the variants and header sets it keeps, the same bytes.
 */
export function sendAnswer(req: IncomingMessage, res: ServerResponse, rendered: Rendered, answers: AnswerCache): void {
  if (answers.holds(rendered)) {
    const { encoding, body, etag } = chooseKeptVariant(answers, rendered, headerOf(req, 'accept-encoding'));
    const notModified = matchesIfNoneMatch(headerOf(req, 'if-none-match'), etag);
    res.writeHead(notModified ? 304 : 200, answers.headers(rendered, encoding, notModified).flat as string[]);
    res.end(req.method === 'HEAD' || notModified ? undefined : body);
    return;
  }
  const out = negotiateRendered(rendered, headerOf(req, 'accept-encoding'), headerOf(req, 'if-none-match'));
  res.writeHead(out.status, out.headers);
  res.end(req.method === 'HEAD' ? undefined : out.body);
}
