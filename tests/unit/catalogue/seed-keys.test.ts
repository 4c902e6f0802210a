// The seed's ids: YouTube-like, yet strictly ascending in the order they are made, so the catalogue's
// B-trees are written append-only (docs/catalogue.md, "Seed").
import { describe, expect, it } from 'vitest';
import { Key } from '../../../src/catalogue/records.ts';
import { makeOrderedKey, type KeyLayout } from '../../../src/catalogue/seed-keys.ts';

const layout: KeyLayout = { prefix: 'PL', length: 16, capacity: 1000, salt: 99 };
/** The byte order SQLite compares TEXT keys in. */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

describe('makeOrderedKey', () => {
  it('gives keys of the prefix and length, valid catalogue keys, not starting with "-"', () => {
    const video: KeyLayout = { prefix: '', length: 11, capacity: 5000, salt: 1 };
    for (let i = 0; i < 5000; i += 7) {
      const key = makeOrderedKey(i, video);
      expect(key).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{10}$/);
      expect(Key.safeParse(key).success).toBe(true);
    }
    expect(makeOrderedKey(3, layout)).toMatch(/^PL[A-Za-z0-9_-]{16}$/);
  });

  it('is strictly ascending in the index, within capacity and past it', () => {
    const keys = Array.from({ length: 1500 }, (_, i) => makeOrderedKey(i, layout));
    expect(new Set(keys).size).toBe(1500);
    expect([...keys].sort(byBytes)).toEqual(keys);
  });

  it('spreads keys over the whole range, so they look random', () => {
    const first = new Set(Array.from({ length: 1000 }, (_, i) => makeOrderedKey(i, layout).charAt(2)));
    expect(first.size).toBeGreaterThan(50);
  });

  it('depends on the salt, and on nothing else but the index', () => {
    expect(makeOrderedKey(10, layout)).toBe(makeOrderedKey(10, { ...layout }));
    expect(makeOrderedKey(10, { ...layout, salt: 100 })).not.toBe(makeOrderedKey(10, layout));
  });

  it('refuses an index past the range its head can spell, rather than repeat a key', () => {
    const last = layout.capacity + 132_120_575;
    expect(makeOrderedKey(last, layout).startsWith('PLz')).toBe(true);
    expect(() => makeOrderedKey(last + 1, layout)).toThrow('more than 1000 keys with prefix "PL"');
  });
});
