// Live-stream records read from the catalogue database at request time and kept for 2 s, so a
// change of live state shows without a rebuild (CONTRACT §2: /v1/live, the discovery live shelf,
// channels' isLive). A catalogue file replaced by a new one is reopened.
import { readLiveStreams } from '../catalogue/read-live.ts';
import type { PublicLiveStream } from '../model/public-catalogue.ts';
import { followCatalogue } from './catalogue-connection.ts';
import { createFeed } from './catalogue-feed.ts';

export const LIVE_TTL_MS = 2000;

export interface LiveSource {
  /** current records, or `fallback` when the catalogue has never been readable */
  streams(fallback: readonly PublicLiveStream[]): readonly PublicLiveStream[];
  /** why the last read failed, while it keeps failing (the message names the file) */
  readonly error: string | undefined;
  close(): void;
}

export function createLiveSource(path: string, options: { ttlMs?: number; log?: (m: string) => void; now?: () => number } = {}): LiveSource {
  const connection = followCatalogue(path, { readonly: true });
  const feed = createFeed<readonly PublicLiveStream[]>(connection, readLiveStreams, { ttlMs: options.ttlMs ?? LIVE_TTL_MS, label: `live state (${path})`, log: options.log, now: options.now });
  return {
    streams: (fallback) => feed.get(fallback),
    get error() {
      return feed.error;
    },
    close: connection.close,
  };
}
