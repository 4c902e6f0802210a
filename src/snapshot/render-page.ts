// Renders one canonical URL with its endpoint's own handler and checks the body against the
// endpoint's response schema, so bad catalogue data fails the build, not the CDN. The check is
// skipped for a page whose bytes are exactly a page the same build code checked before (the
// previous snapshot's page of the same URL, `checkedBefore`): the bytes a client gets are bytes
// that passed (docs/architecture.md, "Incremental builds").
import type { Context } from '../api/endpoint.ts';
import { renderAnswer, type Rendered } from '../api/respond.ts';
import { matchRoute } from '../api/routes.ts';

export interface RenderedPage {
  readonly key: string;
  readonly rendered: Rendered;
  readonly next: string | undefined;
}

/** Whether `body` is exactly the bytes of a page `key` the same code checked before. */
export type CheckedBefore = (key: string, body: Buffer) => boolean;

export function renderPage(url: string, context: Context, checkedBefore?: CheckedBefore): RenderedPage {
  const parsed = new URL(url, 'http://snapshot.invalid');
  const route = matchRoute(parsed.pathname);
  if (!route) throw new Error(`planned page ${url} matches no endpoint`);
  const params = route.endpoint.parse(route.params, parsed.searchParams);
  const key = route.endpoint.canonical(params);
  if (key !== url) throw new Error(`planned page ${url} is not canonical (canonical form: ${key})`);
  const answer = route.endpoint.handle(params, context);
  const rendered = renderAnswer(answer, route.endpoint.cache, context.model.urls);
  if (checkedBefore === undefined || !checkedBefore(key, rendered.body)) {
    const check = route.endpoint.response.safeParse(answer.body);
    if (!check.success) {
      const issue = check.error.issues[0]!;
      throw new Error(`page ${url} does not match its schema at ${issue.path.join('.') || '(body)'}: ${issue.message}`);
    }
  }
  return { key, rendered, next: answer.next };
}
