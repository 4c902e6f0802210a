// Binary search over a sorted array of numbers or strings (by `<`: code-unit order for strings).

/** The first position in `sorted` whose value is not below `value` (`sorted.length` when none). */
export function lowerBound<T extends number | string>(sorted: ArrayLike<T>, value: T): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
