import { describe, expect, it } from 'vitest';
import { MAX_BATCH } from '../../../src/api/handlers/batch-videos.ts';
import { ALL_TAG, cacheTagHeaders, cacheTagsOf, changedTags, MAX_TAG_LENGTH } from '../../../src/cdn/cache-tags.ts';

describe('cacheTagsOf', () => {
  it('names the video, channel or playlist a page is about', () => {
    expect(cacheTagsOf('/v1/videos/abc')).toEqual([ALL_TAG, 'video:abc']);
    expect(cacheTagsOf('/v1/videos/abc/comments?limit=20')).toEqual([ALL_TAG, 'video:abc', 'list:/v1/videos/abc/comments']);
    expect(cacheTagsOf('/v1/channels/pycon')).toEqual([ALL_TAG, 'channel:pycon']);
    expect(cacheTagsOf('/v1/playlists/p1/videos?limit=20')).toContain('playlist:p1');
  });

  it('names a list by its path and by its query without the paging position, whatever the spelling', () => {
    const tags = cacheTagsOf('/v1/videos?sort=popular&cursor=xyz&limit=5&category=science');
    expect(tags).toEqual([ALL_TAG, 'list:/v1/videos', 'list:/v1/videos?category=science&sort=popular']);
    // defaults filled and parameters ordered as the canonical URL: the same tags
    expect(cacheTagsOf('/v1/videos')).toEqual(cacheTagsOf('/v1/videos?limit=20&sort=latest'));
    expect(cacheTagsOf('/v1/videos?category=science&sort=popular')).toEqual(tags);
  });

  it('names the videos of a batch and of an oEmbed answer', () => {
    expect(cacheTagsOf('/v1/videos/batch?ids=a,b')).toEqual([ALL_TAG, 'video:a', 'video:b']);
    expect(cacheTagsOf(`/oembed?url=${encodeURIComponent('https://videos.example/watch/abc')}`)).toEqual([ALL_TAG, 'oembed', 'video:abc']);
    expect(cacheTagsOf(`/v1/videos/batch?ids=${Array.from({ length: MAX_BATCH + 10 }, (_, i) => `v${i}`).join(',')}`)).toHaveLength(MAX_BATCH + 1);
  });

  it('keeps every tag within the providers\' limits: no space or comma, at most 1,024 characters', () => {
    const hostile = [`/v1/videos/${'x'.repeat(5000)}`, '/v1/videos/a%20b,c', `/v1/videos?category=${'%2C%20'.repeat(2000)}`, '/v1/videos/%E2%82%AC', '/%%%', '//v1//'];
    for (const target of hostile) {
      const tags = cacheTagsOf(target);
      for (const tag of tags) {
        expect(tag.length).toBeLessThanOrEqual(MAX_TAG_LENGTH);
        expect(tag).toMatch(/^[\x21-\x7e]+$/);
        expect(tag).not.toContain(',');
      }
      const [[, cacheTag], [, surrogateKey]] = cacheTagHeaders(target) as [[string, string], [string, string]];
      expect(cacheTag.split(',')).toEqual(tags);
      expect(surrogateKey.split(' ')).toEqual(tags);
      expect(cacheTag.length).toBeLessThanOrEqual(16 * 1024);
    }
    // two long ids that differ only at the end keep distinct tags
    const [long1, long2] = [`/v1/videos/${'x'.repeat(2000)}1`, `/v1/videos/${'x'.repeat(2000)}2`].map((t) => cacheTagsOf(t)[1]);
    expect(long1).not.toBe(long2);
  });
});

describe('changedTags', () => {
  it('lists the tags of the changed URLs once each, sorted, without the tag of every answer', () => {
    const base = 'https://videos.example';
    expect(changedTags([`${base}/v1/videos/b`, `${base}/v1/videos/a/comments?limit=20`, `${base}/v1/videos/a`, `${base}/v1/videos?limit=20&sort=latest`], base)).toEqual([
      'list:/v1/videos', 'list:/v1/videos/a/comments', 'list:/v1/videos?sort=latest', 'video:a', 'video:b',
    ]);
    expect(changedTags([], base)).toEqual([]);
  });
});
