import type { Manifest } from './manifest.ts';

/** Canonical URLs whose bodies changed, appeared or disappeared between two snapshots (for CDN purge). */
export function diffManifests(previous: Manifest | undefined, next: Manifest): string[] {
  const before = previous?.pages ?? {};
  const changed = new Set<string>();
  for (const [key, entry] of Object.entries(next.pages)) if (before[key]?.etag !== entry.etag) changed.add(key);
  for (const key of Object.keys(before)) if (!(key in next.pages)) changed.add(key);
  return [...changed].sort();
}
