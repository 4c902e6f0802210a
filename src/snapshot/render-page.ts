// Renders one canonical URL with its endpoint's own handler and checks the body against the
// endpoint's response schema, so bad catalogue data fails the build, not the CDN. The check is
// skipped for a page whose bytes are exactly a page the same build code checked before (the
// previous snapshot's page of the same URL, `checkedBefore`): the bytes a client gets are bytes
// that passed (docs/architecture.md, "Incremental builds"). Answering (running the handler) and
// rendering (serialising and checking) are apart, so an incremental build can tell from the
// answer whether the page changed before it pays for its bytes (page-inputs.ts).
import type { Answer, Context, Endpoint } from '../api/endpoint.ts';
import { renderAnswer, type Rendered } from '../api/respond.ts';
import { matchRoute } from '../api/routes.ts';

export interface AnsweredPage {
  readonly key: string;
  readonly endpoint: Endpoint<any>;
  readonly answer: Answer;
}

export interface RenderedPage {
  readonly key: string;
  readonly rendered: Rendered;
  readonly next: string | undefined;
}

/** Whether `body` is exactly the bytes of a page `key` the same code checked before. */
export type CheckedBefore = (key: string, body: Buffer) => boolean;

/** A planned URL's endpoint and parameters; the URL must be canonical. */
export function parsePage(url: string): { readonly key: string; readonly endpoint: Endpoint<any>; readonly params: unknown } {
  const parsed = new URL(url, 'http://snapshot.invalid');
  const route = matchRoute(parsed.pathname);
  if (!route) throw new Error(`planned page ${url} matches no endpoint`);
  const params = route.endpoint.parse(route.params, parsed.searchParams);
  const key = route.endpoint.canonical(params);
  if (key !== url) throw new Error(`planned page ${url} is not canonical (canonical form: ${key})`);
  return { key, endpoint: route.endpoint, params };
}

/** Runs the handler of a planned URL, which must be canonical; the answer, not yet serialised. */
export function answerPage(url: string, context: Context): AnsweredPage {
  const { key, endpoint, params } = parsePage(url);
  return { key, endpoint, answer: endpoint.handle(params, context) };
}

/** Serialises an answered page and checks it against its endpoint's schema (unless `checkedBefore`). */
export function renderAnswered({ key, endpoint, answer }: AnsweredPage, context: Context, checkedBefore?: CheckedBefore): RenderedPage {
  // the bytes written are those of the body checked below: an answer's own `bytes` (written item by
  // item without making its body, paging.ts paginatePositions) are the server's shortcut, not the build's
  const rendered = renderAnswer(answer.bytes ? { ...answer, bytes: undefined } : answer, endpoint.cache, context.model.urls);
  if (checkedBefore === undefined || !checkedBefore(key, rendered.body)) {
    const check = endpoint.response.safeParse(answer.body);
    if (!check.success) {
      const issue = check.error.issues[0]!;
      throw new Error(`page ${key} does not match its schema at ${issue.path.join('.') || '(body)'}: ${issue.message}`);
    }
  }
  return { key, rendered, next: answer.next };
}

export function renderPage(url: string, context: Context, checkedBefore?: CheckedBefore): RenderedPage {
  return renderAnswered(answerPage(url, context), context, checkedBefore);
}
