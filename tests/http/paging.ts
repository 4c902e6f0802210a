// Following cursor chains (docs/api-contract.md §2, docs/api-contract.md §4) and reading RFC 8288 `Link` headers.
import { decoded, header, type Client, type RawResponse } from './http-client.ts';
import type { Page } from './contract-shapes.ts';

export interface FetchedPage<T> {
  readonly target: string;
  readonly res: RawResponse;
  /** identity bytes of the body */
  readonly bytes: Buffer;
  readonly body: Page<T>;
}

/** `target` with `name` set to `value` (or removed when undefined), as a path and query. */
export function withParam(target: string, name: string, value: string | undefined): string {
  const url = new URL(target, 'http://x.invalid');
  if (value === undefined) url.searchParams.delete(name);
  else url.searchParams.set(name, value);
  return url.pathname + url.search;
}

export async function fetchPage<T>(client: Client, target: string): Promise<FetchedPage<T>> {
  const { body, res } = await client.json<Page<T>>(target);
  return { target, res, bytes: decoded(res), body };
}

/**
 * Every page of a query, from `target` on, passing each `paging.nextCursor` back as `cursor`
 * (docs/api-contract.md §2 rule 1). Stops at a null cursor; fails past `maxPages`, so a cursor loop cannot hang.
 */
export async function followChain<T>(client: Client, target: string, maxPages = 2000): Promise<FetchedPage<T>[]> {
  const pages: FetchedPage<T>[] = [];
  let next: string | undefined = target;
  while (next !== undefined) {
    if (pages.length >= maxPages) throw new Error(`${target}: more than ${maxPages} pages`);
    const page: FetchedPage<T> = await fetchPage<T>(client, next);
    pages.push(page);
    const cursor = page.body.paging.nextCursor;
    next = cursor === null ? undefined : withParam(target, 'cursor', cursor);
  }
  return pages;
}

/** The target of `Link: <...>; rel="next"`, resolved against the base; undefined when absent. */
export function nextLink(res: RawResponse, base: string): string | undefined {
  const value = header(res, 'link');
  if (value === undefined) return undefined;
  for (const part of value.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>\s*((?:;\s*[^;]+)*)$/.exec(part);
    if (match && /;\s*rel="?([^";]*\s)?next(\s[^";]*)?"?/i.test(match[2] ?? '')) return new URL(match[1] ?? '', `${base}/`).href;
  }
  return undefined;
}

export const idsOf = (pages: readonly FetchedPage<{ id: string }>[]): string[] => pages.flatMap((p) => p.body.data.map((v) => v.id));
