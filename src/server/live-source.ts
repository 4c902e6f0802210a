// Live-stream records read from the catalogue database in the background every 2 s (catalogue
// thread), so a change of live state shows without a rebuild (docs/api-contract.md §2: /v1/live, the discovery
// live shelf, channels' isLive) and no request waits for the database. A catalogue file replaced by
// a new one is reopened.
import type { PublicLiveStream } from '../catalogue/public-catalogue.ts';
import type { CatalogueFailure } from './catalogue-connection.ts';
import { createFeed } from './catalogue-feed.ts';
import type { CatalogueThread } from './catalogue-thread.ts';

export const LIVE_TTL_MS = 2000;

export interface LiveSource {
  /** current records, or `fallback` when the catalogue has never been readable */
  streams(fallback: readonly PublicLiveStream[]): readonly PublicLiveStream[];
  /** why the last read failed, while it keeps failing (the message names the file) */
  readonly failure: CatalogueFailure | undefined;
  /** Reads now; resolves when the read is done. */
  refresh(): Promise<void>;
  close(): void;
}

export function createLiveSource(catalogue: CatalogueThread, options: { ttlMs?: number; log?: (m: string) => void; poll?: boolean } = {}): LiveSource {
  const feed = createFeed<readonly PublicLiveStream[]>(() => catalogue.run('live', undefined),
    { ttlMs: options.ttlMs ?? LIVE_TTL_MS, label: `live state (${catalogue.path})`, log: options.log, poll: options.poll });
  return {
    streams: (fallback) => feed.get(fallback),
    get failure() {
      return feed.failure;
    },
    refresh: feed.refresh,
    close: feed.close,
  };
}
