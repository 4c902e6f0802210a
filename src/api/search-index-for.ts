// The search index a handler uses: the one loaded with the snapshot, or (for a model that came
// without one, as in unit tests) one built from the model on first use and kept with it.
import type { Context } from './endpoint.ts';
import type { Model } from '../model/build-model.ts';
import { buildSearchIndex, type SearchIndex } from '../search/search-index.ts';

const built = new WeakMap<Model, SearchIndex>();

export function searchIndexFor(context: Pick<Context, 'model' | 'search'>): SearchIndex {
  if (context.search) return context.search;
  let index = built.get(context.model);
  if (!index) built.set(context.model, (index = buildSearchIndex(context.model)));
  return index;
}
