// A request-time read of the catalogue database kept for a few seconds (docs/architecture.md, principle 5):
// live state, alerts and keys change without a rebuild. The read runs in the catalogue thread
// (catalogue-thread.ts) every `ttlMs`, in the background, so a request never waits for it: it gets
// the value of the last good read, at most one period and one read old. When the database cannot
// be read, the last good value (or the caller's fallback) is served and the failure is kept, for
// the status endpoint, until a read succeeds again.
import type { CatalogueFailure } from './catalogue-connection.ts';
import { CatalogueOperationError } from './catalogue-thread.ts';

export interface Feed<T> {
  /** the current value, or `fallback` while the catalogue has never been readable */
  get(fallback: T): T;
  /** why the last read failed, while reads keep failing */
  readonly failure: CatalogueFailure | undefined;
  /** when the value in hand was read (ms since the epoch), or -Infinity */
  readonly readAt: number;
  /** Reads now (or joins the read in flight); resolves when it is done, whatever its outcome. */
  refresh(): Promise<void>;
  /** Stops reading in the background. */
  close(): void;
}

export interface FeedOptions {
  readonly ttlMs: number;
  /** what is read, for messages: `live state` */
  readonly label: string;
  readonly log?: ((message: string) => void) | undefined;
  readonly now?: (() => number) | undefined;
  /** false: no background reads, only refresh() (tests) */
  readonly poll?: boolean | undefined;
}

export const failureFrom = (error: unknown): CatalogueFailure =>
  error instanceof CatalogueOperationError ? error.failure : { kind: 'unreadable', message: String((error as Error)?.message ?? error) };

export function createFeed<T>(read: () => Promise<T>, options: FeedOptions): Feed<T> {
  const log = options.log ?? ((m: string) => console.log(m));
  const now = options.now ?? Date.now;
  let cached: { value: T } | undefined;
  let readAt = Number.NEGATIVE_INFINITY;
  let failure: CatalogueFailure | undefined;
  let inFlight: Promise<void> | undefined;

  function refresh(): Promise<void> {
    inFlight ??= read().then((value) => {
      cached = { value };
      readAt = now();
      if (failure !== undefined) log(`[catalogue] ${options.label} is readable again`);
      failure = undefined;
    }, (error: unknown) => {
      const next = failureFrom(error);
      const message = `cannot read ${options.label} from the catalogue: ${next.message}`;
      if (message !== failure?.message) log(`[catalogue] ${message}; serving the last known value`);
      failure = { kind: next.kind, message };
    }).finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  }

  const timer = options.poll === false ? undefined : setInterval(() => void refresh(), options.ttlMs);
  timer?.unref();
  if (options.poll !== false) void refresh();

  return {
    get(fallback) {
      return cached ? cached.value : fallback;
    },
    get failure() {
      return failure;
    },
    get readAt() {
      return readAt;
    },
    refresh,
    close() {
      if (timer) clearInterval(timer);
    },
  };
}
