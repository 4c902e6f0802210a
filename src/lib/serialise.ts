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

/**
 * `serialise(value)` as UTF-8 bytes, the same bytes as `Buffer.from(serialise(value))`. An answer's
 * body (a page: `{"data":[…],"paging":{…}}`) is written item by item into one buffer instead of as
 * one string: a page with a single character past U+00FF anywhere (a curly quote in one
 * description of 27) made the whole page's string two bytes a character, and JSON.stringify's
 * parts and their flattened copy were young garbage of ~60 KB a first list answer (22 KB of JSON),
 * where item by item each item's string is one byte a character unless that item needs two:
 * half the garbage and a fifth less CPU (docs/performance.md, "The first list answers, thirteenth
 * round"). Plain objects and arrays are opened down to `depth` (2: the body, its arrays, their
 * items); below, and for anything else (a toJSON, a class instance, memoised resources), the
 * string path writes the piece.
 */
export function serialiseBytes(value: unknown, depth = 2): Buffer {
  // a body holding memoised resources keeps the walk above (its output differs from
  // JSON.stringify's only in values no resource has, but it is the output these answers have)
  if (value === null || typeof value !== 'object' || hasToJson(value) || holdsMemo(value)) return Buffer.from(serialise(value));
  const pieces: string[] = [];
  writePieces(value, depth, pieces);
  let length = 0;
  for (const piece of pieces) length += Buffer.byteLength(piece);
  const bytes = Buffer.alloc(length);
  let at = 0;
  for (const piece of pieces) at += bytes.write(piece, at);
  // every byte counted was written (byteLength and write agree on every string, lone surrogates included)
  if (at !== length) throw new Error(`serialiseBytes wrote ${at} of ${length} bytes`);
  return bytes;
}

/** Whether `value` has a toJSON method (JSON.stringify writes what it returns, and passes it the property's key). */
const hasToJson = (value: unknown): boolean =>
  value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function';

/**
 * Whether `value` can be written piece by piece as JSON.stringify writes it whole: a plain object
 * or an array, without a toJSON of its own or on any of its values (a toJSON is called with the
 * key it is written under, which a piece written on its own would not pass).
 */
function opens(value: object): boolean {
  if (!Array.isArray(value)) {
    const prototype: unknown = Object.getPrototypeOf(value);
    if ((prototype !== Object.prototype && prototype !== null) || hasToJson(value)) return false;
  }
  for (const item of Array.isArray(value) ? value : Object.values(value)) if (hasToJson(item)) return false;
  return true;
}

/** JSON.stringify leaves these out of an object and writes them as null in an array. */
const isOmitted = (value: unknown): boolean => value === undefined || typeof value === 'function' || typeof value === 'symbol';

/** `value` (holding no memoised resource) as JSON.stringify writes it, in pieces: containers opened down to `depth`. */
function writePieces(value: unknown, depth: number, pieces: string[]): void {
  if (depth === 0 || value === null || typeof value !== 'object' || !opens(value)) {
    // never a toJSON here (opens), so never undefined: a function or symbol was left out above
    pieces.push(JSON.stringify(value));
    return;
  }
  if (Array.isArray(value)) {
    pieces.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) pieces.push(',');
      const item: unknown = value[i];
      if (isOmitted(item)) pieces.push('null');
      else writePieces(item, depth - 1, pieces);
    }
    pieces.push(']');
    return;
  }
  let first = true;
  for (const [key, item] of Object.entries(value)) {
    if (isOmitted(item)) continue;
    pieces.push(`${first ? '{' : ','}${JSON.stringify(key)}:`);
    first = false;
    writePieces(item, depth - 1, pieces);
  }
  pieces.push(first ? '{}' : '}');
}

/**
 * Whether a memoised resource is anywhere in `value`, itself included. Walked without allocating
 * (an index loop, for-in over own keys): with `Object.values` the walk made an array for every
 * object of an answer, ~28 KB of young garbage a first list page of 27 videos, half of what
 * serialising it made (docs/performance.md, "The first list answers, thirteenth round").
 */
function holdsMemo(value: object): boolean {
  if (memo.has(value)) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (item !== null && typeof item === 'object' && holdsMemo(item)) return true;
    }
    return false;
  }
  // own enumerable string keys, as Object.values gives them
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const item: unknown = (value as Record<string, unknown>)[key];
    if (item !== null && typeof item === 'object' && holdsMemo(item)) return true;
  }
  return false;
}
