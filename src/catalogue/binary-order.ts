// SQLite's BINARY collation in JavaScript: text compared byte by byte in UTF-8, which is code point
// order. JavaScript's `<` compares UTF-16 code units, which agrees except where a surrogate pair
// (a code point above U+FFFF) meets a character from U+E000 to U+FFFF; those are mapped into
// place. read-catalogue.ts sorts rows it scanned with it, in the order `ORDER BY` gave them.

/** Orders a character above U+FFFF's surrogates after U+E000–U+FFFF, as code point order does. */
const codePointRank = (unit: number) => (unit >= 0xe000 ? unit - 0x800 : unit + 0x2000);

/** Compares like SQLite's BINARY collation (and `ORDER BY` on a TEXT column). */
export function compareBinary(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return x >= 0xd800 && y >= 0xd800 ? codePointRank(x) - codePointRank(y) : x - y;
  }
  return a.length - b.length;
}

const ALL_BELOW_SURROGATES = /^[\0-\uD7FF]*$/;

/** Sorts in place by a text key in BINARY order; JavaScript's own comparison when no key needs more. */
export function sortBinary<T>(items: T[], keyOf: (item: T) => string): T[] {
  if (items.every((item) => ALL_BELOW_SURROGATES.test(keyOf(item)))) {
    return items.sort((a, b) => {
      const x = keyOf(a);
      const y = keyOf(b);
      return x < y ? -1 : x > y ? 1 : 0;
    });
  }
  return items.sort((a, b) => compareBinary(keyOf(a), keyOf(b)));
}
