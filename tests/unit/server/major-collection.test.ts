// majorCollection (src/server/major-collection.ts): V8's full collection, made without `gc` on any
// global object.
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { getHeapSpaceStatistics } from 'node:v8';
import { majorCollection } from '../../../src/server/major-collection.ts';

const MB = 1024 * 1024;

/** Bytes in use in V8's heap outside the young generation. */
function oldGenerationUsed(): number {
  let used = 0;
  for (const space of getHeapSpaceStatistics()) if (!space.space_name.startsWith('new_')) used += space.space_used_size;
  return used;
}

describe('majorCollection', () => {
  it("collects V8's old generation without putting gc on any global object", () => {
    const before = Object.getOwnPropertyDescriptor(globalThis, 'gc');
    // 32 MB of elements in the old generation's large object space, then dropped
    let garbage: number[] | undefined = [];
    for (let i = 0; i < 4 * MB; i++) garbage.push(i);
    const grown = oldGenerationUsed();
    expect(garbage.length).toBe(4 * MB);
    garbage = undefined;
    majorCollection();
    expect(oldGenerationUsed()).toBeLessThan(grown - 16 * MB);
    expect(Object.getOwnPropertyDescriptor(globalThis, 'gc')).toEqual(before);
    // nor on a context made afterwards
    expect(runInNewContext('typeof gc')).toBe('undefined');
    majorCollection();
  });
});
