// Live-stream records read from the catalogue database at request time, kept for a couple of
// seconds (ARCHITECTURE principle 5), so a change of live state shows without a rebuild. When the
// database cannot be read, the last good read (or the snapshot's copy) is served and the error is
// kept for the status endpoint. A catalogue file replaced by a new one (seed, restore) is reopened.
import { statSync } from 'node:fs';
import { openCatalogue, type Catalogue } from '../catalogue/open-catalogue.ts';
import { readLiveStreams } from '../catalogue/read-live.ts';
import type { PublicLiveStream } from '../model/public-catalogue.ts';

export const LIVE_TTL_MS = 2000;

export interface LiveSource {
  /** current records, or `fallback` when the catalogue has never been readable */
  streams(fallback: readonly PublicLiveStream[]): readonly PublicLiveStream[];
  /** why the last read failed, while it keeps failing */
  readonly error: string | undefined;
  close(): void;
}

export function createLiveSource(path: string, options: { ttlMs?: number; log?: (m: string) => void; now?: () => number } = {}): LiveSource {
  const ttl = options.ttlMs ?? LIVE_TTL_MS;
  const log = options.log ?? ((m: string) => console.log(m));
  const now = options.now ?? Date.now;
  let db: Catalogue | undefined;
  let inode: number | undefined;
  let cached: readonly PublicLiveStream[] | undefined;
  let readAt = Number.NEGATIVE_INFINITY;
  let error: string | undefined;

  function read(): readonly PublicLiveStream[] {
    const ino = statSync(path).ino;
    if (db && ino !== inode) {
      db.close();
      db = undefined;
    }
    if (!db) {
      db = openCatalogue(path, { readonly: true });
      inode = ino;
    }
    return readLiveStreams(db);
  }

  return {
    streams(fallback) {
      if (now() - readAt < ttl && cached) return cached;
      readAt = now();
      try {
        cached = read();
        if (error !== undefined) log(`[live] the catalogue is readable again: ${path}`);
        error = undefined;
      } catch (e) {
        const message = `cannot read live state from ${path}: ${(e as Error).message}`;
        if (message !== error) log(`[live] ${message}; serving the last known state`);
        error = message;
        try { db?.close(); } catch { /* already unusable */ }
        db = undefined;
      }
      return cached ?? fallback;
    },
    get error() {
      return error;
    },
    close() {
      db?.close();
      db = undefined;
    },
  };
}
