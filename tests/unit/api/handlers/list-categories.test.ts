import { describe, expect, it } from 'vitest';
import { listCategories } from '../../../../src/api/handlers/list-categories.ts';
import type { Category } from '../../../../src/model/schemas.ts';
import { catalogueOf, category, modelOf, video } from '../../support/fixtures.ts';
import { call } from '../../support/handlers.ts';

describe('listCategories', () => {
  it('lists every category by name with its count of public videos', () => {
    const model = modelOf(catalogueOf({
      categories: [category('z', 'Arts'), category('a', 'Zoology'), category('m', 'Music')],
      videos: [video('1', { category: 'm' }), video('2', { category: 'm' }), video('3', { category: 'z', privacy: 'unlisted' })],
    }));
    const { data } = call(listCategories, model).body as { data: Category[] };
    expect(data.map((c) => c.name)).toEqual(['Arts', 'Music', 'Zoology']);
    expect(data.map((c) => c.videoCount)).toEqual([0, 2, 0]);
  });
});
