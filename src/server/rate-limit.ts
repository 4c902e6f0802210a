// Rate-limit lanes (docs/api-contract.md §7): a fixed window per client and lane, started by the client's
// first request. Memory stays bounded: expired windows are swept as time passes, and past
// `maxClients` live windows in a lane, new clients share one overflow window (so a flood of
// distinct addresses limits itself, not the service).
export const LANES = ['public', 'site', 'key'] as const;
export type Lane = (typeof LANES)[number];

export interface Decision {
  readonly lane: Lane;
  /** requests allowed per window */
  readonly limit: number;
  /** requests left in this window after this one */
  readonly remaining: number;
  /** whole seconds until the window resets (at least 1) */
  readonly reset: number;
  readonly allowed: boolean;
  /** the window length in seconds */
  readonly window: number;
}

interface Window {
  start: number;
  count: number;
}

export interface RateLimiterOptions {
  readonly windowMs?: number;
  readonly maxClients?: number;
  readonly now?: () => number;
}

export const OVERFLOW_KEY = '*overflow*';

/** What counts requests: this process's memory (RateLimiter), or a store shared by every origin (src/shared-state). */
export interface Limiter {
  /** true: take() may answer later (the store is asked); false: it always answers at once */
  readonly shared: boolean;
  /** Counts one request of `client` in `lane` and says whether it may be answered. */
  take(lane: Lane, client: string): Decision | Promise<Decision>;
}

export class RateLimiter implements Limiter {
  readonly shared = false;
  readonly #limits: Readonly<Record<Lane, number>>;
  readonly #windowMs: number;
  readonly #maxClients: number;
  readonly #now: () => number;
  readonly #windows: Record<Lane, Map<string, Window>> = { public: new Map(), site: new Map(), key: new Map() };
  #sweptAt = 0;

  constructor(limits: Readonly<Record<Lane, number>>, options: RateLimiterOptions = {}) {
    this.#limits = limits;
    this.#windowMs = options.windowMs ?? 60_000;
    this.#maxClients = options.maxClients ?? 100_000;
    this.#now = options.now ?? Date.now;
  }

  /** Counts one request of `client` in `lane` and says whether it may be answered. */
  take(lane: Lane, client: string): Decision {
    const now = this.#now();
    this.#sweep(now);
    const windows = this.#windows[lane];
    let key = client;
    let w = windows.get(key);
    if (w && now - w.start >= this.#windowMs) w = undefined;
    if (!w) {
      if (!windows.has(key) && windows.size >= this.#maxClients) key = OVERFLOW_KEY;
      w = windows.get(key);
      if (!w || now - w.start >= this.#windowMs) windows.set(key, (w = { start: now, count: 0 }));
    }
    const limit = this.#limits[lane];
    const allowed = w.count < limit;
    if (allowed) w.count++;
    return {
      lane, limit, allowed,
      remaining: limit - w.count,
      reset: Math.max(1, Math.ceil((w.start + this.#windowMs - now) / 1000)),
      window: Math.round(this.#windowMs / 1000),
    };
  }

  /** Live windows per lane (for status and tests). */
  size(lane: Lane): number {
    return this.#windows[lane].size;
  }

  /** Drops expired windows, at most once per window length. */
  #sweep(now: number): void {
    if (now - this.#sweptAt < this.#windowMs) return;
    this.#sweptAt = now;
    for (const windows of Object.values(this.#windows)) {
      for (const [key, w] of windows) if (now - w.start >= this.#windowMs) windows.delete(key);
    }
  }
}

/** `RateLimit-Policy` and `RateLimit` (IETF httpapi rate-limit headers), and `Retry-After` on a 429. */
export function rateLimitHeaders(d: Decision): Record<string, string> {
  const headers: Record<string, string> = {
    'ratelimit-policy': `"${d.lane}";q=${d.limit};w=${d.window}`,
    ratelimit: `"${d.lane}";r=${d.remaining};t=${d.reset}`,
  };
  if (!d.allowed) headers['retry-after'] = String(d.reset);
  return headers;
}
