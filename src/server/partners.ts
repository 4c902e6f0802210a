// Developer keys and their usage at request time: keys are read from the catalogue (kept 2 s, so a
// revocation takes effect within seconds) and checked by hash in constant time; every request made
// with a valid key is counted per app, day (UTC) and endpoint, in memory, and added to the
// catalogue every 2 s and on close, so the counts survive restarts.
import { timingSafeEqual } from 'node:crypto';
import { addUsage, hashKey, KEY_PATTERN, prefixOf, readKeys, readUsage, type StoredKey, type UsageRow } from '../catalogue/api-keys.ts';
import { followCatalogue } from './catalogue-connection.ts';
import { createFeed } from './catalogue-feed.ts';

export interface App {
  readonly appId: string;
  readonly appName: string;
}

export interface Partners {
  /** The app a bearer token belongs to, or undefined for an unknown, malformed or revoked key. */
  verify(token: string): App | undefined;
  /** Counts one request of `appId` to `endpoint`. */
  count(appId: string, endpoint: string): void;
  /** Stored and not yet stored counts of an app, by day and endpoint. */
  usage(appId: string): UsageRow[];
  readonly error: string | undefined;
  flush(): void;
  close(): void;
}

export interface PartnersOptions {
  readonly ttlMs?: number;
  readonly flushMs?: number;
  readonly log?: (message: string) => void;
  readonly now?: () => number;
}

const SEP = '\u0000';

export function createPartners(path: string, options: PartnersOptions = {}): Partners {
  const log = options.log ?? ((m: string) => console.log(m));
  const now = options.now ?? Date.now;
  const connection = followCatalogue(path, { readonly: false });
  const keys = createFeed(connection, (db) => {
    const byPrefix = new Map<string, StoredKey[]>();
    for (const key of readKeys(db)) {
      const list = byPrefix.get(key.prefix);
      if (list) list.push(key);
      else byPrefix.set(key.prefix, [key]);
    }
    return byPrefix;
  }, { ttlMs: options.ttlMs ?? 2000, label: 'developer keys', log, now });
  const pending = new Map<string, number>();
  let writeError: string | undefined;

  function flush(): void {
    if (pending.size === 0) return;
    const rows: UsageRow[] = [...pending].map(([k, requests]) => {
      const [appId, day, endpoint] = k.split(SEP) as [string, string, string];
      return { appId, day, endpoint, requests };
    });
    try {
      connection.use((db) => addUsage(db, rows));
      pending.clear();
      writeError = undefined;
    } catch (e) {
      const message = `cannot store API usage in the catalogue: ${(e as Error).message}`;
      if (message !== writeError) log(`[partners] ${message}; keeping the counts to retry`);
      writeError = message;
    }
  }
  const timer = setInterval(flush, options.flushMs ?? 2000);
  timer.unref();

  return {
    verify(token) {
      if (!KEY_PATTERN.test(token)) return undefined;
      const candidates = keys.get(new Map()).get(prefixOf(token));
      if (!candidates) return undefined;
      const given = Buffer.from(hashKey(token), 'hex');
      let found: StoredKey | undefined;
      for (const key of candidates) {
        if (timingSafeEqual(Buffer.from(key.hash, 'hex'), given) && !key.revoked) found = key;
      }
      return found && { appId: found.appId, appName: found.appName };
    },
    count(appId, endpoint) {
      const key = [appId, new Date(now()).toISOString().slice(0, 10), endpoint].join(SEP);
      pending.set(key, (pending.get(key) ?? 0) + 1);
    },
    usage(appId) {
      const totals = new Map<string, UsageRow>();
      const add = (r: UsageRow) => {
        const k = `${r.day}${SEP}${r.endpoint}`;
        const before = totals.get(k)?.requests ?? 0;
        totals.set(k, { ...r, requests: before + r.requests });
      };
      try {
        for (const r of connection.use((db) => readUsage(db, appId))) add(r);
      } catch {
        // the stored part is unavailable; the counts of this process still answer
      }
      for (const [k, requests] of pending) {
        const [app, day, endpoint] = k.split(SEP) as [string, string, string];
        if (app === appId) add({ appId, day, endpoint, requests });
      }
      return [...totals.values()];
    },
    get error() {
      return keys.error ?? writeError;
    },
    flush,
    close() {
      clearInterval(timer);
      flush();
      connection.close();
    },
  };
}
