// The build's progress lines: the time and memory of each phase, and durations people read.

/** A lap timer: each call gives the seconds since the previous one and the memory now. */
export function createLap(): () => string {
  let last = performance.now();
  return () => {
    const now = performance.now();
    const seconds = ((now - last) / 1000).toFixed(1);
    last = now;
    const m = process.memoryUsage();
    return `${seconds} s, heap ${(m.heapUsed / 1e6).toFixed(0)} MB, rss ${(m.rss / 1e6).toFixed(0)} MB, buffers ${(m.arrayBuffers / 1e6).toFixed(0)} MB`;
  };
}
