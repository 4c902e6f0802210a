import { PageTable } from './page-table.ts';
import { WrittenPages } from './written-pages.ts';

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
 * them). The served snapshot's page table (page-table.ts) is asked whether each ETag is the same,
 * making no entry and no string; its keys are only walked when some of them are not in `after`.
 * A page `carried` (taken from `before` under the same key as it was: page-writer.ts
 * carriesPreviousEtag) is the same without asking; so are the pages a build took in place, held by
 * their page numbers in `before` (written-pages.ts), which are not walked at all.
 */
export function diffPages<E extends { readonly etag: string }>(before: ReadonlyMap<string, { readonly etag: string }> | undefined, after: ReadonlyMap<string, E>, carried?: (entry: E) => boolean): string[] {
  const changed: string[] = [];
  const same = before instanceof PageTable ? (key: string, etag: string) => before.sameEtag(key, etag)
    : (key: string, etag: string) => {
      const entry = before?.get(key);
      return entry === undefined ? undefined : entry.etag === etag;
    };
  /** keys of `after` that `before` has: when they are all of before's, none of before's was removed */
  let kept = 0;
  // the pages a build took in place from `before` are held by their page numbers in it
  // (written-pages.ts): the same key and ETag, counted without walking them
  let walked: ReadonlyMap<string, E> = after;
  if (after instanceof WrittenPages && before !== undefined && after.served === before) {
    kept += after.takenCount;
    walked = after.others as unknown as ReadonlyMap<string, E>;
  }
  for (const [key, entry] of walked) {
    if (before !== undefined && carried?.(entry) === true) {
      kept++;
      continue;
    }
    const answer = same(key, entry.etag);
    if (answer !== undefined) kept++;
    if (answer !== true) changed.push(key);
  }
  if (before && kept < before.size) for (const key of before.keys()) if (!after.has(key)) changed.push(key);
  return changed.sort();
}
