// binary-order.ts sorts the rows read-catalogue.ts scanned in the order SQLite's `ORDER BY` on a
// TEXT column gives (BINARY collation, UTF-8 bytes): the model, and so the snapshot's bytes, follow it.
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareBinary, sortBinary } from '../../../src/catalogue/binary-order.ts';

/** The order SQLite itself gives the texts. */
function sqliteOrder(texts: readonly string[]): string[] {
  const db = new Database(':memory:');
  try {
    db.exec('CREATE TABLE t (v TEXT NOT NULL) STRICT');
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    for (const text of texts) insert.run(text);
    return db.prepare('SELECT v FROM t ORDER BY v').pluck().all() as string[];
  } finally {
    db.close();
  }
}

// characters where UTF-16 and UTF-8 orders part: a surrogate pair (U+1F600) sorts after U+FFFD in
// UTF-8 and before it in UTF-16
const TRICKY = ['a', 'B', '\u00e9', '\uff21', '\ufffd', '\ue000', '\u{1f600}', '\u{10000}', '\u{1f600}x', 'a\u{1f600}', 'a\uffff', ''];

describe('sortBinary', () => {
  it('orders ASCII keys as SQLite does', () => {
    const keys = ['v10', 'v2', 'V1', 'v1', 'a-b', 'a.b', 'a_b', 'ab', '0'];
    expect(sortBinary([...keys], (k) => k)).toEqual(sqliteOrder(keys));
  });

  it('orders characters above U+FFFF after U+E000–U+FFFF, as SQLite does and JavaScript does not', () => {
    expect([...TRICKY].sort()).not.toEqual(sqliteOrder(TRICKY));
    expect(sortBinary([...TRICKY], (k) => k)).toEqual(sqliteOrder(TRICKY));
  });

  it('agrees with SQLite on any well-formed text', () => {
    fc.assert(fc.property(fc.array(fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom(...TRICKY)), { maxLength: 40 }), (texts) => {
      const wellFormed = texts.filter((t) => t.isWellFormed());
      expect(sortBinary([...wellFormed], (k) => k)).toEqual(sqliteOrder(wellFormed));
    }), { numRuns: 200 });
  });

  it('sorts items by their key, keeping equal keys in their order', () => {
    const items = [{ k: 'b', n: 1 }, { k: 'a', n: 2 }, { k: 'b', n: 3 }, { k: '\u{1f600}', n: 4 }, { k: '\uffff', n: 5 }];
    expect(sortBinary(items, (i) => i.k).map((i) => i.n)).toEqual([2, 1, 3, 5, 4]);
  });
});

describe('compareBinary', () => {
  it('is zero for equal texts and puts a prefix first', () => {
    expect(compareBinary('abc', 'abc')).toBe(0);
    expect(compareBinary('ab', 'abc')).toBeLessThan(0);
    expect(compareBinary('abc', 'ab')).toBeGreaterThan(0);
  });
});
