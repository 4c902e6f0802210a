// Configuration from the environment (docs/api-contract.md §7a), parsed once with zod. A bad value stops the
// process with a message naming the variable.
import { z } from 'zod';

/** An X (Twitter) handle: @ and 1 to 15 letters, digits or underscores. */
export const TWITTER_HANDLE = /^@\w{1,15}$/;

const int = (name: string, min: number, max: number, fallback: number) =>
  z.string().optional().transform((value, ctx) => {
    if (value === undefined || value === '') return fallback;
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max) {
      ctx.addIssue({ code: 'custom', message: `${name} must be an integer from ${min} to ${max} (got "${value}")` });
      return z.NEVER;
    }
    return n;
  });

const origin = (name: string) =>
  z.string().optional().transform((value, ctx) => {
    if (value === undefined || value === '') return undefined;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: `${name} must be an absolute http(s) URL such as https://videos.example.com (got "${value}")` });
      return z.NEVER;
    }
    if (!/^https?:$/.test(url.protocol) || url.search || url.hash || url.username) {
      ctx.addIssue({ code: 'custom', message: `${name} must be an http(s) origin without query, fragment or credentials (got "${value}")` });
      return z.NEVER;
    }
    // The site's links, the API's paths, the sitemaps and the nginx configuration are all
    // root-relative: a base with a path would build a site whose every link misses it
    // (docs/decisions.md, "Served at the root of its origin").
    if (url.pathname !== '/') {
      ctx.addIssue({ code: 'custom', message: `${name} must be an origin without a path (got "${value}", whose path is ${url.pathname}): the service must be served at the root of its origin, since its links are root-relative; serve it on a host name of its own (https://videos.example.org, not https://example.org/videos) and set ${name}=${url.origin} there` });
      return z.NEVER;
    }
    return url.origin;
  });

const store = (name: string) =>
  z.string().optional().transform((value, ctx) => {
    if (value === undefined || value === '' || value === 'memory') return undefined;
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    if (!url || !/^rediss?:$/.test(url.protocol) || url.search || url.hash) {
      ctx.addIssue({ code: 'custom', message: `${name} must be memory or a redis:// (rediss://) URL such as redis://127.0.0.1:6379 (got "${value.replace(/:[^:@/]*@/, ':***@')}")` });
      return z.NEVER;
    }
    return value;
  });

const flag = (name: string) =>
  z.string().optional().transform((value, ctx) => {
    if (value === undefined || value === '') return false;
    if (/^(1|true|yes|on)$/i.test(value)) return true;
    if (/^(0|false|no|off)$/i.test(value)) return false;
    ctx.addIssue({ code: 'custom', message: `${name} must be true or false (got "${value}")` });
    return z.NEVER;
  });

export const Env = z.object({
  PORT: int('PORT', 0, 65535, 4321),
  HOST: z.string().optional(),
  PUBLIC_BASE_URL: origin('PUBLIC_BASE_URL'),
  SITE_ORIGIN: origin('SITE_ORIGIN'),
  CATALOGUE_DB: z.string().optional().transform((v) => v || 'data/catalogue.db'),
  DIST_DIR: z.string().optional().transform((v) => v || 'dist'),
  RATE_LIMIT_PUBLIC: int('RATE_LIMIT_PUBLIC', 1, 10_000_000, 600),
  RATE_LIMIT_SITE: int('RATE_LIMIT_SITE', 1, 10_000_000, 6000),
  RATE_LIMIT_KEY: int('RATE_LIMIT_KEY', 1, 10_000_000, 1200),
  RATE_LIMIT_STORE: store('RATE_LIMIT_STORE'),
  SHARED_STATE_STORE: store('SHARED_STATE_STORE'),
  RATE_LIMIT_ORIGINS: int('RATE_LIMIT_ORIGINS', 1, 1000, 1),
  TRUST_PROXY: flag('TRUST_PROXY'),
  SNAPSHOT_CACHE_MB: int('SNAPSHOT_CACHE_MB', 0, 1_000_000, 256),
  STATIC_FILES: flag('STATIC_FILES'),
  SITE_PASS_SECRET: z.string().optional().transform((value, ctx) => {
    if (value === undefined || value === '') return undefined;
    if (value.length < 32) {
      ctx.addIssue({ code: 'custom', message: `SITE_PASS_SECRET must be at least 32 characters (got ${value.length}); openssl rand -base64 32 makes one` });
      return z.NEVER;
    }
    return value;
  }),
  HEAD_TIMEOUT_MS: int('HEAD_TIMEOUT_MS', 100, 600_000, 10_000),
  REQUEST_TIMEOUT_MS: int('REQUEST_TIMEOUT_MS', 100, 3_600_000, 20_000),
  // unset: DEFAULT_CONNECTIONS_PER_CLIENT, or no limit behind a trusted proxy (see loadConfig)
  CONNECTIONS_PER_CLIENT: int('CONNECTIONS_PER_CLIENT', 0, 1_000_000, -1),
  // the site's X (Twitter) account for twitter:site on its pages (src/site/social.ts)
  TWITTER_SITE: z.string().optional().transform((value, ctx) => {
    if (value === undefined || value === '') return undefined;
    if (!TWITTER_HANDLE.test(value)) {
      ctx.addIssue({ code: 'custom', message: `TWITTER_SITE must be an X (Twitter) handle such as @videoplatform: @ and 1 to 15 letters, digits or _ (got "${value}")` });
      return z.NEVER;
    }
    return value;
  }),
}).superRefine((e, ctx) => {
  if (e.REQUEST_TIMEOUT_MS < e.HEAD_TIMEOUT_MS) {
    ctx.addIssue({ code: 'custom', message: `REQUEST_TIMEOUT_MS (${e.REQUEST_TIMEOUT_MS}) must be at least HEAD_TIMEOUT_MS (${e.HEAD_TIMEOUT_MS}): the request's deadline includes its head` });
  }
});

export interface Config {
  readonly port: number;
  readonly host: string | undefined;
  readonly publicBaseUrl: string;
  /** the origin (scheme, host, port) whose browser requests use the site lane */
  readonly siteOrigin: string;
  readonly catalogueDb: string;
  readonly distDir: string;
  readonly rateLimits: { readonly public: number; readonly site: number; readonly key: number };
  /** the Redis URL where every origin counts rate limits and shares its mutable state (docs/reliability.md, Shared state); undefined: this process's memory and the catalogue file */
  readonly sharedStore: string | undefined;
  /** the origins assumed to share the budget while Redis has not said how many there are */
  readonly origins: number;
  readonly trustProxy: boolean;
  readonly snapshotCacheBytes: number;
  /** whether builds also write the pages as plain files, for nginx or a static host (docs/cdn.md) */
  readonly staticFiles: boolean;
  /** the secret that signs site passes (site-pass.ts); undefined: a random one per process */
  readonly sitePassSecret: string | undefined;
  /** how long a request head may take to arrive, from its first byte (docs/reliability.md) */
  readonly headTimeoutMs: number;
  /** how long a whole request (head and body) may take to arrive */
  readonly requestTimeoutMs: number;
  /** open connections allowed per client address (an IPv6 /64); 0 for no limit */
  readonly connectionsPerClient: number;
  /** the site's X (Twitter) handle for twitter:site, if any */
  readonly twitterSite: string | undefined;
}

/**
 * Open connections per client address unless CONNECTIONS_PER_CLIENT says otherwise: a few dozen
 * browsers behind one NAT (6 connections each), far below the 1,024 files a process often may open
 * (docs/reliability.md). Behind a trusted proxy every connection comes from the proxy: no limit.
 */
export const DEFAULT_CONNECTIONS_PER_CLIENT = 256;

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const result = Env.safeParse(env);
  if (!result.success) throw new ConfigError(`invalid configuration: ${result.error.issues.map((i) => i.message).join('; ')}`);
  const e = result.data;
  // SHARED_STATE_STORE names everything shared through Redis; RATE_LIMIT_STORE, its first name, still works
  if (e.SHARED_STATE_STORE !== undefined && e.RATE_LIMIT_STORE !== undefined && e.SHARED_STATE_STORE !== e.RATE_LIMIT_STORE) {
    throw new ConfigError('invalid configuration: SHARED_STATE_STORE and RATE_LIMIT_STORE name different stores; set SHARED_STATE_STORE only (RATE_LIMIT_STORE is its older name)');
  }
  const publicBaseUrl = e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`;
  return {
    port: e.PORT,
    host: e.HOST || undefined,
    publicBaseUrl,
    // the site's pages are served from the public origin unless another one is named
    siteOrigin: new URL(e.SITE_ORIGIN ?? publicBaseUrl).origin,
    catalogueDb: e.CATALOGUE_DB,
    distDir: e.DIST_DIR,
    rateLimits: { public: e.RATE_LIMIT_PUBLIC, site: e.RATE_LIMIT_SITE, key: e.RATE_LIMIT_KEY },
    sharedStore: e.SHARED_STATE_STORE ?? e.RATE_LIMIT_STORE,
    origins: e.RATE_LIMIT_ORIGINS,
    trustProxy: e.TRUST_PROXY,
    snapshotCacheBytes: e.SNAPSHOT_CACHE_MB * 1024 * 1024,
    staticFiles: e.STATIC_FILES,
    sitePassSecret: e.SITE_PASS_SECRET,
    headTimeoutMs: e.HEAD_TIMEOUT_MS,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    twitterSite: e.TWITTER_SITE,
    connectionsPerClient: e.CONNECTIONS_PER_CLIENT >= 0 ? e.CONNECTIONS_PER_CLIENT : e.TRUST_PROXY ? 0 : DEFAULT_CONNECTIONS_PER_CLIENT,
  };
}
