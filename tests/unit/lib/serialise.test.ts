import { describe, expect, it } from 'vitest';
import { memoiseJson, serialise } from '../../../src/lib/serialise.ts';
import { prng } from '../support/fixtures.ts';

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
    const random = prng(7);
    const leaf = (): unknown => {
      const pick = Math.floor(random() * 7);
      if (pick === 0) return undefined;
      if (pick === 1) return null;
      if (pick === 2) return random() < 0.5;
      if (pick === 3) return Math.floor(random() * 1e6) / 100;
      return `s${Math.floor(random() * 1000)}\u00e9"\\`;
    };
    const make = (depth: number): unknown => {
      if (depth === 0 || random() < 0.3) return leaf();
      if (random() < 0.5) return Array.from({ length: Math.floor(random() * 4) }, () => make(depth - 1));
      const object: Record<string, unknown> = {};
      for (let i = Math.floor(random() * 5); i > 0; i--) object[`k${Math.floor(random() * 20)}`] = make(depth - 1);
      return random() < 0.3 ? memoiseJson(object) : object;
    };
    for (let n = 0; n < 300; n++) {
      const value = { root: make(5) };
      expect(serialise(value)).toBe(JSON.stringify(value));
    }
  });
});
