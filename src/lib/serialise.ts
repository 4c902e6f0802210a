// JSON bodies, serialised one way for static and dynamic answers alike. Resources built once by
// the model are memoised as JSON text, so a page of 50 videos costs 50 string joins, not 50
// stringifications. The output equals JSON.stringify of the same value.
const memo = new WeakMap<object, string>();

/** Marks a finished, never-mutated resource so its JSON is computed once. */
export function memoiseJson<T extends object>(resource: T): T {
  memo.set(resource, JSON.stringify(resource));
  return resource;
}

export function serialise(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  const cached = memo.get(value);
  if (cached !== undefined) return cached;
  // A subtree holding no memoised resource is written natively: a page of 27 videos with long
  // descriptions took 2.2 ms value by value, 0.9 ms so (docs/performance.md, "List indexes").
  if (!holdsMemo(value)) return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(serialise).join(',')}]`;
  const parts: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    if (item !== undefined) parts.push(`${JSON.stringify(key)}:${serialise(item)}`);
  }
  return `{${parts.join(',')}}`;
}

/** Whether a memoised resource is anywhere in `value`, itself included. */
function holdsMemo(value: object): boolean {
  if (memo.has(value)) return true;
  for (const item of Array.isArray(value) ? value : Object.values(value)) {
    if (item !== null && typeof item === 'object' && holdsMemo(item)) return true;
  }
  return false;
}
