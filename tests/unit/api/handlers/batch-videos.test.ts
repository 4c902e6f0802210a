import { describe, expect, it } from 'vitest';
import { batchVideos, MAX_BATCH } from '../../../../src/api/handlers/batch-videos.ts';
import type { Video } from '../../../../src/model/schemas.ts';
import { catalogueOf, modelOf, video } from '../../support/fixtures.ts';
import { call, problemOf } from '../../support/handlers.ts';

// The model holds what read-catalogue.ts lets through: a private video is simply absent.
const many = Array.from({ length: 60 }, (_, i) => video(`m${String(i).padStart(2, '0')}`));
const model = modelOf(catalogueOf({ videos: [video('a'), video('b'), video('c'), video('u', { privacy: 'unlisted' }), ...many] }));

const batch = (ids: string) => call(batchVideos, model, new URLSearchParams({ ids }).toString()).body as { data: Video[]; missing: string[] };

describe('batchVideos', () => {
  it('returns found videos in the order asked', () => {
    expect(batch('c,a,b').data.map((v) => v.id)).toEqual(['c', 'a', 'b']);
  });

  it('returns the same resource the single-video endpoint serves', () => {
    expect(batch('a').data[0]).toEqual(model.videos.get('a')!.resource);
  });

  it('lists unknown and private ids in missing, in the order asked', () => {
    const body = batch('zzz,a,private-one,b');
    expect(body.data.map((v) => v.id)).toEqual(['a', 'b']);
    expect(body.missing).toEqual(['zzz', 'private-one']);
  });

  it('serves unlisted videos by id', () => {
    expect(batch('u').data.map((v) => v.id)).toEqual(['u']);
  });

  it('returns each id once when it is asked for more than once', () => {
    const body = batch('a,b,a,a,nope,nope');
    expect(body.data.map((v) => v.id)).toEqual(['a', 'b']);
    expect(body.missing).toEqual(['nope']);
  });

  it('ignores blanks and spaces around ids', () => {
    expect(batch(' a ,, b ,').data.map((v) => v.id)).toEqual(['a', 'b']);
  });

  it(`accepts ${MAX_BATCH} distinct ids`, () => {
    const ids = many.slice(0, MAX_BATCH).map((v) => v.id);
    expect(MAX_BATCH).toBe(50);
    expect(batch(ids.join(',')).data.map((v) => v.id)).toEqual(ids);
  });

  it('counts ids after removing duplicates, so 51 ids with one repeated are accepted', () => {
    const ids = many.slice(0, MAX_BATCH).map((v) => v.id);
    expect(batch([...ids, ids[0]!].join(',')).data).toHaveLength(MAX_BATCH);
  });

  it(`answers 400 naming ids for ${MAX_BATCH + 1} distinct ids`, () => {
    const ids = many.slice(0, MAX_BATCH + 1).map((v) => v.id).join(',');
    const error = problemOf(() => batch(ids));
    expect(error.status).toBe(400);
    expect(error.errors?.map((e) => e.parameter)).toEqual(['ids']);
  });

  it('answers 400 when no id remains after removing blanks', () => {
    for (const ids of ['', ',', ' , ,']) expect(problemOf(() => batch(ids)).errors?.map((e) => e.parameter)).toEqual(['ids']);
  });

  it('answers 400 when ids is missing', () => {
    expect(problemOf(() => call(batchVideos, model, '')).errors?.map((e) => e.parameter)).toEqual(['ids']);
  });

  it('has one canonical URL for the same ids with duplicates and blanks', () => {
    const canonical = (ids: string) => batchVideos.canonical(batchVideos.parse({}, new URLSearchParams({ ids })));
    expect(canonical('a,,b,a')).toBe(canonical('a,b'));
    expect(canonical('b,a')).not.toBe(canonical('a,b'));
  });
});
