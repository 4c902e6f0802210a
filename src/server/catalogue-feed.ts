// A request-time read of the catalogue database kept for a few seconds (ARCHITECTURE principle 5):
// live state, alerts and keys change without a rebuild, and a burst of requests costs one query.
// When the database cannot be read, the last good read (or the caller's fallback) is served and
// the error is kept, for the status endpoint, until a read succeeds again.
import type { Catalogue } from '../catalogue/open-catalogue.ts';
import type { CatalogueConnection } from './catalogue-connection.ts';

export interface Feed<T> {
  /** the current value, or `fallback` while the catalogue has never been readable */
  get(fallback: T): T;
  /** why the last read failed, while reads keep failing */
  readonly error: string | undefined;
}

export interface FeedOptions {
  readonly ttlMs: number;
  /** what is read, for messages: `live state` */
  readonly label: string;
  readonly log?: ((message: string) => void) | undefined;
  readonly now?: (() => number) | undefined;
}

export function createFeed<T>(connection: CatalogueConnection, read: (db: Catalogue) => T, options: FeedOptions): Feed<T> {
  const log = options.log ?? ((m: string) => console.log(m));
  const now = options.now ?? Date.now;
  let cached: { value: T } | undefined;
  let readAt = Number.NEGATIVE_INFINITY;
  let error: string | undefined;
  return {
    get(fallback) {
      if (cached && now() - readAt < options.ttlMs) return cached.value;
      readAt = now();
      try {
        cached = { value: connection.use(read) };
        if (error !== undefined) log(`[catalogue] ${options.label} is readable again`);
        error = undefined;
      } catch (e) {
        const message = `cannot read ${options.label} from the catalogue: ${(e as Error).message}`;
        if (message !== error) log(`[catalogue] ${message}; serving the last known value`);
        error = message;
      }
      return cached ? cached.value : fallback;
    },
    get error() {
      return error;
    },
  };
}
