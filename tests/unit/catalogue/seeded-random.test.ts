// The seed's random draws: one stream fixed by its seed, and the weighted and bounded draws taken
// from it, which the demo catalogue's determinism and distributions rest on (docs/catalogue.md, "Seed").
import { describe, expect, it } from 'vitest';
import {
  createSeededRandom, cumulateWeights, cumulateZipfWeights, drawBetween, drawLogNormal, drawSample, hash32, pickWeighted,
} from '../../../src/catalogue/seeded-random.ts';

const stream = (seed: number, n: number) => Array.from({ length: n }, createSeededRandom(seed).next);

describe('createSeededRandom', () => {
  it('gives the same stream for the same seed and another for another seed', () => {
    expect(stream(7, 100)).toEqual(stream(7, 100));
    expect(stream(8, 100)).not.toEqual(stream(7, 100));
  });

  it('draws floats in [0, 1) and integers in [min, max], both ends reached', () => {
    const random = createSeededRandom(1);
    const ints = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const x = random.next();
      expect(x >= 0 && x < 1).toBe(true);
      ints.add(random.int(3, 6));
    }
    expect([...ints].sort()).toEqual([3, 4, 5, 6]);
  });

  it('picks every entry of a list, and nothing outside it', () => {
    const random = createSeededRandom(2);
    const picked = new Set(Array.from({ length: 500 }, () => random.pick(['a', 'b', 'c'])));
    expect([...picked].sort()).toEqual(['a', 'b', 'c']);
  });
});

describe('hash32', () => {
  it('is a bijection on 32-bit integers: no two of 65,536 inputs collide', () => {
    const outputs = new Set(Array.from({ length: 65_536 }, (_, i) => hash32(i * 65_537)));
    expect(outputs.size).toBe(65_536);
    expect(hash32(2 ** 32 + 5)).toBe(hash32(5));
  });
});

describe('weighted draws', () => {
  it('picks by weight: a weight of 0 never, 3 three times as often as 1', () => {
    const sums = cumulateWeights([1, 0, 3]);
    const random = createSeededRandom(3);
    const counts = [0, 0, 0];
    for (let i = 0; i < 20_000; i++) counts[pickWeighted(sums, random)]!++;
    expect(counts[1]).toBe(0);
    expect(counts[2]! / counts[0]!).toBeCloseTo(3, 0);
  });

  it('makes the first of a Zipf list the most common', () => {
    const sums = cumulateZipfWeights(50, 1);
    expect(sums[0]).toBe(1);
    expect(sums[1]).toBe(1.5);
    expect(sums).toHaveLength(50);
  });

  it('caps heavy-tailed counts and draws integers in [from, to)', () => {
    const random = createSeededRandom(4);
    for (let i = 0; i < 1000; i++) {
      expect(drawLogNormal(random, 10, 5, 1000)).toBeLessThanOrEqual(1000);
      const x = drawBetween(random, 10, 13);
      expect(Number.isInteger(x) && x >= 10 && x < 13).toBe(true);
    }
  });

  it('samples distinct entries of the pool without changing it', () => {
    const pool = Array.from({ length: 20 }, (_, i) => i * 10);
    const sample = drawSample(createSeededRandom(5), pool, 8);
    expect(sample).toHaveLength(8);
    expect(new Set(sample).size).toBe(8);
    for (const value of sample) expect(pool).toContain(value);
    expect(pool).toEqual(Array.from({ length: 20 }, (_, i) => i * 10));
    expect(drawSample(createSeededRandom(5), pool, 20).sort((a, b) => a - b)).toEqual(pool);
  });
});
