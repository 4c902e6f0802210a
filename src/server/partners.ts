// Developer keys and their usage at request time, without the event loop ever waiting for the
// database (docs/reliability.md, "Catalogue database and status"). Keys are read in the background
// every 2 s by the catalogue thread (so a revocation takes effect within seconds) and checked by
// hash in constant time; a well-formed key the last read does not know is looked up with a fresh
// read (at most one every 250 ms), so a new key works at once. Every request made with a valid key
// is counted per app, day (UTC) and endpoint, in memory, and added to the catalogue by the thread
// every 2 s and on close. While the catalogue cannot be written (another process's lock, a missing
// file) the counts stay in memory and are written later: usage is delayed, never lost. An app's
// stored counts are read when the app is first seen and again in the background while it is asked
// for, and the counts this process wrote since are added, so /v1/partner never waits either.
// With a shared store (SHARED_STATE_STORE, src/shared-state/), keys published there are known too,
// and usage goes to that store instead of the catalogue: counted once across every origin.
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { hashKey, KEY_PATTERN, prefixOf, type StoredKey, type UsageRow } from '../catalogue/api-keys.ts';
import type { CatalogueFailure } from './catalogue-connection.ts';
import { createFeed, failureFrom } from './catalogue-feed.ts';
import type { CatalogueThread } from './catalogue-thread.ts';

export interface App {
  readonly appId: string;
  readonly appName: string;
}

export interface Partners {
  /** The app a bearer token belongs to by the last read of the keys, or undefined for an unknown, malformed or revoked key. */
  verify(token: string): App | undefined;
  /** As verify, but a well-formed key the last read does not know is looked up with a fresh read first. */
  lookup(token: string): Promise<App | undefined>;
  /** Reads the stored counts of an app not seen before (usage() then includes them); undefined when they are in hand. */
  prepare(appId: string): Promise<void> | undefined;
  /** Counts one request of `appId` to `endpoint`. */
  count(appId: string, endpoint: string): void;
  /** Stored and not yet stored counts of an app, by day and endpoint. */
  usage(appId: string): UsageRow[];
  /** why keys cannot be read or usage cannot be stored, while that lasts */
  readonly failure: CatalogueFailure | undefined;
  /** Writes the pending counts (or joins the write in flight). */
  flush(): Promise<void>;
  /** Resolves once the first read of the keys is done. */
  ready(): Promise<void>;
  /** Stops the timers and writes what is pending. */
  close(): Promise<void>;
}

export interface PartnersOptions {
  readonly ttlMs?: number;
  readonly flushMs?: number;
  /** a lock that keeps usage from being written is reported once it has lasted this long */
  readonly lockReportMs?: number;
  readonly log?: (message: string) => void;
  readonly now?: () => number;
  /** false: no background reads or writes (tests drive refresh and flush) */
  readonly poll?: boolean | undefined;
  /** keys revoked on any origin (SHARED_STATE_STORE: src/shared-state/revocations.ts), by SHA-256 hash */
  readonly revoked?: { has(hash: string): boolean } | undefined;
  /** keys created on any origin (SHARED_STATE_STORE: src/shared-state/shared-records.ts) */
  readonly sharedKeys?: { keys(prefix: string): readonly StoredKey[] | undefined; refresh(): Promise<void> } | undefined;
  /** where usage is stored instead of the catalogue (SHARED_STATE_STORE: src/shared-state/shared-usage.ts) */
  readonly usageStore?: UsageStore | undefined;
}

/** Where counted requests are stored: the catalogue (one machine) or a store every origin shares. */
export interface UsageStore {
  /** Adds a batch of counts once, however many times it is sent under the same id. */
  add(rows: readonly UsageRow[], batch: string): Promise<void>;
  /** The stored counts of an app. */
  read(appId: string): Promise<UsageRow[]>;
  /** where the counts go, for messages */
  readonly label: string;
}

const SEP = '\u0000';
/** a key unknown to the last read triggers a fresh read at most this often */
const MISS_REFRESH_MS = 250;
/** how long closing keeps trying to store the last counts */
const CLOSE_RETRY_MS = 5000;

type Counts = Map<string, number>;

const rowsOf = (counts: Counts): UsageRow[] => [...counts].map(([k, requests]) => {
  const [appId, day, endpoint] = k.split(SEP) as [string, string, string];
  return { appId, day, endpoint, requests };
});

const addTo = (counts: Counts, key: string, n: number) => counts.set(key, (counts.get(key) ?? 0) + n);

interface StoredUsage {
  readonly appId: string;
  rows: UsageRow[];
  /** the sequence number of the read, to tell which writes it includes */
  seq: number;
  readAt: number;
  loading: Promise<void> | undefined;
}

export function createPartners(catalogue: CatalogueThread, options: PartnersOptions = {}): Partners {
  const log = options.log ?? ((m: string) => console.log(m));
  const now = options.now ?? Date.now;
  const ttlMs = options.ttlMs ?? 2000;
  const lockReportMs = options.lockReportMs ?? 60_000;
  const store: UsageStore = options.usageStore ?? {
    label: 'the catalogue',
    // a failed write is one transaction not applied: sending the batch again counts it once
    add: (rows) => catalogue.run('add-usage', rows),
    read: (appId) => catalogue.run('usage', appId),
  };
  const keys = createFeed(async () => {
    const byPrefix = new Map<string, StoredKey[]>();
    for (const key of await catalogue.run('keys', undefined)) {
      const list = byPrefix.get(key.prefix);
      if (list) list.push(key);
      else byPrefix.set(key.prefix, [key]);
    }
    return byPrefix;
  }, { ttlMs, label: 'developer keys', log, now, poll: options.poll });

  /** counts not yet handed to the thread */
  let pending: Counts = new Map();
  /** counts handed to the store, not yet confirmed written: sent again under the same id until they are */
  let writing: Counts = new Map();
  let batch = '';
  let inFlight: Promise<void> | undefined;
  let writeFailure: CatalogueFailure | undefined;
  let failingSince: number | undefined;
  /** orders reads and writes of usage as the thread runs them (one at a time, in order) */
  let seq = 0;
  const stored = new Map<string, StoredUsage>();

  function loadUsage(appId: string): Promise<void> {
    let entry = stored.get(appId);
    if (entry?.loading) return entry.loading;
    const readSeq = ++seq;
    const loading = store.read(appId).then((rows) => {
      stored.set(appId, { appId, rows, seq: readSeq, readAt: now(), loading: undefined });
    }, () => {
      // the stored part is unavailable; the counts of this process still answer
      const e = stored.get(appId);
      if (e && e.seq < 0) stored.delete(appId);
      else if (e) e.loading = undefined;
    });
    if (entry) entry.loading = loading;
    else stored.set(appId, (entry = { appId, rows: [], seq: -1, readAt: Number.NEGATIVE_INFINITY, loading }));
    return loading;
  }

  function flush(): Promise<void> {
    if (inFlight) return inFlight;
    if (writing.size === 0) {
      if (pending.size === 0) return Promise.resolve();
      writing = pending;
      pending = new Map();
      batch = randomUUID();
    }
    const rows = rowsOf(writing);
    const writeSeq = ++seq;
    inFlight = store.add(rows, batch).then(() => {
      // reads issued before this write did not see it: add it to what they stored
      for (const entry of stored.values()) {
        if (entry.seq >= 0 && entry.seq < writeSeq) entry.rows = mergeRows(entry.rows, rows.filter((r) => r.appId === entry.appId));
      }
      writing = new Map();
      if (writeFailure) log(`[partners] API usage is stored in ${store.label} again`);
      writeFailure = undefined;
      failingSince = undefined;
    }, (error: unknown) => {
      // the batch stays as it is, to be sent again under its id (counted once if it did arrive)
      const failure = failureFrom(error);
      failingSince ??= now();
      const message = `cannot store API usage in ${store.label}: ${failure.message}`;
      if (message !== writeFailure?.message) log(`[partners] ${message}; keeping the counts to write later`);
      writeFailure = { kind: failure.kind, message };
    }).finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  }

  const timer = options.poll === false ? undefined : setInterval(() => void flush(), options.flushMs ?? 2000);
  timer?.unref();

  function verify(token: string): App | undefined {
    if (!KEY_PATTERN.test(token)) return undefined;
    const candidates = candidatesOf(prefixOf(token));
    if (!candidates) return undefined;
    const given = Buffer.from(hashKey(token), 'hex');
    let found: StoredKey | undefined;
    let revoked = false;
    for (const key of candidates) {
      if (!timingSafeEqual(Buffer.from(key.hash, 'hex'), given)) continue;
      // revoked anywhere (this catalogue or the shared set) wins over a copy that says active
      if (key.revoked || options.revoked?.has(key.hash)) revoked = true;
      else found = key;
    }
    return found && !revoked ? { appId: found.appId, appName: found.appName } : undefined;
  }

  // Keys unknown to the last read share one fresh read, started at most every MISS_REFRESH_MS (so
  // a flood of made-up keys costs at most four reads a second, and waits, off the event loop).
  let missReadAt = Number.NEGATIVE_INFINITY;
  let missReading: Promise<void> | undefined;
  function missRead(): Promise<void> {
    missReading ??= new Promise<void>((resolve) => {
      const wait = Math.max(0, missReadAt + MISS_REFRESH_MS - Date.now());
      setTimeout(() => {
        missReadAt = Date.now();
        missReading = undefined;
        void Promise.all([keys.refresh(), options.sharedKeys?.refresh()]).then(() => resolve());
      }, wait).unref();
    });
    return missReading;
  }

  function candidatesOf(prefix: string): readonly StoredKey[] | undefined {
    const own = keys.get(new Map()).get(prefix);
    const shared = options.sharedKeys?.keys(prefix);
    return shared ? [...(own ?? []), ...shared] : own;
  }

  function known(token: string): boolean {
    const candidates = candidatesOf(prefixOf(token));
    const given = hashKey(token);
    return candidates?.some((key) => key.hash === given) ?? false;
  }

  return {
    verify,
    async lookup(token) {
      const app = verify(token);
      if (app || !KEY_PATTERN.test(token) || known(token)) return app;
      await missRead();
      return verify(token);
    },
    prepare(appId) {
      const entry = stored.get(appId);
      return !entry || entry.seq < 0 ? loadUsage(appId) : undefined;
    },
    count(appId, endpoint) {
      addTo(pending, [appId, new Date(now()).toISOString().slice(0, 10), endpoint].join(SEP), 1);
    },
    usage(appId) {
      const entry = stored.get(appId);
      if (!entry || (now() - entry.readAt >= ttlMs && !entry.loading)) void loadUsage(appId);
      const own = rowsOf(sumCounts(writing, pending)).filter((r) => r.appId === appId);
      return mergeRows(entry && entry.seq >= 0 ? entry.rows : [], own);
    },
    get failure() {
      if (keys.failure) return keys.failure;
      // a shared store's failures are its own component's (docs/reliability.md, Shared state)
      if (!writeFailure || options.usageStore) return undefined;
      // a lock (an import, a backup) delays usage: worth reporting only once it lasts
      if (writeFailure.kind === 'locked' && now() - (failingSince ?? now()) < lockReportMs) return undefined;
      return writeFailure;
    },
    flush,
    ready: () => keys.refresh(),
    async close() {
      keys.close();
      if (timer) clearInterval(timer);
      // a lock may be about to end: keep trying for a few seconds before giving up on the counts
      const until = Date.now() + CLOSE_RETRY_MS;
      const unstored = () => pending.size + writing.size;
      await flush();
      while (unstored() > 0 && Date.now() < until) {
        await flush();
        if (unstored() > 0) await new Promise((r) => setTimeout(r, 200));
      }
      if (unstored() > 0 && options.usageStore) {
        // the shared store is gone: this origin's catalogue keeps the counts rather than losing them
        const rows = rowsOf(sumCounts(writing, pending));
        try {
          await catalogue.run('add-usage', rows);
          log(`[partners] ${rows.reduce((a, r) => a + r.requests, 0)} counted requests could not be stored in ${store.label} before shutdown: written to this origin's catalogue instead`);
          pending = new Map();
          writing = new Map();
        } catch {
          // reported below
        }
      }
      if (unstored() > 0) {
        const lost = [...sumCounts(writing, pending).values()].reduce((a, b) => a + b, 0);
        log(`[partners] ${lost} counted requests could not be stored before shutdown: ${writeFailure?.message ?? 'unknown reason'}`);
      }
    },
  };
}

function sumCounts(a: Counts, b: Counts): Counts {
  const out: Counts = new Map(a);
  for (const [k, n] of b) addTo(out, k, n);
  return out;
}

/** Adds rows with the same day and endpoint together. */
function mergeRows(base: readonly UsageRow[], extra: readonly UsageRow[]): UsageRow[] {
  const totals = new Map<string, UsageRow>();
  for (const r of [...base, ...extra]) {
    const k = `${r.appId}${SEP}${r.day}${SEP}${r.endpoint}`;
    const before = totals.get(k)?.requests ?? 0;
    totals.set(k, { ...r, requests: before + r.requests });
  }
  return [...totals.values()];
}
