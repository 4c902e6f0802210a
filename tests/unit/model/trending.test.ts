import { describe, expect, it } from 'vitest';
import { referenceTime, TRENDING_HALF_LIFE_DAYS, trendingScore } from '../../../src/model/trending.ts';
import { video } from '../support/fixtures.ts';

const DAY = 86_400_000;
const REFERENCE = Date.parse('2026-03-01T00:00:00Z');
const daysBefore = (days: number) => new Date(REFERENCE - days * DAY).toISOString().replace('.000Z', 'Z');

describe('trendingScore', () => {
  it('rises with views', () => {
    let previous = -1;
    for (const views of [0, 1, 10, 100, 10_000, 1_000_000]) {
      const score = trendingScore(video('v', { views, publishedAt: daysBefore(1) }), REFERENCE);
      expect(score).toBeGreaterThan(previous);
      previous = score;
    }
  });

  it('rises with likes', () => {
    let previous = -1;
    for (const likes of [0, 1, 10, 100, 10_000]) {
      const score = trendingScore(video('v', { views: 500, likes, publishedAt: daysBefore(1) }), REFERENCE);
      expect(score).toBeGreaterThan(previous);
      previous = score;
    }
  });

  it('decays with age', () => {
    let previous = Number.POSITIVE_INFINITY;
    for (const days of [0, 1, 7, 14, 30, 365]) {
      const score = trendingScore(video('v', { views: 1000, likes: 50, publishedAt: daysBefore(days) }), REFERENCE);
      expect(score).toBeLessThan(previous);
      previous = score;
    }
  });

  it('halves every half-life', () => {
    const fresh = trendingScore(video('v', { views: 1000, likes: 50, publishedAt: daysBefore(0) }), REFERENCE);
    const old = trendingScore(video('v', { views: 1000, likes: 50, publishedAt: daysBefore(TRENDING_HALF_LIFE_DAYS) }), REFERENCE);
    expect(old).toBeCloseTo(fresh / 2, 10);
  });

  it('scores a video without views or likes 0', () => {
    expect(trendingScore(video('v', { publishedAt: daysBefore(0) }), REFERENCE)).toBe(0);
  });

  it('does not reward a date after the reference time', () => {
    const now = trendingScore(video('v', { views: 10, publishedAt: daysBefore(0) }), REFERENCE);
    const future = trendingScore(video('v', { views: 10, publishedAt: daysBefore(-5) }), REFERENCE);
    expect(future).toBe(now);
  });

  it('gives the same score for the same video and reference, whenever it runs', () => {
    const v = video('v', { views: 1234, likes: 56, publishedAt: daysBefore(3) });
    expect(trendingScore(v, REFERENCE)).toBe(trendingScore({ ...v }, REFERENCE));
    expect(Number.isFinite(trendingScore(v, REFERENCE))).toBe(true);
  });
});

describe('referenceTime', () => {
  it('is the newest publishedAt of the catalogue, not the clock', () => {
    const videos = [video('a', { publishedAt: daysBefore(3) }), video('b', { publishedAt: daysBefore(0) }), video('c', { publishedAt: daysBefore(9) })];
    expect(referenceTime(videos)).toBe(REFERENCE);
    expect(referenceTime([...videos].reverse())).toBe(REFERENCE);
  });
});
