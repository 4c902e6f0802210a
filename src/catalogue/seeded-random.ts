// Seeded random draws for the synthetic demo catalogue (docs/catalogue.md, "Seed"): one generator
// whose stream of numbers is fixed by its seed, and the weighted and heavy-tailed draws the record
// makers take from it. Every draw consumes numbers from the one stream in a fixed order, so the same
// seed gives the same catalogue.

export interface SeededRandom {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(list: readonly T[]): T;
  /** A standard normal deviate. */
  normal(): number;
}

/** mulberry32: a small, fast 32-bit generator, plenty for demo data. */
export function createSeededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T,
    normal: () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next()),
  };
}

/** MurmurHash3's finaliser (fmix32): a bijection on 32-bit integers that scatters their bits. */
export function hash32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Cumulative weights, for picking by binary search. */
export function cumulateWeights(weights: readonly number[]): Float64Array {
  const sums = new Float64Array(weights.length);
  let total = 0;
  weights.forEach((weight, i) => { total += weight; sums[i] = total; });
  return sums;
}

/** An index drawn with the probabilities of the weights whose cumulative sums are `sums`. */
export function pickWeighted(sums: Float64Array, random: SeededRandom): number {
  const target = random.next() * (sums[sums.length - 1] ?? 0);
  let lo = 0;
  let hi = sums.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sums[mid] ?? 0) > target) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Cumulative Zipf weights 1/rank^s of `n` entries: the first entries of a list are picked most often. */
export const cumulateZipfWeights = (n: number, s: number): Float64Array => cumulateWeights(Array.from({ length: n }, (_, i) => 1 / (i + 1) ** s));

/** A heavy-tailed count: e^(mu + sigma·z), capped. */
export const drawLogNormal = (random: SeededRandom, mu: number, sigma: number, cap: number): number =>
  Math.min(cap, Math.floor(Math.exp(mu + sigma * random.normal())));

/** An integer in [from, to). */
export const drawBetween = (random: SeededRandom, from: number, to: number): number => from + Math.floor(random.next() * (to - from));

/** `size` distinct entries of `pool`, in a random order (partial Fisher-Yates on a copy). */
export function drawSample(random: SeededRandom, pool: readonly number[], size: number): number[] {
  const copy = pool.slice();
  for (let i = 0; i < size; i++) {
    const j = i + Math.floor(random.next() * (copy.length - i));
    const swap = copy[j] as number;
    copy[j] = copy[i] as number;
    copy[i] = swap;
  }
  return copy.slice(0, size);
}
