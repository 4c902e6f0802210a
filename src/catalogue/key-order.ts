// Rows put in the order of their table's key without sorting them (docs/performance.md, "The
// catalogue read and the model's records"). read-catalogue.ts scans a table in storage order (an
// `ORDER BY id` would walk the key's index with one table lookup a row) and used to sort the
// records it made in BINARY order: a third of the time of reading the videos and the comments.
// The key's index already holds that order, and with it every row's rowid: `SELECT rowid FROM t
// ORDER BY key` is a scan of the index alone (a covering index: no table lookup, about 20 ms for
// 250,000 rows), which gives each rowid its place; the scan of the table then puts each record in
// its place as its row comes. The order is SQLite's own (the index's collation, BINARY for every
// key of the catalogue), read in the same transaction as the rows.
import type { Catalogue } from './open-catalogue.ts';

/** Rowids up to this many times the rows (and a margin) are placed through an array; sparser ones through a map. */
const DENSE = 4;

/** Where each row of a table goes in the order of its key: put records by rowid, take them in order. */
export interface KeyOrder<T> {
  /** puts the record of the row with this rowid in its place (a rowid the index did not give is an error) */
  put(rowid: number, item: T): void;
  /** the records put, in the order of the key (rows not put leave no gap) */
  items(): T[];
}

/**
 * The order of `table`'s rows by `key`, a column with a unique index (a primary key), as that index
 * holds it. `table` and `key` are this code's own names, never input.
 */
export function keyOrder<T>(db: Catalogue, table: string, key: string): KeyOrder<T> {
  const rowids = db.prepare(`SELECT rowid FROM ${table} ORDER BY ${key}`).pluck().all() as number[];
  let max = 0;
  for (const rowid of rowids) if (rowid > max) max = rowid;
  const placeOf: (rowid: number) => number | undefined = max <= DENSE * rowids.length + 1024 && rowids.every((r) => r >= 0)
    ? denseRanks(rowids, max)
    : sparseRanks(rowids);
  const slots = new Array<T | undefined>(rowids.length);
  let put = 0;
  return {
    put(rowid, item) {
      const place = placeOf(rowid);
      if (place === undefined) throw new Error(`${table}: a row (rowid ${rowid}) that the index of ${key} does not hold`);
      slots[place] = item;
      put++;
    },
    items() {
      if (put === slots.length) return slots as T[];
      const items: T[] = [];
      for (const item of slots) if (item !== undefined) items.push(item);
      return items;
    },
  };
}

function denseRanks(rowids: readonly number[], max: number): (rowid: number) => number | undefined {
  const ranks = new Int32Array(max + 1).fill(-1);
  for (let i = 0; i < rowids.length; i++) ranks[rowids[i]!] = i;
  return (rowid) => {
    const rank = rowid >= 0 && rowid <= max ? ranks[rowid]! : -1;
    return rank === -1 ? undefined : rank;
  };
}

function sparseRanks(rowids: readonly number[]): (rowid: number) => number | undefined {
  const ranks = new Map<number, number>();
  for (let i = 0; i < rowids.length; i++) ranks.set(rowids[i]!, i);
  return (rowid) => ranks.get(rowid);
}
