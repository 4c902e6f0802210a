// createHealthMonitor (src/server/service-health.ts): answers and faults of the service (5xx but
// 501 and 505) over the last five minutes in 10-second buckets, and the event loop's delay.
import { afterEach, describe, expect, it } from 'vitest';
import { createHealthMonitor, type HealthMonitor } from '../../../src/server/service-health.ts';

const monitors: HealthMonitor[] = [];
afterEach(() => { for (const m of monitors.splice(0)) m.close(); });

/** starts on a bucket boundary */
const T0 = 1_790_000_000_000;

function monitorAt(start = T0) {
  const clock = { now: start };
  const monitor = createHealthMonitor({ now: () => clock.now });
  monitors.push(monitor);
  return { monitor, clock };
}

const recordAll = (monitor: HealthMonitor, statuses: readonly number[]) => { for (const s of statuses) monitor.record(s); };

describe('createHealthMonitor errors', () => {
  it('counts answers and 5xx answers, and not 4xx ones as failures', () => {
    const { monitor } = monitorAt();
    recordAll(monitor, [200, 304, 404, 429, 500, 503, 599]);
    expect(monitor.errors()).toEqual({ total: 7, failed: 3, seconds: 300 });
  });

  it('does not count 501 (a feature the service documents it does not provide) or 505 as faults', () => {
    const { monitor } = monitorAt();
    recordAll(monitor, Array.from({ length: 25 }, () => 501));
    recordAll(monitor, [505, 502, 504]);
    expect(monitor.errors()).toEqual({ total: 28, failed: 2, seconds: 300 });
  });

  it('starts with nothing counted', () => {
    expect(monitorAt().monitor.errors()).toEqual({ total: 0, failed: 0, seconds: 300 });
  });

  it('keeps an answer for five minutes (to its 10-second bucket) and then forgets it', () => {
    const { monitor, clock } = monitorAt();
    recordAll(monitor, [500, 200]);
    clock.now = T0 + 299_999;
    expect(monitor.errors()).toMatchObject({ total: 2, failed: 1 });
    clock.now = T0 + 300_000;
    expect(monitor.errors()).toMatchObject({ total: 0, failed: 0 });
  });

  it('adds up answers across buckets within the five minutes', () => {
    const { monitor, clock } = monitorAt();
    for (let i = 0; i < 30; i++) {
      clock.now = T0 + i * 10_000;
      recordAll(monitor, [200, 500]);
    }
    expect(monitor.errors()).toMatchObject({ total: 60, failed: 30 });
    clock.now += 10_000;
    expect(monitor.errors()).toMatchObject({ total: 58, failed: 29 });
  });

  it('empties a bucket it reuses after five minutes instead of adding to its old counts', () => {
    const { monitor, clock } = monitorAt();
    recordAll(monitor, [500, 500, 500]);
    clock.now = T0 + 300_000; // same ring slot, next lap
    monitor.record(200);
    expect(monitor.errors()).toMatchObject({ total: 1, failed: 0 });
  });
});

describe('createHealthMonitor eventLoop', () => {
  it('reports no negative delays while the loop is idle', () => {
    const { p99, max } = monitorAt().monitor.eventLoop();
    expect(p99).toBeGreaterThanOrEqual(0);
    expect(max).toBeGreaterThanOrEqual(p99);
  });

  it('sees the loop blocked for a quarter of a second', async () => {
    const { monitor } = monitorAt(Date.now());
    await new Promise((r) => setTimeout(r, 50));
    const until = performance.now() + 250;
    while (performance.now() < until) { /* block the event loop */ }
    await new Promise((r) => setTimeout(r, 30));
    expect(monitor.eventLoop().max).toBeGreaterThan(150);
  });
});
