// Cursor and offset paging over an ordered list (docs/api-contract.md §2, docs/api-contract.md §4).
import { canonicalUrl } from './query.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { DEFAULT_LIMIT, type PagingQuery } from './params.ts';
import { invalidParameters } from './problems.ts';
import { makingStandIns } from '../model/entries.ts';
import { answerOut, type JsonOut } from '../model/json-out.ts';

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
  /** the body's JSON as UTF-8, written without making its items (when the list can: `writeItem`) */
  readonly bytes?: (() => Buffer) | undefined;
}

export function paginate<S, T>(items: readonly S[], spec: PageSpec, toItem: (item: S) => T, writeItem?: (item: S, out: JsonOut) => void): PageAnswer<T> {
  return paginatePositions(items.length, spec, (i) => toItem(items[i]!), writeItem && ((i, out) => writeItem(items[i]!, out)));
}

/**
 * What a page of `spec` over `total` positions is, but its items: the positions it shows
 * (`from` to `to`, exclusive), its paging fields and its next page's canonical URL. The one rule of
 * paginatePositions's answers; the build keys a list page by it without answering the page
 * (src/snapshot/list-keys.ts).
 */
export interface PageFacts {
  readonly from: number;
  readonly to: number;
  readonly paging: PageAnswer<never>['body']['paging'];
  readonly next: string | undefined;
}

export function pageFacts(total: number, spec: PageSpec): PageFacts {
  const to = Math.min(total, spec.offset + spec.limit);
  const nextOffset = spec.offset + spec.limit;
  const nextCursor = to > spec.offset && nextOffset < total ? encodeCursor(scopeOf(spec.path, spec.filters), nextOffset) : null;
  return {
    from: spec.offset,
    to,
    paging: { limit: spec.limit, offset: spec.offset, total, nextCursor },
    next: nextCursor === null ? undefined : canonicalUrl(spec.path, { ...spec.filters, limit: spec.limit, cursor: nextCursor }),
  };
}

/**
 * The spec of the page `facts.next` names (undefined when there is none): what readPageSpec reads
 * from that URL (its cursor decodes to the offset after `spec`'s page), made without decoding it.
 */
export function nextPageSpec(spec: PageSpec, facts: PageFacts): PageSpec | undefined {
  const cursor = facts.paging.nextCursor;
  return cursor === null ? undefined : { path: spec.path, filters: spec.filters, limit: spec.limit, offset: spec.offset + spec.limit, cursor };
}

/**
 * Paging over `total` positions, making only the page's items (`at(position)`). With `write` (an
 * item's JSON written into `out`: the JSON of `at(position)`), the answer's body is made only when
 * read, and its bytes are written item by item without making the items (what the server sends:
 * api/respond.ts renderAnswer); inside `withStandIns` the body is made at once, of stand-ins, as
 * the build keys it (model/entries.ts).
 */
export function paginatePositions<T>(total: number, spec: PageSpec, at: (position: number) => T, write?: (position: number, out: JsonOut) => void): PageAnswer<T> {
  const facts = pageFacts(total, spec);
  const made = (): PageAnswer<T>['body'] => {
    const data: T[] = [];
    for (let i = facts.from; i < facts.to; i++) data.push(at(i));
    return { data, paging: facts.paging };
  };
  if (write === undefined || makingStandIns()) return { body: made(), next: facts.next };
  let body: PageAnswer<T>['body'] | undefined;
  return {
    get body() { return (body ??= made()); },
    next: facts.next,
    bytes() {
      // JSON.stringify's text of { data, paging }
      const out = answerOut.reset();
      out.text('{"data":[');
      for (let i = facts.from; i < facts.to; i++) {
        if (i > facts.from) out.text(',');
        write(i, out);
      }
      out.text(`],"paging":${JSON.stringify(facts.paging)}}`);
      return out.take();
    },
  };
}
