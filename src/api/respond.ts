// Turns an endpoint's answer, or a problem, into bytes and headers: the one place that serialises,
// so static pages (written by the build) and dynamic answers (written per request) agree.
import type { Urls } from '../model/urls.ts';
import type { Answer, CachePolicy, Context, Endpoint } from './endpoint.ts';
import { problemBody, ProblemError } from './problems.ts';
import { serialise, serialiseBytes } from '../lib/serialise.ts';
import { etagOf } from '../http/etag.ts';

export const JSON_TYPE = 'application/json; charset=utf-8';
export const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';

/**
 * How long caches keep each kind of answer (docs/cdn.md, "Purging"). A CDN keeps an answer a day
 * only when the build's purge list names it when it changes (`snapshot`: the prerendered pages).
 * Everything else that changes with a rebuild (`unlisted`: answers computed on demand, the HTML
 * pages and the pictures that show titles) is kept at most 6 minutes (s-maxage + stale-while-
 * revalidate), so a video made private leaves every edge within minutes without a purge.
 */
export const CACHE_CONTROL: Readonly<Record<CachePolicy | 'unlisted' | 'problem' | 'never', string>> = {
  snapshot: 'public, max-age=300, s-maxage=86400, stale-while-revalidate=86400',
  unlisted: 'public, max-age=60, s-maxage=300, stale-while-revalidate=60',
  live: 'public, max-age=5, s-maxage=5',
  none: 'no-cache',
  private: 'private, no-store',
  problem: 'public, max-age=60',
  never: 'no-store',
};

export interface Rendered {
  readonly status: number;
  readonly body: Buffer;
  /** the representation's headers, without CORS, encoding or length */
  readonly headers: Readonly<Record<string, string>>;
}

export function renderAnswer(answer: Answer, cache: CachePolicy, urls: Urls): Rendered {
  const body = answer.bytes ? answer.bytes() : serialiseBytes(answer.body);
  const headers: Record<string, string> = {
    'content-type': JSON_TYPE,
    // the prerendered pages get CACHE_CONTROL.snapshot where they are served (static-pages.ts)
    'cache-control': CACHE_CONTROL[cache === 'snapshot' ? 'unlisted' : cache],
    etag: etagOf(body),
  };
  if (answer.next !== undefined) headers['link'] = `<${urls.api(answer.next)}>; rel="next"`;
  if (answer.noindex) headers['x-robots-tag'] = 'noindex';
  return { status: answer.status ?? 200, body, headers };
}

export function renderProblem(error: ProblemError, instance: string, urls: Urls): Rendered {
  const body = Buffer.from(serialise(problemBody(error, instance, urls.base)));
  const cacheable = error.status === 400 || error.status === 404;
  return {
    status: error.status,
    body,
    headers: { 'content-type': PROBLEM_TYPE, 'cache-control': CACHE_CONTROL[cacheable ? 'problem' : 'never'], ...error.headers },
  };
}

/** Rendered answers remembered by canonical URL (the server's answer cache). */
export interface Memo {
  get(key: string, policy: CachePolicy): Rendered | undefined;
  /** Keeps `rendered` (when its policy allows); the answer to send: the kept one, or `rendered`. */
  set(key: string, policy: CachePolicy, rendered: Rendered): Rendered;
}

/** A request an endpoint has read already: its parameters and their canonical URL. */
export interface ReadRequest {
  readonly params: unknown;
  readonly canonical: string;
}

/** Reads a request for `endpoint`: its parameters and canonical URL; undefined when they are invalid (runEndpoint then answers the problem). */
export function readRequest(endpoint: Endpoint<any>, path: Record<string, string>, url: URL): ReadRequest | undefined {
  try {
    const params: unknown = endpoint.parse(path, url.searchParams);
    return { params, canonical: endpoint.canonical(params) };
  } catch {
    return undefined;
  }
}

/**
 * Parses, handles and renders one request; anything unexpected becomes a generic 500 problem.
 * `read`: the same request as readRequest read it (the fast path reads it once to look for a
 * prerendered page at its canonical URL, and the parse is a tenth of a first list answer).
 */
export function runEndpoint(endpoint: Endpoint<any>, path: Record<string, string>, url: URL, context: Context, memo?: Memo, read?: ReadRequest): Rendered {
  const instance = url.pathname + url.search;
  try {
    const params = read ? read.params : endpoint.parse(path, url.searchParams);
    const key = memo && (read ? read.canonical : endpoint.canonical(params));
    const remembered = key === undefined ? undefined : memo!.get(key, endpoint.cache);
    if (remembered) return remembered;
    const rendered = renderAnswer(endpoint.handle(params, context), endpoint.cache, context.model.urls);
    return key === undefined ? rendered : memo!.set(key, endpoint.cache, rendered);
  } catch (error) {
    if (error instanceof ProblemError) return renderProblem(error, instance, context.model.urls);
    console.error(`[api] ${endpoint.name} failed on ${instance}:`, error);
    return renderProblem(new ProblemError('internal-error', 'The service failed to answer this request.'), instance, context.model.urls);
  }
}
