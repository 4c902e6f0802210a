// The shape shared by every list under one resource (`/v1/videos/{id}/related`,
// `/v1/channels/{username}/videos`, ...): find the resource by its path key, then page over one
// of its lists with cursor or offset. A key that cannot name anything is a 404 at once; a
// well-formed key is looked up once the query is valid (a bad query is a 400 either way).
import type { Model } from '../../model/build-model.ts';
import { defineEndpoint, type Endpoint, type EndpointDocs } from '../endpoint.ts';
import { canonicalPage, paginate, readPageSpec, type PageSpec } from '../paging.ts';
import { PagingQuery } from '../params.ts';
import { parseQuery } from '../query.ts';
import type { z } from 'zod';
import { readKey } from './lookup.ts';
import type { JsonOut } from '../../model/json-out.ts';

interface NestedList<S, T> {
  readonly name: string;
  /** with exactly one `:id` or `:username` segment */
  readonly path: string;
  readonly kind: Parameters<typeof readKey>[1];
  readonly response: z.ZodType;
  readonly docs: EndpointDocs;
  /** the items to page over, or a 404 problem when `key` names nothing visible */
  items(model: Model, key: string): readonly S[];
  /** `key`: the path's key (`id` or `username`) */
  toItem(item: S, model: Model, key: string): T;
  /** writes `toItem(item)`'s JSON into `out` without making it (paging.ts paginatePositions), when the list can */
  writeItem?(item: S, out: JsonOut): void;
  /** whether the resource `key` names is unlisted: its lists answer with `X-Robots-Tag: noindex`, as it does (docs/decisions.md, "Responses") */
  unlisted?(model: Model, key: string): boolean;
}

export function defineNestedList<S, T>(list: NestedList<S, T>): Endpoint<{ key: string; page: PageSpec }> {
  const param = /:(\w+)/.exec(list.path)![0];
  return defineEndpoint({
    name: list.name,
    path: list.path,
    query: PagingQuery,
    response: list.response,
    // the lists of an unlisted resource say so, as it does: the API description names the header
    docs: list.unlisted ? { ...list.docs, mayBeUnlisted: true } : list.docs,
    cache: 'snapshot',
    parse(path, search) {
      const key = readKey(path, list.kind);
      const query = parseQuery(PagingQuery, search);
      return { key, page: readPageSpec(list.path.replace(param, encodeURIComponent(key)), {}, query) };
    },
    canonical: ({ page }) => canonicalPage(page),
    handle({ key, page }, { model }) {
      const answer = paginate(list.items(model, key), page, (item) => list.toItem(item, model, key), list.writeItem);
      // set on the answer itself: a copy would make its body, which it makes only when read (paging.ts)
      return list.unlisted?.(model, key) === true ? Object.assign(answer, { noindex: true }) : answer;
    },
  });
}
