// The pages of a list's cursor chain (the latest videos, a sort's or a filter's first pages, a
// channel's and a playlist's lists) keyed without answering each page: the list's handler answers
// once for the whole chain, its videos as stand-ins (entries.ts withStandIns), and each page's key is
// made from its paging facts (src/api/paging.ts pageFacts, the rule paginatePositions answers by)
// and the items at its positions (page-inputs.ts createListPageKeys): the same key as the page's
// answer gives (page-inputs.ts, the second rule), without parsing its URL, checking its cursor,
// making its answer or serialising it whole. A page whose key changed is then answered for real
// (render-pages.ts). Why: a one-title rebuild keys some 17,000 list pages of pyvideo-100k to copy
// all but a few (docs/performance.md, "List page keys without answers").
import type { Answer, Context, Endpoint } from '../api/endpoint.ts';
import { nextPageSpec, pageFacts, type PageSpec } from '../api/paging.ts';
import { withStandIns, type StandIns } from '../model/entries.ts';
import { answerPage, parsePage } from './render-page.ts';

export interface ListPage {
  readonly url: string;
  readonly key: string;
  /** the next page's URL, as the page's answer links it */
  readonly next: string | undefined;
}

export interface ListKeysOptions {
  readonly context: Context;
  /** stand-ins kept for the build (entries.ts createStandIns) */
  readonly standIns: StandIns | undefined;
  /** page-inputs.ts createListPageKeys */
  readonly pageKey: (facts: ReturnType<typeof pageFacts>, items: ArrayLike<unknown>, at: number) => string;
  /** page-inputs.ts createAnswerKeys: the key each list endpoint's first page is checked against, once a build */
  readonly answerKey: (answer: Answer) => string;
}

/** The pages of planned list `url`'s chain (at most `pages`) with their keys, in order; undefined when its answers are not pages of a list. */
export type ListChain = (url: string, pages: number) => Iterable<ListPage> | undefined;

/** The paging of an endpoint's parameters, when they page a list (the list endpoints' `page`: paging.ts readPageSpec). */
function pageSpecOf(params: unknown): PageSpec | undefined {
  if (typeof params !== 'object' || params === null || !('page' in params)) return undefined;
  const page = (params as { page: unknown }).page as Partial<PageSpec> | undefined;
  return typeof page === 'object' && page !== null && typeof page.path === 'string' && typeof page.offset === 'number' && typeof page.limit === 'number' ? page as PageSpec : undefined;
}

const BODY = ['data', 'paging'];
const PAGING = ['limit', 'offset', 'total', 'nextCursor'];
const sameKeys = (value: object, keys: readonly string[]): boolean => {
  const own = Object.keys(value);
  return own.length === keys.length && own.every((k, i) => k === keys[i]);
};

/**
 * The items of an answer that is exactly paginatePositions's (status 200, no noindex, a body of
 * `data` and `paging` in that order, `paging`'s fields its), and its total; else undefined.
 */
function plainPage(answer: Answer): { data: readonly unknown[]; total: number } | undefined {
  if ((answer.status ?? 200) !== 200 || answer.noindex === true) return undefined;
  const body = answer.body as { data?: unknown; paging?: { total?: unknown } } | null;
  if (typeof body !== 'object' || body === null || !sameKeys(body, BODY) || !Array.isArray(body.data)) return undefined;
  const paging = body.paging;
  if (typeof paging !== 'object' || paging === null || !sameKeys(paging, PAGING) || typeof paging.total !== 'number') return undefined;
  return { data: body.data, total: paging.total };
}

export function createListChains(options: ListKeysOptions): ListChain {
  const { context, standIns, pageKey } = options;
  // endpoints whose first page holding items had its key checked against its answer's (once a build
  // each: an empty page would check none of the items' pieces)
  const checked = new Set<Endpoint<any>>();
  return (url, pages) => {
    const { endpoint, params } = parsePage(url);
    const spec = pageSpecOf(params);
    if (spec === undefined) return undefined;
    // the whole chain's items at once: the handler's own list, paged from the first page's offset
    const span = Number.isFinite(pages) ? pages * spec.limit : Number.MAX_SAFE_INTEGER - spec.offset;
    const whole = withStandIns(() => endpoint.handle({ ...(params as object), page: { ...spec, limit: span } }, context), standIns);
    const list = plainPage(whole);
    if (list === undefined || list.data.length !== Math.max(0, Math.min(list.total, spec.offset + span) - spec.offset)) return undefined;
    return (function* () {
      let at: PageSpec | undefined = spec;
      let pageUrl = url;
      for (let n = 0; at !== undefined && n < pages; n++) {
        const facts = pageFacts(list.total, at);
        const key = pageKey(facts, list.data, spec.offset);
        if (!checked.has(endpoint) && facts.to > facts.from) {
          // the rule of the key is the answer's: a page whose answer another rule makes would be copied though changed
          checked.add(endpoint);
          const answered = withStandIns(() => answerPage(pageUrl, context), standIns);
          if (options.answerKey(answered.answer) !== key || answered.answer.next !== facts.next) {
            throw new Error(`list page ${pageUrl}: the key made from its paging facts is not its answer's (page-inputs.ts createListPageKeys, paging.ts pageFacts)`);
          }
        }
        yield { url: pageUrl, key, next: facts.next };
        at = nextPageSpec(at, facts);
        if (facts.next !== undefined) pageUrl = facts.next;
      }
    })();
  };
}
