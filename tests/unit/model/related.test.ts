import { describe, expect, it } from 'vitest';
import { computeRelated, MAX_RELATED } from '../../../src/model/related.ts';
import type { PublicVideo } from '../../../src/catalogue/public-catalogue.ts';
import { video } from '../support/fixtures.ts';

const base = video('base', { tags: ['python', 'web'], channel: 'alice', category: 'tech' });
const twoTags = video('two-tags', { tags: ['python', 'web'], channel: 'bob', category: 'music' });
const oneTag = video('one-tag', { tags: ['web'], channel: 'bob', category: 'music' });
const sameCreator = video('same-creator', { tags: ['cooking'], channel: 'alice', category: 'music' });
const sameCategory = video('same-category', { tags: ['cooking'], channel: 'bob', category: 'tech' });
const nothing = video('nothing', { tags: ['cooking'], channel: 'bob', category: 'music' });
const unlisted = video('unlisted', { tags: ['python', 'web'], channel: 'alice', category: 'tech', privacy: 'unlisted' });
const all = [nothing, sameCategory, base, unlisted, oneTag, sameCreator, twoTags];

const flat = (videos: readonly PublicVideo[]) => new Map(videos.map((v) => [v.id, 1]));

/** Related ids by video id; computeRelated answers indexes into the list it is given. */
function relatedOf(videos: readonly PublicVideo[], trending: ReadonlyMap<string, number>): Map<string, string[]> {
  const related = computeRelated(videos, videos.map((v) => trending.get(v.id) ?? 0));
  expect(related).toHaveLength(videos.length);
  return new Map(videos.map((v, i) => [v.id, Array.from(related[i]!, (j) => videos[j]!.id)]));
}

describe('computeRelated', () => {
  it('never lists a video as related to itself', () => {
    const related = relatedOf(all, flat(all));
    for (const v of all) expect(related.get(v.id)).not.toContain(v.id);
  });

  it('lists only public videos', () => {
    const related = relatedOf(all, flat(all));
    const publicIds = new Set(all.filter((v) => v.privacy === 'public').map((v) => v.id));
    for (const ids of related.values()) for (const id of ids) expect(publicIds.has(id)).toBe(true);
    expect(related.get('base')).not.toContain('unlisted');
  });

  it('leaves out videos with nothing in common', () => {
    expect(relatedOf(all, flat(all)).get('base')).not.toContain('nothing');
  });

  it('ranks by shared tags (3 points each), then creator (2), then category (1)', () => {
    expect(relatedOf(all, flat(all)).get('base')).toEqual(['two-tags', 'one-tag', 'same-creator', 'same-category']);
  });

  it('ranks a video sharing a tag above one sharing only the creator or only the category, whatever their trending', () => {
    const trending = new Map([...flat(all)].map(([id]) => [id, id === 'one-tag' ? 0 : 100]));
    const ids = relatedOf(all, trending).get('base')!;
    expect(ids.indexOf('one-tag')).toBeLessThan(ids.indexOf('same-creator'));
    expect(ids.indexOf('one-tag')).toBeLessThan(ids.indexOf('same-category'));
  });

  it('computes related videos for unlisted videos too', () => {
    expect(relatedOf(all, flat(all)).get('unlisted')).toEqual(['base', 'two-tags', 'one-tag', 'same-creator', 'same-category']);
  });

  it('breaks ties in points by trending score, then by id', () => {
    const videos = [base, video('t-c', { tags: ['web'] }), video('t-a', { tags: ['web'] }), video('t-b', { tags: ['web'] })];
    const trending = new Map([['base', 0], ['t-a', 1], ['t-b', 1], ['t-c', 5]]);
    expect(relatedOf(videos, trending).get('base')).toEqual(['t-c', 't-a', 't-b']);
  });

  it('matches tags case-insensitively and counts a repeated tag once', () => {
    const videos = [video('x', { tags: ['Python', 'python'], channel: 'c1' }), video('y', { tags: ['PYTHON'], channel: 'c2' }), video('z', { tags: ['python'], channel: 'c3' })];
    expect(relatedOf(videos, flat(videos)).get('x')).toEqual(['y', 'z']);
  });

  it(`lists at most ${MAX_RELATED} videos`, () => {
    const many = Array.from({ length: 150 }, (_, i) => video(`v${String(i).padStart(3, '0')}`, { tags: ['shared'] }));
    const related = relatedOf(many, flat(many));
    expect(MAX_RELATED).toBe(100);
    for (const ids of related.values()) expect(ids.length).toBe(MAX_RELATED);
    expect(related.get('v000')).toEqual(many.slice(1, 101).map((v) => v.id));
  });

  it('gives the same answer whatever order the catalogue comes in', () => {
    const once = relatedOf(all, flat(all));
    const again = relatedOf([...all].reverse(), flat(all));
    for (const v of all) expect(again.get(v.id)).toEqual(once.get(v.id));
  });

  it('gives an empty list to a video that has nothing in common with any other', () => {
    const lonely = [video('a', { channel: 'c1' }), video('b', { channel: 'c2' })];
    expect(relatedOf(lonely, flat(lonely)).get('a')).toEqual([]);
  });
});
