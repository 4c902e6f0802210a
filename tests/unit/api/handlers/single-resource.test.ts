// defineSingleResource, the shape of every single-resource endpoint, tried on a resource of its own.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineSingleResource } from '../../../../src/api/handlers/single-resource.ts';
import { notFound } from '../../../../src/api/problems.ts';
import { catalogueOf, modelOf } from '../../support/fixtures.ts';
import { call, problemOf } from '../../support/handlers.ts';

const things: Record<string, { name: string; unlisted: boolean }> = {
  'a.b_c-d': { name: 'listed', unlisted: false },
  quiet: { name: 'quiet', unlisted: true },
};
const thing = defineSingleResource({
  name: 'thing',
  docs: { summary: 'Test', description: 'Test endpoint.', tag: 'Videos' },
  path: '/v1/things/:username',
  kind: 'channel',
  response: z.strictObject({ data: z.strictObject({ name: z.string() }) }),
  find(_model, key) {
    const found = things[key];
    if (!found) throw notFound(`nothing has the username "${key}"`);
    return { data: { name: found.name }, unlisted: found.unlisted };
  },
});
const model = modelOf(catalogueOf({}));

describe('defineSingleResource', () => {
  it('wraps the resource in data, indexable when it is not unlisted', () => {
    const answer = call(thing, model, '', { username: 'a.b_c-d' });
    expect(answer.body).toEqual({ data: { name: 'listed' } });
    expect(answer.noindex).toBe(false);
    expect(answer.status).toBeUndefined();
  });

  it('marks an unlisted resource noindex', () => {
    expect(call(thing, model, '', { username: 'quiet' }).noindex).toBe(true);
  });

  it('answers the 404 of find for an unknown key', () => {
    const error = problemOf(() => call(thing, model, '', { username: 'ghost' }));
    expect(error.status).toBe(404);
    expect(error.message).toContain('ghost');
  });

  it('answers 404 naming a badly shaped key without calling find', () => {
    for (const key of ['.', '..', 'k'.repeat(300)]) {
      const error = problemOf(() => thing.parse({ username: key }, new URLSearchParams()));
      expect(error.status).toBe(404);
      expect(error.message).toBe(`No public channel has the username "${key.slice(0, 200)}".`);
    }
  });

  it('ignores query parameters, repeated ones included', () => {
    expect(call(thing, model, 'limit=999&limit=1&x=y', { username: 'quiet' }).body).toEqual({ data: { name: 'quiet' } });
  });

  it('has a canonical URL of the path with its key and no query', () => {
    expect(thing.canonical(thing.parse({ username: 'a.b_c-d' }, new URLSearchParams('x=1')))).toBe('/v1/things/a.b_c-d');
    expect(thing.cache).toBe('snapshot');
  });
});
