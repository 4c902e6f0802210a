// The site pass: what admits a request to the site lane (docs/decisions.md, Rate limits). `Origin`
// and `Referer` are one header each for a script to write; the pass is a short-lived token the
// site's own pages hand the browser as a cookie, signed with the deployment's secret and bound to
// the client's address, so a script gets one only by loading a page of the site from its own
// address (what a browser does) and it expires within minutes.
//
// Token: `<expiry, seconds since the epoch>.<HMAC-SHA256, base64url, 128 bits>` over
// `<expiry>|<client address>`, with a key derived from the secret for the hour of the expiry (so the
// key in use rotates every hour; every server of a deployment sharing SITE_PASS_SECRET derives the
// same keys).
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SITE_PASS_COOKIE = 'vp_site_pass';
/** how long a pass is good for */
export const SITE_PASS_SECONDS = 600;
const MAC_BYTES = 16;
const HOUR = 3600;

export interface SitePass {
  /** A pass for `address`, good for SITE_PASS_SECONDS. */
  issue(address: string): string;
  /** Whether `token` is a pass for `address` that has not expired; how many seconds it has left. */
  check(token: string | undefined, address: string): number;
  /** The Set-Cookie value carrying a new pass for `address`. */
  cookie(address: string): string;
}

export interface SitePassOptions {
  /** the deployment's secret (SITE_PASS_SECRET, or random at start) */
  readonly secret: string | Buffer;
  /** whether the site is served over https (the cookie is then Secure) */
  readonly secure: boolean;
  readonly now?: () => number;
}

/** The value of cookie `name` in a Cookie header, or undefined. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined || header.length > 8192) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function createSitePass(options: SitePassOptions): SitePass {
  const now = options.now ?? Date.now;
  const keys = new Map<number, Buffer>();
  const keyFor = (hour: number): Buffer => {
    let key = keys.get(hour);
    if (!key) {
      if (keys.size > 4) keys.clear();
      key = createHmac('sha256', options.secret).update(`site-pass:${hour}`).digest();
      keys.set(hour, key);
    }
    return key;
  };
  const mac = (expiry: number, address: string): Buffer =>
    createHmac('sha256', keyFor(Math.floor(expiry / HOUR))).update(`${expiry}|${address}`).digest().subarray(0, MAC_BYTES);

  const issue = (address: string): string => {
    const expiry = Math.floor(now() / 1000) + SITE_PASS_SECONDS;
    return `${expiry}.${mac(expiry, address).toString('base64url')}`;
  };

  return {
    issue,
    check(token, address) {
      const match = token === undefined ? null : /^(\d{1,12})\.([A-Za-z0-9_-]{22})$/.exec(token);
      if (!match) return 0;
      const expiry = Number(match[1]);
      const left = expiry - Math.floor(now() / 1000);
      if (left <= 0 || left > SITE_PASS_SECONDS) return 0;
      const given = Buffer.from(match[2]!, 'base64url');
      return given.length === MAC_BYTES && timingSafeEqual(given, mac(expiry, address)) ? left : 0;
    },
    cookie(address) {
      return `${SITE_PASS_COOKIE}=${issue(address)}; Path=/; Max-Age=${SITE_PASS_SECONDS}; HttpOnly; SameSite=Strict${options.secure ? '; Secure' : ''}`;
    },
  };
}
