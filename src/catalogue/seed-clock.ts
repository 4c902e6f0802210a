// The demo catalogue's calendar (docs/catalogue.md, "Seed"): its fixed "now" and the dates records
// fall between, and a fast formatter of the instants it writes.
import { formatInstant } from '../lib/time.ts';

/** The demo catalogue's "now": dates fall before it, scheduled streams after it. */
export const SEED_REFERENCE = '2026-11-01T00:00:00Z';

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;
/** SEED_REFERENCE in milliseconds. */
export const SEED_NOW = Date.parse(SEED_REFERENCE);
/** The first video is published on or after this. */
export const FIRST_VIDEO_AT = Date.parse('2019-01-01T00:00:00Z');
/** The first channel is created on or after this. */
export const FIRST_CHANNEL_AT = Date.parse('2008-01-01T00:00:00Z');

const dayPrefixes = new Map<number, string>();
const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** formatInstant, faster: the date part comes from it once per day, the time is arithmetic. */
export function formatSeedInstant(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const day = Math.floor(seconds / 86_400);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) dayPrefixes.set(day, (prefix = formatInstant(day * DAY_MS).slice(0, 11)));
  const rest = seconds - day * 86_400;
  return `${prefix}${pad2(Math.floor(rest / 3600))}:${pad2(Math.floor(rest / 60) % 60)}:${pad2(rest % 60)}Z`;
}
