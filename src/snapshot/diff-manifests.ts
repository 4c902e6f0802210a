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
