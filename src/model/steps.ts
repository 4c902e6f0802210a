// Work cut into steps: a generator that yields (undefined) wherever its caller may pause, so the
// server can build a model between requests (src/server/snapshot-store.ts runs such steps in slices
// of a few milliseconds) while the build and tools run the same code at once with `runSteps`.
// docs/reliability.md, "Snapshots".

export type Steps<T> = Generator<undefined, T, undefined>;

/** Runs steps to the end at once, without pausing. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Items handled between two chances to pause in the model's loops. */
export const STEP_ITEMS = 128;

/** Runs of this many items are sorted in one step, then merged a few thousand items a step. */
const RUN = 1024;

/**
 * A copy of `items` sorted by `compare`, in steps: sorted runs of RUN items, then merged pairwise.
 * Stable, like Array.prototype.sort, so for a total order (every comparator of the model breaks
 * ties by id) the result is the same as `[...items].sort(compare)`.
 */
export function* sortInSteps<T>(items: readonly T[], compare: (a: T, b: T) => number): Steps<T[]> {
  const n = items.length;
  let from: T[] = new Array<T>(n);
  for (let start = 0; start < n; start += RUN) {
    const run = items.slice(start, start + RUN).sort(compare);
    for (let i = 0; i < run.length; i++) from[start + i] = run[i]!;
    yield;
  }
  let to: T[] = new Array<T>(n);
  for (let width = RUN; width < n; width *= 2) {
    let sinceStep = 0;
    for (let left = 0; left < n; left += 2 * width) {
      const middle = Math.min(left + width, n);
      const end = Math.min(left + 2 * width, n);
      let i = left;
      let j = middle;
      let k = left;
      while (i < middle && j < end) {
        // `<= 0` takes the left item on a tie: stable
        to[k++] = compare(from[i]!, from[j]!) <= 0 ? from[i++]! : from[j++]!;
        if (++sinceStep === 4 * RUN) {
          sinceStep = 0;
          yield;
        }
      }
      while (i < middle) to[k++] = from[i++]!;
      while (j < end) to[k++] = from[j++]!;
    }
    [from, to] = [to, from];
    yield;
  }
  return from;
}
