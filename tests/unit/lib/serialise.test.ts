import { describe, expect, it } from 'vitest';
import { memoiseJson, serialise, serialiseBytes } from '../../../src/lib/serialise.ts';
import { prng } from '../support/fixtures.ts';

/**
 * Random nested values (`make(depth)`): plain objects and arrays down to `depth`, with leaves of
 * every JSON kind, left-out values, one- and two-byte strings and escapes; a share `memoised` of
 * the objects memoised (memoiseJson).
 */
function randomNested(random: () => number, memoised: number): (depth: number) => unknown {
  const leaf = (): unknown => {
    const pick = Math.floor(random() * 8);
    if (pick === 0) return undefined;
    if (pick === 1) return null;
    if (pick === 2) return random() < 0.5;
    if (pick === 3) return Math.floor(random() * 1e6) / 100;
    if (pick === 4) return `two-byte \u201c${Math.floor(random() * 100)}\u201d \ud83c\udfa5`;
    return `s${Math.floor(random() * 1000)}\u00e9"\\\n`;
  };
  const make = (depth: number): unknown => {
    if (depth === 0 || random() < 0.3) return leaf();
    if (random() < 0.5) return Array.from({ length: Math.floor(random() * 4) }, () => make(depth - 1));
    const object: Record<string, unknown> = {};
    for (let i = Math.floor(random() * 5); i > 0; i--) object[`k${Math.floor(random() * 20)}`] = make(depth - 1);
    return random() < memoised ? memoiseJson(object) : object;
  };
  return make;
}

describe('serialise', () => {
  it.each([
    ['a number', 42], ['a negative float', -1.5], ['zero', 0], ['a string', 'text'], ['true', true], ['false', false],
    ['null', null], ['an empty object', {}], ['an empty array', []],
  ])('writes %s as JSON.stringify does', (_name, value) => {
    expect(serialise(value)).toBe(JSON.stringify(value));
  });

  it('escapes strings and keys as JSON.stringify does', () => {
    const value = { 'quote"key\n': 'a "quoted"\\ line\nbreak\u2028\u2029\u0000\ud83d\ude00 \ud800', '\t': '<script>' };
    expect(serialise(value)).toBe(JSON.stringify(value));
  });

  it('leaves out undefined properties at every depth', () => {
    const value = { a: 1, b: undefined, c: { d: undefined, e: [1, { f: undefined, g: 'x' }], h: { i: undefined } } };
    expect(serialise(value)).toBe(JSON.stringify(value));
    expect(serialise(value)).not.toContain('undefined');
  });

  it('writes undefined inside an array as null, as JSON.stringify does', () => {
    const value = [1, undefined, { a: [undefined] }];
    expect(serialise(value)).toBe(JSON.stringify(value));
  });

  it('keeps property order, including integer-like keys', () => {
    const value = { b: 1, a: 2, 10: 'ten', 2: 'two', '3d': true };
    expect(serialise(value)).toBe(JSON.stringify(value));
  });

  it('writes non-finite numbers as null, as JSON.stringify does', () => {
    const value = { a: Number.NaN, b: Number.POSITIVE_INFINITY, c: [-0] };
    expect(serialise(value)).toBe(JSON.stringify(value));
  });

  it('writes memoised resources, alone, nested and repeated, as JSON.stringify does', () => {
    const video = memoiseJson({ id: 'v1', title: 'T', description: undefined, tags: ['a', 'b'], creator: { username: 'u' } });
    const other = memoiseJson({ id: 'v2', nested: { list: [1, 2, { deep: null }] } });
    const page = { data: [video, other, video], paging: { limit: 20, offset: 0, total: 3, nextCursor: null }, extra: undefined };
    expect(serialise(video)).toBe(JSON.stringify(video));
    expect(serialise(page)).toBe(JSON.stringify(page));
    expect(serialise({ data: video })).toBe(JSON.stringify({ data: video }));
  });

  it('returns the resource itself from memoiseJson', () => {
    const resource = { id: 'x' };
    expect(memoiseJson(resource)).toBe(resource);
  });

  it('writes random nested values exactly as JSON.stringify does', () => {
    const make = randomNested(prng(7), 0.3);
    for (let n = 0; n < 300; n++) {
      const value = { root: make(5) };
      expect(serialise(value)).toBe(JSON.stringify(value));
    }
  });
});

describe('serialiseBytes', () => {
  const asString = (value: unknown) => Buffer.from(serialise(value));

  it.each([
    ['a number', 42], ['a string', 'text'], ['true', true], ['null', null], ['an empty object', {}], ['an empty array', []],
    ['a page', { data: [{ id: 'a', n: 1 }, { id: 'b', tags: [] }], paging: { limit: 2, offset: 0, total: 9, nextCursor: 'c' } }],
    ['an empty page', { data: [], paging: { limit: 2, offset: 900, total: 0, nextCursor: null } }],
    ['a page of arrays', { data: [[1, [2]], [], [undefined]] }],
    ['an object without prototype', Object.assign(Object.create(null) as object, { a: [1, { b: 2 }] })],
  ])('writes %s as Buffer.from(serialise()) does', (_name, value) => {
    expect(serialiseBytes(value).equals(asString(value))).toBe(true);
  });

  it('writes a page whose one item needs two bytes a character as the whole string does', () => {
    // one description with a character past U+00FF made the whole page's string two-byte
    const page = { data: [{ id: 'a', description: 'plain' }, { id: 'b', description: 'curly \u201cquote\u201d, \ud83d\ude00, \u2028 \ud800' }, { id: 'c', t: '\u00e9' }], paging: { total: 3 } };
    const bytes = serialiseBytes(page);
    expect(bytes.equals(asString(page))).toBe(true);
    expect(bytes.toString('utf8')).toBe(JSON.stringify(page));
  });

  it('leaves out undefined, function and symbol properties and writes them as null in arrays, at every depth', () => {
    const value = { a: undefined, b: () => 1, c: Symbol('s'), d: [undefined, () => 1, Symbol('t'), { e: undefined, f: [undefined] }], g: 'kept' };
    expect(serialiseBytes(value).toString()).toBe(JSON.stringify(value));
  });

  it('calls toJSON as JSON.stringify does, with the key it is written under', () => {
    const keyed = { toJSON: (key: string) => `key:${key}` };
    const gone = { toJSON: () => undefined };
    const value = { at: new Date(0), data: [new Date(1), keyed, gone], keyed, gone, nested: { keyed } };
    expect(serialiseBytes(value).toString()).toBe(JSON.stringify(value));
    expect(serialiseBytes(keyed).toString()).toBe(JSON.stringify(keyed));
    expect(serialiseBytes([gone, keyed]).toString()).toBe(JSON.stringify([gone, keyed]));
  });

  it('writes class instances and memoised resources as serialise does', () => {
    class Point {
      readonly x: number;
      readonly y: number;
      constructor(x: number, y: number) { this.x = x; this.y = y; }
    }
    const video = memoiseJson({ id: 'v1', tags: ['a'], creator: { username: 'u' } });
    const values = [{ data: [new Point(1, 2)] }, { data: [video, { id: 'v2' }], paging: { total: 2 } }, new Point(3, 4), [video]];
    for (const value of values) expect(serialiseBytes(value).equals(asString(value))).toBe(true);
  });

  it('fails as JSON.stringify does on what JSON cannot write', () => {
    expect(() => serialiseBytes({ data: [{ n: 1n }] })).toThrow(TypeError);
  });

  it('writes random nested values at every depth exactly as Buffer.from(serialise()) does', () => {
    const make = randomNested(prng(11), 0.1);
    for (let n = 0; n < 300; n++) {
      const value = make(5);
      for (const depth of [0, 1, 2, 3, 6]) expect(serialiseBytes(value, depth).equals(asString(value))).toBe(true);
    }
  });
});
