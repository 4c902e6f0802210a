import { PageTable } from './page-table.ts';

/** What the diff needs of a manifest: each page's ETag. */
export interface PageEtags {
  readonly pages: Readonly<Record<string, { readonly etag: string }>>;
}

/** Canonical URLs whose bodies changed, appeared or disappeared between two snapshots (for CDN purge). */
export function diffManifests(previous: PageEtags | undefined, next: PageEtags): string[] {
  const before = previous?.pages ?? {};
  const changed = new Set<string>();
  for (const [key, entry] of Object.entries(next.pages)) if (before[key]?.etag !== entry.etag) changed.add(key);
  for (const key of Object.keys(before)) if (!(key in next.pages)) changed.add(key);
  return [...changed].sort();
}

/**
 * The same list from the pages of two manifests held as maps (the build's own, without copying
 * them); the served snapshot's page table (page-table.ts) is asked for ETags only, no entry made.
 */
export function diffPages(before: ReadonlyMap<string, { readonly etag: string }> | undefined, after: ReadonlyMap<string, { readonly etag: string }>): string[] {
  const changed: string[] = [];
  const etagOf = before instanceof PageTable ? (key: string) => before.etagOf(key) : (key: string) => before?.get(key)?.etag;
  for (const [key, entry] of after) if (etagOf(key) !== entry.etag) changed.push(key);
  if (before) for (const key of before.keys()) if (!after.has(key)) changed.push(key);
  return changed.sort();
}
