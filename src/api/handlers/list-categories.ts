// GET /v1/categories: every category with its count of public videos, ordered by name.
import { defineEndpoint } from '../endpoint.ts';
import { NoQuery } from '../params.ts';
import { parseQuery } from '../query.ts';
import { CategoryList } from '../../model/schemas.ts';

export const listCategories = defineEndpoint<Record<string, never>>({
  name: 'list-categories',
  path: '/v1/categories',
  query: NoQuery,
  response: CategoryList,
  docs: {
    summary: 'Categories',
    description: 'Every category with its count of public videos.',
    tag: 'Discovery',
  },
  cache: 'snapshot',
  parse(_path, search) {
    parseQuery(NoQuery, search);
    return {};
  },
  canonical: () => '/v1/categories',
  handle: (_params, { model }) => ({ body: { data: model.categories } }),
});
