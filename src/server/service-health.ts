// What the service measures of itself for /v1/status: the share of answers that were faults of the
// service over the last five minutes (in 10-second buckets, so memory is fixed) and the event
// loop's delay (Node's histogram, reset each minute so it speaks of the recent past). A client
// cannot move the share by asking for what the service documents it does not do: 501 (a feature
// not provided, such as oEmbed's format=xml, or a method Node does not know) and 505 (the client's
// HTTP version) are the client's answers, not faults (docs/decisions.md, Status).
import { monitorEventLoopDelay } from 'node:perf_hooks';

const BUCKET_MS = 10_000;
/** the histogram's sampling interval, which its values include; subtracted to give the delay */
const RESOLUTION_MS = 10;
const BUCKETS = 30;

/** 5xx statuses that answer what the client asked for, not a failure of the service. */
const CLIENT_CAUSED_5XX: ReadonlySet<number> = new Set([501, 505]);

/** Whether an answer with this status is a fault of the service (counted in the `errors` share). */
export const isServiceFault = (status: number): boolean => status >= 500 && !CLIENT_CAUSED_5XX.has(status);

export interface HealthMonitor {
  /** Counts one answer by its status. */
  record(status: number): void;
  /** answers and answers that were faults of the service in the last five minutes */
  errors(): { readonly total: number; readonly failed: number; readonly seconds: number };
  /** event-loop delay over the last minute or so, in milliseconds */
  eventLoop(): { readonly p99: number; readonly max: number };
  close(): void;
}

export function createHealthMonitor(options: { now?: () => number } = {}): HealthMonitor {
  const now = options.now ?? Date.now;
  const totals = new Float64Array(BUCKETS);
  const failures = new Float64Array(BUCKETS);
  const stamps = new Float64Array(BUCKETS).fill(-1);
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  const delay = (ns: number) => Math.max(0, ns / 1e6 - RESOLUTION_MS);
  let previous = { p99: 0, max: 0 };
  const reset = setInterval(() => {
    previous = histogram.count > 0 ? { p99: delay(histogram.percentile(99)), max: delay(histogram.max) } : { p99: 0, max: 0 };
    histogram.reset();
  }, 60_000);
  reset.unref();

  const slot = (t: number) => {
    const bucket = Math.floor(t / BUCKET_MS);
    const i = bucket % BUCKETS;
    if (stamps[i] !== bucket) {
      stamps[i] = bucket;
      totals[i] = 0;
      failures[i] = 0;
    }
    return i;
  };

  return {
    record(status) {
      const i = slot(now());
      totals[i]! += 1;
      if (isServiceFault(status)) failures[i]! += 1;
    },
    errors() {
      const current = Math.floor(now() / BUCKET_MS);
      let total = 0;
      let failed = 0;
      for (let i = 0; i < BUCKETS; i++) {
        if (stamps[i]! > current - BUCKETS) {
          total += totals[i]!;
          failed += failures[i]!;
        }
      }
      return { total, failed, seconds: (BUCKETS * BUCKET_MS) / 1000 };
    },
    eventLoop() {
      if (histogram.count === 0) return previous;
      return { p99: Math.max(delay(histogram.percentile(99)), previous.p99), max: Math.max(delay(histogram.max), previous.max) };
    },
    close() {
      clearInterval(reset);
      histogram.disable();
    },
  };
}
