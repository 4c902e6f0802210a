// Cursor and offset paging over an ordered list (docs/api-contract.md §2, docs/api-contract.md §4).
import { canonicalUrl } from './query.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { DEFAULT_LIMIT, type PagingQuery } from './params.ts';
import { invalidParameters } from './problems.ts';

/** Where a page starts and how long it is, for one query (`scope`: path plus canonical filters). */
export interface PageSpec {
  readonly path: string;
  readonly filters: Readonly<Record<string, string | undefined>>;
  readonly limit: number;
  readonly offset: number;
  /** the cursor as given, when the page was asked for by cursor */
  readonly cursor: string | undefined;
}

export const scopeOf = (path: string, filters: PageSpec['filters']): string => canonicalUrl(path, filters);

export function readPageSpec(path: string, filters: PageSpec['filters'], query: PagingQuery): PageSpec {
  const limit = query.limit ?? DEFAULT_LIMIT;
  if (query.cursor === undefined) return { path, filters, limit, offset: query.offset ?? 0, cursor: undefined };
  const decoded = decodeCursor(scopeOf(path, filters), query.cursor);
  if (!decoded.ok) throw invalidParameters([{ parameter: 'cursor', detail: decoded.detail }]);
  return { path, filters, limit, offset: decoded.offset, cursor: query.cursor };
}

/** The canonical URL of a page: filters, limit and its cursor (or a non-zero offset). */
export function canonicalPage(spec: PageSpec): string {
  return canonicalUrl(spec.path, {
    ...spec.filters,
    limit: spec.limit,
    cursor: spec.cursor,
    offset: spec.cursor === undefined && spec.offset > 0 ? spec.offset : undefined,
  });
}

export interface PageAnswer<T> {
  readonly body: { data: T[]; paging: { limit: number; offset: number; total: number; nextCursor: string | null } };
  readonly next: string | undefined;
}

export function paginate<S, T>(items: readonly S[], spec: PageSpec, toItem: (item: S) => T): PageAnswer<T> {
  return paginatePositions(items.length, spec, (i) => toItem(items[i]!));
}

/** Paging over `total` positions, making only the page's items (`at(position)`). */
export function paginatePositions<T>(total: number, spec: PageSpec, at: (position: number) => T): PageAnswer<T> {
  const data: T[] = [];
  for (let i = spec.offset; i < Math.min(total, spec.offset + spec.limit); i++) data.push(at(i));
  const nextOffset = spec.offset + spec.limit;
  const nextCursor = data.length > 0 && nextOffset < total ? encodeCursor(scopeOf(spec.path, spec.filters), nextOffset) : null;
  return {
    body: { data, paging: { limit: spec.limit, offset: spec.offset, total, nextCursor } },
    next: nextCursor === null ? undefined : canonicalUrl(spec.path, { ...spec.filters, limit: spec.limit, cursor: nextCursor }),
  };
}
