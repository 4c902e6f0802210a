// The site's paged lists that run an API endpoint's own handler (search, a category's videos):
// the page number becomes the endpoint's limit and offset, and the answer's data and total come
// back, so a page shows what /v1 answers for the same query (docs/decisions.md, "Site pages").
import type { Context, Endpoint } from '../api/endpoint.ts';
import { ProblemError } from '../api/problems.ts';

export const PER_PAGE = 24;

export interface ListPage<T> {
  readonly items: readonly T[];
  readonly total: number;
  readonly pages: number;
}

/**
 * One page (from 1) of an endpoint's list for `query`; a ProblemError for a bad query or a page
 * past the last (except page 1 of an empty list).
 */
export function runListPage<T>(endpoint: Endpoint<any>, query: Record<string, string>, page: number, context: Context): ListPage<T> | ProblemError {
  const params = new URLSearchParams({ ...query, limit: String(PER_PAGE), offset: String((page - 1) * PER_PAGE) });
  try {
    const parsed = endpoint.parse({}, params);
    const { data, paging } = endpoint.handle(parsed, context).body as { data: T[]; paging: { total: number } };
    const pages = Math.max(1, Math.ceil(paging.total / PER_PAGE));
    if (page > pages) return new ProblemError('invalid-parameter', `page: must be an integer from 1 to ${pages}`, { errors: [{ parameter: 'page', detail: `must be an integer from 1 to ${pages}` }] });
    return { items: data, total: paging.total, pages };
  } catch (error) {
    if (error instanceof ProblemError) return error;
    throw error;
  }
}

/** `/path?a=1&page=N` for page N of a list (no `page` for the first). */
export function pageHref(path: string, query: Record<string, string>, page: number): string {
  const params = new URLSearchParams(query);
  if (page > 1) params.set('page', String(page));
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}
