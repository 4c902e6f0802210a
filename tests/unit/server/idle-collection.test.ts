// collectWhenIdle (src/server/idle-collection.ts): V8's major collections made while no request is
// answered, once the old generation has grown, never while answers are being given.
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { collectWhenIdle, IDLE_GROWTH_BYTES, IDLE_INTERVAL_MS, majorCollection, oldGenerationUsed } from '../../../src/server/idle-collection.ts';

const MB = 1024 * 1024;

function world() {
  const state = { answered: 0, used: 100 * MB, collections: 0 };
  const collector = collectWhenIdle({
    answered: () => state.answered,
    oldGenerationUsed: () => state.used,
    collect: () => {
      state.collections += 1;
      state.used = 100 * MB; // what a collection leaves: the live size
    },
  });
  return { state, collector };
}

beforeEach(() => { vi.useFakeTimers(); });
afterEach(() => { vi.useRealTimers(); });

describe('collectWhenIdle', () => {
  it('collects at the first idle interval, then only once the old generation has grown again', () => {
    const { state, collector } = world();
    vi.advanceTimersByTime(IDLE_INTERVAL_MS);
    expect(state.collections).toBe(1);
    // idle, grown by less than the threshold: left alone
    state.used += IDLE_GROWTH_BYTES - 1;
    vi.advanceTimersByTime(5 * IDLE_INTERVAL_MS);
    expect(state.collections).toBe(1);
    state.used += 1;
    vi.advanceTimersByTime(IDLE_INTERVAL_MS);
    expect(state.collections).toBe(2);
    collector.close();
  });

  it('never collects while answers are being given, and does once they stop for a whole interval', () => {
    const { state, collector } = world();
    collector.collectNow();
    expect(state.collections).toBe(1);
    for (let i = 0; i < 10; i++) {
      state.answered += 3;
      state.used += 4 * MB;
      vi.advanceTimersByTime(IDLE_INTERVAL_MS);
    }
    expect(state.collections).toBe(1);
    // the interval in which the last answers were given is not idle; the next one is
    state.answered += 1;
    vi.advanceTimersByTime(IDLE_INTERVAL_MS);
    expect(state.collections).toBe(1);
    vi.advanceTimersByTime(IDLE_INTERVAL_MS);
    expect(state.collections).toBe(2);
    collector.close();
  });

  it('counts the growth from a collection made now (before listening), and stops when closed', () => {
    const { state, collector } = world();
    collector.collectNow();
    vi.advanceTimersByTime(3 * IDLE_INTERVAL_MS);
    expect(state.collections).toBe(1);
    collector.close();
    state.used += 10 * IDLE_GROWTH_BYTES;
    vi.advanceTimersByTime(3 * IDLE_INTERVAL_MS);
    expect(state.collections).toBe(1);
  });
});

describe('majorCollection', () => {
  it("collects V8's old generation without putting gc on any global object", () => {
    vi.useRealTimers();
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
