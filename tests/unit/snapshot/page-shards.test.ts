// Which shard a page goes to (src/snapshot/page-shards.ts): a function of its key alone, a video's
// pages together, a collection's list pages spread, and a number of shards that grows with the
// catalogue in powers of two.
import { describe, expect, it } from 'vitest';
import { hashKey, MAX_SHARDS, MIN_SHARDS, shardCountFor, shardKeyOf, shardOf } from '../../../src/snapshot/page-shards.ts';

describe('shardKeyOf', () => {
  it('is the resource a page belongs to: the first three path segments, or the whole key of a collection\'s own page', () => {
    expect(shardKeyOf('/v1/videos/abc')).toBe('/v1/videos/abc');
    expect(shardKeyOf('/v1/videos/abc/playback')).toBe('/v1/videos/abc');
    expect(shardKeyOf('/v1/videos/abc/comments?limit=20')).toBe('/v1/videos/abc');
    expect(shardKeyOf('/v1/channels/bob/videos?cursor=x&limit=20')).toBe('/v1/channels/bob');
    expect(shardKeyOf('/v1/videos?limit=20&sort=latest')).toBe('/v1/videos?limit=20&sort=latest');
    expect(shardKeyOf('/v1/categories')).toBe('/v1/categories');
  });
});

describe('shardOf', () => {
  it('puts a video\'s pages in one shard and spreads list pages over all shards, about evenly', () => {
    const shards = 16;
    for (const id of ['a', 'b', 'x.y', 'é']) {
      const shard = shardOf(`/v1/videos/${id}`, shards);
      expect(shardOf(`/v1/videos/${id}/playback`, shards)).toBe(shard);
      expect(shardOf(`/v1/videos/${id}/comments?limit=20`, shards)).toBe(shard);
    }
    const counts = new Array<number>(shards).fill(0);
    for (let i = 0; i < 16_000; i++) counts[shardOf(`/v1/videos?cursor=${i.toString(36)}&limit=20&sort=latest`, shards)]!++;
    for (const count of counts) expect(count).toBeGreaterThan(800);
    for (const count of counts) expect(count).toBeLessThan(1200);
  });

  it('is a fixed function of the key (the hash is FNV-1a of its UTF-16 code units)', () => {
    expect(hashKey('')).toBe(0x811c9dc5);
    expect(hashKey('a')).toBe(0xe40c292c);
    expect(hashKey('foobar')).toBe(0xbf9cf968);
    expect(shardOf('/v1/videos/abc/playback', 8)).toBe(hashKey('/v1/videos/abc') & 7);
  });
});

describe('shardCountFor', () => {
  it('grows with the catalogue in powers of two, within bounds', () => {
    expect(shardCountFor(0)).toBe(MIN_SHARDS);
    expect(shardCountFor(5_000)).toBe(8);
    expect(shardCountFor(21_348)).toBe(32);
    expect(shardCountFor(98_966)).toBe(128);
    expect(shardCountFor(1_000_000)).toBe(MAX_SHARDS);
    for (let videos = 0; videos < 400_000; videos += 7_919) {
      const n = shardCountFor(videos);
      expect(n & (n - 1)).toBe(0);
      expect(shardCountFor(videos + 1)).toBeGreaterThanOrEqual(n);
    }
  });
});
