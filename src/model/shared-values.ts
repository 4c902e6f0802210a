// Repeated values held once. The model keeps the catalogue's public records for as long as it
// serves, and JSON.parse gives every occurrence of "public", a category, a language, a tag or a
// media type its own string, and every video its own copy of the same sources list: at 100,000
// videos that is hundreds of thousands of strings and objects the garbage collector marks again
// and again (docs/architecture.md, "One representation per video"). A sharer is used while a
// model is built and dropped with its maps afterwards.

/** Strings longer than this are not looked up: long texts rarely repeat, and hashing them costs. */
const SHARED_TEXT_MAX = 64;

export interface Sharer {
  /** the first equal string seen, when short */
  text<T extends string | undefined>(value: T): T;
  /** the first equal list seen (compared as JSON), its strings shared; never mutated */
  list<T>(items: readonly T[]): readonly T[];
}

export function createSharer(): Sharer {
  const texts = new Map<string, string>();
  const lists = new Map<string, readonly unknown[]>();
  const text = <T extends string | undefined>(value: T): T => {
    if (value === undefined || value.length > SHARED_TEXT_MAX) return value;
    const seen = texts.get(value);
    if (seen !== undefined) return seen as T;
    texts.set(value, value);
    return value;
  };
  const shareStrings = (value: unknown): unknown => {
    if (typeof value === 'string') return text(value);
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map(shareStrings);
    const copy: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) copy[k] = shareStrings(v);
    return copy;
  };
  return {
    text,
    list<T>(items: readonly T[]): readonly T[] {
      if (items.length === 0) return EMPTY as readonly T[];
      const key = JSON.stringify(items);
      const seen = lists.get(key);
      if (seen !== undefined) return seen as readonly T[];
      const shared = Object.freeze(items.map(shareStrings)) as readonly T[];
      lists.set(key, shared);
      return shared;
    },
  };
}

const EMPTY: readonly never[] = Object.freeze([]);
