// How the service names itself on its pages and in oEmbed answers.
export const SITE_NAME = 'Video Platform';

/** The site's icon, inline, so no page (player pages included) makes a request for one. */
export const SITE_ICON = 'data:image/svg+xml,' + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#3451b2"/><path d="M12 9v14l11-7z" fill="#fff"/></svg>');

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
const whole = new Intl.NumberFormat('en-US');

/** `1.2M views`, `1 view`: the way counts read on a page. */
export function countOf(n: number, noun: string): string {
  return `${n < 10_000 ? whole.format(n) : compact.format(n)} ${noun}${n === 1 ? '' : 's'}`;
}

/** `2026-03-01`, for dates shown to people (the page also carries the exact instant). */
export const dayOf = (instant: string): string => instant.slice(0, 10);

/** ISO 8601 duration for structured data: 3723 → `PT1H2M3S`. */
export function isoDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `PT${h ? `${h}H` : ''}${m ? `${m}M` : ''}${s || (!h && !m) ? `${s}S` : ''}`;
}

/** JSON for a `<script type="application/ld+json">`: `<` escaped so no text can close the element. */
export const jsonForScript = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');
