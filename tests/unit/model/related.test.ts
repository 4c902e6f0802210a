import fc from 'fast-check';
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

/**
 * The rule of api-contract.md §2 written plainly, for comparison: every public video other than the
 * video itself among the first MAX_RELATED + 1 (by trending, then id) of each key it shares, scored
 * 3 a tag, 2 the creator, 1 the category; best first, ties by that same rank.
 */
function relatedByRule(videos: readonly PublicVideo[], trending: readonly number[]): string[][] {
  const ranked = videos.map((v, i) => ({ v, t: trending[i]! })).filter((x) => x.v.privacy === 'public')
    .sort((a, b) => b.t - a.t || (a.v.id < b.v.id ? -1 : a.v.id > b.v.id ? 1 : 0)).map((x) => x.v);
  const tagsOf = (v: PublicVideo) => [...new Set(v.tags.map((t) => t.toLowerCase()))];
  const firstWith = (has: (v: PublicVideo) => boolean) => ranked.filter(has).slice(0, MAX_RELATED + 1);
  return videos.map((video) => {
    const points = new Map<PublicVideo, number>();
    const add = (list: PublicVideo[], value: number) => { for (const v of list) points.set(v, (points.get(v) ?? 0) + value); };
    for (const tag of tagsOf(video)) add(firstWith((v) => tagsOf(v).includes(tag)), 3);
    add(firstWith((v) => v.channel === video.channel), 2);
    if (video.category !== undefined) add(firstWith((v) => v.category === video.category), 1);
    points.delete(video);
    return [...points].sort((a, b) => b[1] - a[1] || ranked.indexOf(a[0]) - ranked.indexOf(b[0])).slice(0, MAX_RELATED).map(([v]) => v.id);
  });
}

describe('computeRelated on any catalogue', () => {
  it('gives what the rule gives, caps on common keys and ties included', () => {
    const catalogue = fc.array(fc.record({
      tags: fc.array(fc.constantFrom('a', 'A', 'b', 'c', 'd'), { maxLength: 3 }),
      channel: fc.constantFrom('c1', 'c2', 'c3'),
      category: fc.option(fc.constantFrom('k1', 'k2'), { nil: undefined }),
      privacy: fc.constantFrom('public', 'public', 'public', 'unlisted'),
      trending: fc.integer({ min: 0, max: 5 }),
    }), { minLength: 120, maxLength: 260 });
    fc.assert(fc.property(catalogue, (records) => {
      const videos = records.map((r, i) => video(`v${(i * 7919) % 1000}-${i}`, { tags: r.tags, channel: r.channel, category: r.category, privacy: r.privacy as 'public' | 'unlisted' }));
      const trending = records.map((r) => r.trending);
      const related = computeRelated(videos, trending).map((list) => Array.from(list, (j) => videos[j]!.id));
      expect(related).toEqual(relatedByRule(videos, trending));
    }), { numRuns: 40 });
  });
});
