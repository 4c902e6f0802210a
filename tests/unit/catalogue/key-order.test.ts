// Rows put in the order of their key's index as they are scanned (key-order.ts), in place of a sort:
// the same order as SQLite's ORDER BY, whatever the rowids (dense, sparse, reused) and the keys
// (where UTF-16 and UTF-8 order part).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keyOrder } from '../../../src/catalogue/key-order.ts';
import { openCatalogue, type Catalogue } from '../../../src/catalogue/open-catalogue.ts';

let db: Catalogue;
beforeEach(() => {
  db = openCatalogue(':memory:');
  db.exec('CREATE TEMP TABLE t (id TEXT PRIMARY KEY, n INTEGER)');
});
afterEach(() => db.close());

/** The ids of the rows `keep` accepts, put as a storage-order scan gives them. */
function putInOrder(keep: (id: string) => boolean = () => true): string[] {
  const order = keyOrder<string>(db, 't', 'id');
  for (const [rowid, id] of db.prepare('SELECT rowid, id FROM t').raw().iterate() as Iterable<[number, string]>) if (keep(id)) order.put(rowid, id);
  return order.items();
}

const ordered = (where = '') => db.prepare(`SELECT id FROM t ${where} ORDER BY id`).pluck().all() as string[];

describe('keyOrder', () => {
  const KEYS = ['zeta', 'Alpha', 'mid', '\u{1f600}', '\uffee', 'a', 'b-2', 'b-10'];
  const insert = (id: string, rowid?: number) => db.prepare('INSERT INTO t (rowid, id, n) VALUES (?, ?, 0)').run(rowid ?? null, id);

  it('gives the rows in the order of ORDER BY the key, not the order they were written in', () => {
    for (const key of KEYS) insert(key);
    expect(ordered()).not.toEqual(KEYS);
    expect(putInOrder()).toEqual(ordered());
  });

  it('leaves no gap for the rows not put (those a filter left out)', () => {
    for (const key of KEYS) insert(key);
    expect(putInOrder((id) => id !== 'mid' && id !== 'a')).toEqual(ordered("WHERE id NOT IN ('mid', 'a')"));
    expect(putInOrder(() => false)).toEqual([]);
  });

  it('places rows whose rowids are sparse (a map, not an array) or were reused after deletes', () => {
    KEYS.forEach((key, i) => insert(key, i === 3 ? 2 ** 40 : i * 1000 + 7));
    expect(putInOrder()).toEqual(ordered());
    db.exec("DELETE FROM t WHERE id IN ('zeta', 'a')");
    insert('aa', 7);
    insert('zz');
    expect(putInOrder()).toEqual(ordered());
  });

  it('gives an empty table no rows', () => {
    expect(putInOrder()).toEqual([]);
  });

  it('refuses a row the index did not give (never a record put out of place)', () => {
    for (const key of KEYS) insert(key);
    const order = keyOrder<string>(db, 't', 'id');
    expect(() => order.put(999, 'ghost')).toThrow(/rowid 999/);
    expect(() => order.put(-1, 'ghost')).toThrow(/rowid -1/);
  });
});
