// defineNestedList, the shape of every list under one resource, tried on a small list of its own.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { encodeCursor } from '../../../../src/api/cursor.ts';
import { defineNestedList } from '../../../../src/api/handlers/nested-list.ts';
import { notFound } from '../../../../src/api/problems.ts';
import type { Model } from '../../../../src/model/build-model.ts';
import { catalogueOf, modelOf } from '../../support/fixtures.ts';
import { call, pageOf, problemOf } from '../../support/handlers.ts';

const lists: Record<string, string[]> = {
  'a.b_c-d': ['one', 'two', 'three', 'four', 'five'],
  other: ['x', 'y', 'z'],
  empty: [],
};
const models: Model[] = [];
const things = defineNestedList({
  name: 'things',
  docs: { summary: 'Test', description: 'Test endpoint.', tag: 'Videos' },
  path: '/v1/things/:id/items',
  kind: 'playlist',
  response: z.strictObject({
    data: z.array(z.string()),
    paging: z.strictObject({ limit: z.number(), offset: z.number(), total: z.number(), nextCursor: z.string().nullable() }),
  }),
  items(_model, key) {
    const items = lists[key];
    if (!items) throw notFound(`nothing has the id "${key}"`);
    return items;
  },
  toItem(item, model) {
    models.push(model);
    return item.toUpperCase();
  },
});
const model = modelOf(catalogueOf({}));
const items = (id: string, query = '') => pageOf<string>(call(things, model, query, { id }));
const canonical = (id: string, query = '') => things.canonical(things.parse({ id }, new URLSearchParams(query)));

describe('defineNestedList', () => {
  it('pages over the items of the key, mapped by toItem with the model', () => {
    const page = items('a.b_c-d', 'limit=2');
    expect(page.data).toEqual(['ONE', 'TWO']);
    expect(page.paging).toMatchObject({ limit: 2, offset: 0, total: 5 });
    expect(page.paging.nextCursor).not.toBeNull();
    expect(models.at(-1)).toBe(model);
  });

  it('answers an empty page for a resource with an empty list', () => {
    expect(items('empty').paging).toEqual({ limit: 20, offset: 0, total: 0, nextCursor: null });
  });

  it('follows next links through every item once', () => {
    const seen: string[] = [];
    let query = 'limit=2';
    for (let guard = 0; guard < 10; guard++) {
      const answer = call(things, model, query, { id: 'a.b_c-d' });
      seen.push(...pageOf<string>(answer).data);
      if (answer.next === undefined) break;
      expect(answer.next.startsWith('/v1/things/a.b_c-d/items?cursor=')).toBe(true);
      query = new URL(answer.next, 'http://x.invalid').search.slice(1);
    }
    expect(seen).toEqual(['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE']);
  });

  it('answers 400 for a cursor issued for another key', () => {
    const cursor = items('other', 'limit=1').paging.nextCursor!;
    const error = problemOf(() => items('a.b_c-d', `limit=1&cursor=${cursor}`));
    expect(error.status).toBe(400);
    expect(error.errors?.map((e) => e.parameter)).toEqual(['cursor']);
  });

  it('answers 404 naming an unknown key, whatever the page asks', () => {
    const cursor = encodeCursor('/v1/things/ghost/items', 2);
    for (const query of ['', 'offset=999', 'limit=1', `cursor=${cursor}`]) {
      const error = problemOf(() => items('ghost', query));
      expect(error.status).toBe(404);
      expect(error.message).toContain('ghost');
    }
  });

  it('answers 404 for a badly shaped key before reading the query', () => {
    for (const id of ['..', 'a b', 'k'.repeat(300)]) {
      const error = problemOf(() => items(id, 'limit=51'));
      expect(error.status).toBe(404);
      expect(error.message).toContain(id.slice(0, 200));
    }
  });

  it('answers 400 for invalid paging of a known key', () => {
    expect(problemOf(() => items('other', 'limit=51')).errors?.map((e) => e.parameter)).toEqual(['limit']);
    expect(problemOf(() => items('other', 'offset=-1')).errors?.map((e) => e.parameter)).toEqual(['offset']);
  });

  it('has a canonical URL with the key in the path, the limit and a non-zero offset', () => {
    expect(canonical('a.b_c-d')).toBe('/v1/things/a.b_c-d/items?limit=20');
    expect(canonical('other', 'limit=20&offset=0&utm=1')).toBe('/v1/things/other/items?limit=20');
    expect(canonical('other', 'limit=5&offset=2')).toBe('/v1/things/other/items?limit=5&offset=2');
    const cursor = items('other', 'limit=1').paging.nextCursor!;
    expect(canonical('other', `limit=1&cursor=${cursor}`)).toBe(`/v1/things/other/items?cursor=${cursor}&limit=1`);
  });
});
